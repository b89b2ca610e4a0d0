#!/usr/bin/env python3
# BROKEN: memoizes descriptions by tool name and hands out the same objects to every call.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_describe = catalogkit.describe
_descriptions = {}


def describe(tool):
    if tool.name not in _descriptions:
        _descriptions[tool.name] = real_describe(tool)
    return _descriptions[tool.name]


catalogkit.describe = describe


serve(__name__)
