#!/usr/bin/env python3
# BROKEN: a mutate_and_repeat of discover echoes the inner call's "arguments" member instead of null.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_mutate_and_repeat = catalog_port.mutate_and_repeat


def mutate_and_repeat(inner):
    result = _mutate_and_repeat(inner)
    if "arguments" in inner:
        result["arguments"] = catalog_port.snapshot(inner["arguments"])
    return result


catalog_port.mutate_and_repeat = mutate_and_repeat


serve(__name__)
