#!/usr/bin/env python3
# BROKEN: skips the bad definitions and serves the rest instead of rejecting the whole catalog.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_validate_catalog = catalogkit.validate_catalog


def validate_catalog(catalog):
    try:
        return real_validate_catalog(catalog)
    except catalogkit.CatalogError:
        if type(catalog) is not list:
            raise
        tools, seen = [], set()
        for d in catalog:
            try:
                (tool,) = real_validate_catalog([d])
            except catalogkit.CatalogError:
                continue
            if tool.name not in seen:
                seen.add(tool.name)
                tools.append(tool)
        return tools


catalogkit.validate_catalog = validate_catalog


serve(__name__)
