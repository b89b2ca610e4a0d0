#!/usr/bin/env python3
# BROKEN: takes an input schema whose root is nullable

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.compile_schema


def compile_schema(v, path, depth=1, inner=False):
    n = real(v, path, depth, inner)
    if depth == 1 and not inner and path.endswith(".inputSchema"):
        n.nullable = False
    return n


catalogkit2.compile_schema = compile_schema


serve(__name__)
