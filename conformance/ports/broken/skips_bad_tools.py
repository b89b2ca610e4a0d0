#!/usr/bin/env python3
# BROKEN: skips the bad definitions and serves the rest instead of rejecting the whole catalog.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


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


if __name__ == "__main__":
    sys.exit(catalog_port.main())
