#!/usr/bin/env python3
# BROKEN: skips the bad definitions and serves the rest instead of rejecting the whole catalog.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, on_error, serve  # noqa: E402


def good_tools(validate_catalog, e, catalog):
    if type(catalog) is not list:
        raise e
    tools, seen = [], set()
    for d in catalog:
        try:
            (tool,) = validate_catalog([d])
        except catalogkit.CatalogError:
            continue
        if tool.name not in seen:
            seen.add(tool.name)
            tools.append(tool)
    return tools


on_error(catalogkit, "validate_catalog", catalogkit.CatalogError, good_tools)
serve(__name__)
