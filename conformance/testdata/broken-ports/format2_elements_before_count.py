#!/usr/bin/env python3
# BROKEN: checks an array's elements before minItems and maxItems

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

def check_array(n, v, path):
    for i, x in enumerate(v):
        catalogkit2.check(n.items, x, "%s[%d]" % (path, i))
    if n.min_items is not None and len(v) < n.min_items or n.max_items is not None and len(v) > n.max_items:
        raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_VALUE, path + ": count")


catalogkit2.check_array = check_array


serve(__name__)
