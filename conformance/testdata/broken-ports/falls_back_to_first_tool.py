#!/usr/bin/env python3
# BROKEN: answers an unavailable name (disabled, other family, unknown) with the first enabled tool.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, on_error, serve  # noqa: E402


def first_enabled(select_tools, e, tools, *_):
    enabled = [t for t in tools if t.enabled]
    if e.code != catalogkit.TOOL_NOT_AVAILABLE_IN_FAMILY or not enabled:
        raise e
    return enabled[:1]


on_error(catalogkit, "select_tools", catalogkit.CatalogError, first_enabled)
serve(__name__)
