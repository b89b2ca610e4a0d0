#!/usr/bin/env python3
# BROKEN: looks the family up (UNKNOWN_FAMILY) before checking that the name is a label.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_select_tools = catalogkit.select_tools


def select_tools(tools, family, name=catalogkit.ABSENT):
    # Discover steps 3 and 4 swapped: an unknown family wins over a bad name.
    if catalogkit.is_label(family) and family != catalogkit.ALL and not any(t.family == family for t in tools):
        raise catalogkit.CatalogError(catalogkit.UNKNOWN_FAMILY, "no tool has family %s" % catalogkit._quote(family))
    return real_select_tools(tools, family, name)


catalogkit.select_tools = select_tools


serve(__name__)
