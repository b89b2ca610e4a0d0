#!/usr/bin/env python3
# BROKEN: refuses a schema whose lower and upper numeric bounds are equal, as if no value could fit

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.compile_schema


def compile_schema(v, path, depth=1, inner=False):
    n = real(v, path, depth, inner)
    lows = [b for b in (n.minimum, n.excl_min) if b is not None]
    highs = [b for b in (n.maximum, n.excl_max) if b is not None]
    if lows and highs and max(lows) >= min(highs):
        raise catalogkit.CatalogError(catalogkit.INVALID_SPEC, path + ": no value fits")
    return n


catalogkit2.compile_schema = compile_schema


serve(__name__)
