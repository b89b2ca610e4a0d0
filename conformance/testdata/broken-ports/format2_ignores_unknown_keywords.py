#!/usr/bin/env python3
# BROKEN: ignores keywords outside the subset (pattern, $ref, oneOf, ...) instead of refusing the schema

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.compile_schema


def compile_schema(v, path, depth=1, inner=False):
    if type(v) is dict:
        known = set(catalogkit2.APPLIES) | catalogkit2.ANY_TYPE | {"type", "anyOf", "$schema"}
        v = {k: x for k, x in v.items() if k in known}
    return real(v, path, depth, inner)


catalogkit2.compile_schema = compile_schema


serve(__name__)
