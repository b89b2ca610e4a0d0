#!/usr/bin/env python3
# BROKEN: looks the family up (UNKNOWN_FAMILY) before checking that the name is a label.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


real_select_tools = catalogkit.select_tools


def select_tools(tools, family, name=catalogkit.ABSENT):
    # Discover steps 3 and 4 swapped: an unknown family wins over a bad name.
    if catalogkit.is_label(family) and family != catalogkit.ALL and not any(t.family == family for t in tools):
        raise catalogkit.CatalogError(catalogkit.UNKNOWN_FAMILY, "no tool has family %s" % catalogkit._quote(family))
    return real_select_tools(tools, family, name)


catalogkit.select_tools = select_tools


if __name__ == "__main__":
    sys.exit(catalog_port.main())
