#!/usr/bin/env python3
# BROKEN: looks families up with `family in families` against a plain JavaScript object, so the family constructor is known (listed as []) instead of UNKNOWN_FAMILY.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402

# The names every JavaScript object inherits from Object.prototype: what
# `k in obj` also finds in an object made with {}.
OBJECT_PROTOTYPE = frozenset((
    "constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf",
    "propertyIsEnumerable", "__proto__", "__defineGetter__", "__defineSetter__",
    "__lookupGetter__", "__lookupSetter__",
))

_select_tools = catalogkit.select_tools


def select_tools(tools, family, name=catalogkit.ABSENT):
    if family in OBJECT_PROTOTYPE and catalogkit.is_label(family) and (name is catalogkit.ABSENT or catalogkit.is_label(name)):
        # families = {}; for (t of tools) families[t.family] = true;
        # if (!(family in families)) throw UNKNOWN_FAMILY: found.
        return [t for t in tools if catalogkit.is_chosen(t, family, name)]
    return _select_tools(tools, family, name)


catalogkit.select_tools = select_tools


if __name__ == "__main__":
    sys.exit(catalog_port.main())
