#!/usr/bin/env python3
# BROKEN: field names may not contain "." (the porter reserved it as a path separator for arguments.FIELD), so a field out.format is INVALID_LABEL
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402

patch_source(catalogkit, "validate_fields", "        if not is_label(name):", "        if not is_label(name) or \".\" in name:")

serve(__name__)
