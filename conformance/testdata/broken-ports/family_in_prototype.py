#!/usr/bin/env python3
# BROKEN: looks families up with `family in families` against a plain JavaScript object, so the family constructor is known (listed as []) instead of UNKNOWN_FAMILY.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve, OBJECT_PROTOTYPE  # noqa: E402


_select_tools = catalogkit.select_tools


def select_tools(tools, family, name=catalogkit.ABSENT):
    if family in OBJECT_PROTOTYPE and catalogkit.is_label(family) and (name is catalogkit.ABSENT or catalogkit.is_label(name)):
        # families = {}; for (t of tools) families[t.family] = true;
        # if (!(family in families)) throw UNKNOWN_FAMILY: found.
        return [t for t in tools if catalogkit.is_chosen(t, family, name)]
    return _select_tools(tools, family, name)


catalogkit.select_tools = select_tools


serve(__name__)
