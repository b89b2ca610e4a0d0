#!/usr/bin/env python3
# BROKEN: keeps the last of duplicate object keys, as json.loads does, so a second "enabled" smuggles its value in.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode


def decode(raw):
    value, problems = _decode(raw)
    # Duplicate keys are not a problem: the dict keeps the last value.
    return value, [p for p in problems if not p.startswith("duplicate object key")]


catalog_port.decode = decode


serve(__name__)
