#!/usr/bin/env python3
# BROKEN: takes a number with an integral value, 1.0 or 1e2, for an integer, as JSON Schema does

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.kind


def kind(v):
    k = real(v)
    if k == "number":
        d = catalogkit2.decimal(v)
        if d == d.to_integral_value():
            return "integer"
    return k


catalogkit2.kind = kind


serve(__name__)
