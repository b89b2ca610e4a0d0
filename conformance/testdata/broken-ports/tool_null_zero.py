#!/usr/bin/env python3
# BROKEN: a tool null in the catalog decodes to the zero value of the tool struct (Go), name "", so it is INVALID_LABEL instead of INVALID_FIELDS
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402

patch_source(catalogkit, "validate_catalog", "        if type(d) is not dict:", "        if d is None:\n            d = {\"name\": \"\", \"family\": \"\", \"effect\": \"\", \"enabled\": False, \"fields\": None}\n        if type(d) is not dict:")

serve(__name__)
