#!/usr/bin/env python3
# BROKEN: field names are limited to 64 characters (the limit some tool-calling APIs put on parameter names) instead of 80, so a 65-character field name is INVALID_LABEL
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402

patch_source(catalogkit, "validate_fields", "        if not is_label(name):", "        if not is_label(name) or len(name) > 64:")

serve(__name__)
