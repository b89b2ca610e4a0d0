#!/usr/bin/env python3
# BROKEN: counts a nullable anyOf as a level of nesting

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2._compile_any_of
catalogkit2._compile_any_of = lambda a, path, depth: real(a, path, depth + 1)


serve(__name__)
