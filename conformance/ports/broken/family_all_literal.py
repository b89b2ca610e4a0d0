#!/usr/bin/env python3
# BROKEN: when a tool's family is literally "all", discover("all") lists only the tools of that family.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402,F401

def is_chosen(tool, family, name):
    return (tool.enabled
            and (tool.family == family or family == catalogkit.ALL and not any_all[0])
            and (name is catalogkit.ABSENT or tool.name == name))


any_all = [False]
_select_tools = catalogkit.select_tools


def select_tools(tools, family, name=catalogkit.ABSENT):
    any_all[0] = any(t.family == catalogkit.ALL for t in tools)
    return _select_tools(tools, family, name)


catalogkit.is_chosen = is_chosen
catalogkit.select_tools = select_tools

if __name__ == "__main__":
    sys.exit(catalog_port.main())
