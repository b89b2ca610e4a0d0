#!/usr/bin/env python3
# BROKEN: a mutate_and_repeat of discover echoes the inner call's "arguments" member instead of null.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402,F401

_mutate_and_repeat = catalog_port.mutate_and_repeat


def mutate_and_repeat(inner):
    result = _mutate_and_repeat(inner)
    if "arguments" in inner:
        result["arguments"] = catalog_port.snapshot(inner["arguments"])
    return result


catalog_port.mutate_and_repeat = mutate_and_repeat

if __name__ == "__main__":
    sys.exit(catalog_port.main())
