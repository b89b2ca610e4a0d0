#!/usr/bin/env python3
# BROKEN: answers an unavailable name (disabled, other family, unknown) with the first enabled tool.
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
    try:
        return real_select_tools(tools, family, name)
    except catalogkit.CatalogError as e:
        enabled = [t for t in tools if t.enabled]
        if e.code != catalogkit.TOOL_NOT_AVAILABLE_IN_FAMILY or not enabled:
            raise
        return enabled[:1]


catalogkit.select_tools = select_tools


if __name__ == "__main__":
    sys.exit(catalog_port.main())
