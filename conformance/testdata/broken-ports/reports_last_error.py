#!/usr/bin/env python3
# BROKEN: reports the last bad tool's error instead of the first one's.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, on_error, serve  # noqa: E402


def last_error(validate_catalog, first, catalog):
    if type(catalog) is not list or len(catalog) > catalogkit.MAX_TOOLS:
        raise first
    last = first
    for d in catalog:
        try:
            validate_catalog([d])
        except catalogkit.CatalogError as e:
            last = e
    raise last


on_error(catalogkit, "validate_catalog", catalogkit.CatalogError, last_error)
serve(__name__)
