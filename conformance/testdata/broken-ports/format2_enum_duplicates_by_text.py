#!/usr/bin/env python3
# BROKEN: finds an enum's duplicate values by their JSON text, so two objects with their members in another order are two values

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.compile_schema


def compile_schema(v, path, depth=1, inner=False):
    if type(v) is dict and type(v.get("enum")) is list:
        texts = [catalog_port.encode(x) for x in v["enum"]]
        if len(set(texts)) < len(texts):
            raise catalogkit.CatalogError(catalogkit.INVALID_SPEC, path + ".enum: a value twice")
        distinct = []
        for x in v["enum"]:
            if not any(catalogkit2.equal(x, y) for y in distinct):
                distinct.append(x)
        n = real(dict(v, enum=distinct), path, depth, inner)
        n.enum = v["enum"]
        return n
    return real(v, path, depth, inner)


catalogkit2.compile_schema = compile_schema


serve(__name__)
