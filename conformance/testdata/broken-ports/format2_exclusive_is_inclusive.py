#!/usr/bin/env python3
# BROKEN: takes exclusiveMinimum and exclusiveMaximum as inclusive bounds

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

def check_number(n, v, path):
    x = catalogkit2.decimal(v)
    for low in (n.minimum, n.excl_min):
        if low is not None and x < low:
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_VALUE, path + ": under")
    for high in (n.maximum, n.excl_max):
        if high is not None and x > high:
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_VALUE, path + ": over")


catalogkit2.check_number = check_number


serve(__name__)
