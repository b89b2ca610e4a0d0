#!/usr/bin/env python3
# BROKEN: when a tool's family is literally "all", discover("all") lists only the tools of that family.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


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


serve(__name__)
