#!/usr/bin/env python3
# BROKEN: reports the last bad tool's error instead of the first one's.
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
    except catalogkit.CatalogError as first:
        if type(catalog) is not list or len(catalog) > catalogkit.MAX_TOOLS:
            raise
        last = first
        for d in catalog:
            try:
                real_validate_catalog([d])
            except catalogkit.CatalogError as e:
                last = e
        raise last


catalogkit.validate_catalog = validate_catalog


if __name__ == "__main__":
    sys.exit(catalog_port.main())
