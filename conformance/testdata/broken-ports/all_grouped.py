#!/usr/bin/env python3
# BROKEN: lists "all" grouped by family (in order of first appearance), not in catalog order.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_select_tools = catalogkit.select_tools


def select_tools(tools, family, name=catalogkit.ABSENT):
    chosen = real_select_tools(tools, family, name)
    if family == catalogkit.ALL:
        first = {}
        for t in tools:
            first.setdefault(t.family, len(first))
        chosen.sort(key=lambda t: first[t.family])  # stable: catalog order within a family
    return chosen


catalogkit.select_tools = select_tools


serve(__name__)
