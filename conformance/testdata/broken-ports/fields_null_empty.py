#!/usr/bin/env python3
# BROKEN: "fields": null decodes to a nil map (Go), which reads as a tool with no fields, instead of INVALID_FIELDS
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402

patch_source(catalogkit, "validate_fields", "    if type(fields) is not dict:", "    if fields is None:\n        fields = {}\n    if type(fields) is not dict:")

serve(__name__)
