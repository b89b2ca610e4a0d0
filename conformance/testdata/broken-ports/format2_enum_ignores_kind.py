#!/usr/bin/env python3
# BROKEN: compares numbers in enum and const by value alone: 1.0 equals 1

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.equal


def equal(a, b):
    numbers = ("integer", "number")
    if catalogkit2.kind(a) in numbers and catalogkit2.kind(b) in numbers:
        return catalogkit2.decimal(a) == catalogkit2.decimal(b)
    return real(a, b)


real_key = catalogkit2.key


def key(v):
    # the same bug where the enum's duplicates are found by key: an integer
    # and a number of the same value share one
    k = real_key(v)
    if k[0] == "integer":
        k = ("number",) + k[1:]
    return k


catalogkit2.equal = equal
catalogkit2.key = key


serve(__name__)
