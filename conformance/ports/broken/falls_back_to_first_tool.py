#!/usr/bin/env python3
# BROKEN: answers an unavailable name (disabled, other family, unknown) with the first enabled tool.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


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


serve(__name__)
