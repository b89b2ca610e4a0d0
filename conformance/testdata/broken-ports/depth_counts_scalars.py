#!/usr/bin/env python3
# BROKEN: counts depth per value, as a recursive-descent reader that checks its depth on entry to every value does, so a scalar inside a container at depth 64 counts as depth 65 and the line is refused (catalog_port.depth).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402


def depth(v, limit=catalog_port.MAX_DEPTH):
    d = 0
    level = [v]
    while d <= limit and level:
        below = []
        for x in level:
            if type(x) is list:
                below.extend(x)
            elif type(x) is dict:
                below.extend(x.values())
        d += 1
        level = below
    # d counts the levels that hold any value: a scalar in a container at
    # depth n is at level n + 1.
    if type(v) in (list, dict):
        return d
    return 0


catalog_port.depth = depth
serve(__name__)
