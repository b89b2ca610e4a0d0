#!/usr/bin/env python3
# BROKEN: the duplicate check (C4) remembers only the names of enabled tools (it is built from the index of servable tools), so an enabled tool named like an earlier disabled one is not a DUPLICATE_TOOL
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402

patch_source(catalogkit, "validate_catalog", "        seen.add(name)\n", "        if d[\"enabled\"] is True:\n            seen.add(name)\n")

serve(__name__)
