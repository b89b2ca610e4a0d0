#!/usr/bin/env python3
# BROKEN: writes "title": "" and "annotations": {} into a description whose tool has neither

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.describe


def describe(tool):
    d = real(tool)
    d.setdefault("title", "")
    d.setdefault("annotations", {})
    return d


catalogkit2.describe = describe


serve(__name__)
