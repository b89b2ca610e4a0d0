#!/usr/bin/env python3
# BROKEN: compiles field specs (C7) only for enabled tools, the ones it can serve; a disabled tool gets C6 (object, at most 30) but its field names and specs are never checked
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402

patch_source(catalogkit, "validate_catalog", "        fields = validate_fields(d[\"fields\"], path + \".fields\")", "        fields = validate_fields(d[\"fields\"], path + \".fields\") if enabled else (validate_fields(d[\"fields\"] if type(d[\"fields\"]) is not dict or len(d[\"fields\"]) > 30 else {}, path + \".fields\"))")

serve(__name__)
