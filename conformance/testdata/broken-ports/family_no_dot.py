#!/usr/bin/env python3
# BROKEN: families are matched with a separate pattern [a-z][a-z0-9_-]{0,79} that lacks "." (in the catalog and as discover's family), so family web.reading is INVALID_LABEL
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402
import re  # noqa: E402

_FAM = re.compile(r"[a-z][a-z0-9_-]{0,79}")
def fam(v):
    return type(v) is str and _FAM.fullmatch(v) is not None
patch_source(catalogkit, "validate_catalog", "        if not is_label(family):", "        if not fam(family):")
catalogkit.fam = fam
patch_source(catalogkit, "select_tools", "    if not is_label(family):", "    if not fam(family):")

serve(__name__)
