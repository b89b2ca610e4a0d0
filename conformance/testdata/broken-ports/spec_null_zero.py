#!/usr/bin/env python3
# BROKEN: a field spec null decodes to the zero value of the spec struct (Go), type "", so it is INVALID_SPEC instead of INVALID_FIELDS
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402

patch_source(catalogkit, "validate_fields", "        if type(spec) is not dict:", "        if spec is None:\n            spec = {\"type\": \"\", \"required\": False, \"max_length\": 0}\n        if type(spec) is not dict:")

serve(__name__)
