#!/usr/bin/env python3
# BROKEN: lets null through every nullable schema, type [T, "null"] with an enum that leaves null out included

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.compile_schema


def compile_schema(v, path, depth=1, inner=False):
    n = real(v, path, depth, inner)
    if n.nullable:
        n.null_skips = True
    return n


catalogkit2.compile_schema = compile_schema


serve(__name__)
