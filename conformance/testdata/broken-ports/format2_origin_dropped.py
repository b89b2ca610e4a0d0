#!/usr/bin/env python3
# BROKEN: leaves a tool's origin out of its description, so a host cannot tell which server's tool to call

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.describe


def describe(tool):
    d = real(tool)
    d.pop("origin", None)
    return d


catalogkit2.describe = describe


serve(__name__)
