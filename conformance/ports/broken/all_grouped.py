#!/usr/bin/env python3
# BROKEN: lists "all" grouped by family (in order of first appearance), not in catalog order.
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
    chosen = real_select_tools(tools, family, name)
    if family == catalogkit.ALL:
        first = {}
        for t in tools:
            first.setdefault(t.family, len(first))
        chosen.sort(key=lambda t: first[t.family])  # stable: catalog order within a family
    return chosen


catalogkit.select_tools = select_tools


if __name__ == "__main__":
    sys.exit(catalog_port.main())
