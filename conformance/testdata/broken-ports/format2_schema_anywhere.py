#!/usr/bin/env python3
# BROKEN: takes $schema on any schema, not only on the input schema itself

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.compile_schema


def compile_schema(v, path, depth=1, inner=False):
    if type(v) is dict and "$schema" in v and (depth > 1 or inner):
        v = {k: x for k, x in v.items() if k != "$schema"}
    return real(v, path, depth, inner)


catalogkit2.compile_schema = compile_schema


serve(__name__)
