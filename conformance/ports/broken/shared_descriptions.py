#!/usr/bin/env python3
# BROKEN: memoizes descriptions by tool name and hands out the same objects to every call.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


real_describe = catalogkit.describe
_descriptions = {}


def describe(tool):
    if tool.name not in _descriptions:
        _descriptions[tool.name] = real_describe(tool)
    return _descriptions[tool.name]


catalogkit.describe = describe


if __name__ == "__main__":
    sys.exit(catalog_port.main())
