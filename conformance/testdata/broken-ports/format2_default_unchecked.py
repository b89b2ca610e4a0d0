#!/usr/bin/env python3
# BROKEN: takes a default that does not fit the schema

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2._finish
catalogkit2._finish = lambda n, v, path: real(n, {k: x for k, x in v.items() if k != "default"}, path)


serve(__name__)
