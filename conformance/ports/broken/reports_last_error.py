#!/usr/bin/env python3
# BROKEN: reports the last bad tool's error instead of the first one's.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


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


serve(__name__)
