#!/usr/bin/env python3
# BROKEN: field names are matched with their own pattern [a-z][a-z0-9._-]* (no 80-character bound), so an 81-character field name is accepted.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, patch_source, serve  # noqa: E402

patch_source(catalogkit, "validate_fields",
             "        if not is_label(name):",
             "        if not (type(name) is str and re.fullmatch(r\"[a-z][a-z0-9._-]*\", name)):")

serve(__name__)
