#!/usr/bin/env python3
# BROKEN: takes an object schema without "additionalProperties": false as closed, instead of refusing it

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.compile_schema


def compile_schema(v, path, depth=1, inner=False):
    if type(v) is dict and "additionalProperties" not in v and v.get("type") in ("object", ["object", "null"], ["null", "object"]):
        v = dict(v, additionalProperties=False)
    return real(v, path, depth, inner)


catalogkit2.compile_schema = compile_schema


serve(__name__)
