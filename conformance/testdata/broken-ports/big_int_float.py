#!/usr/bin/env python3
# BROKEN: echoes an integer argument through a float64, so 12345678901234567890123 comes back as 1.2345678901234568e+22.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, echo_leaves, serve  # noqa: E402


def _through_float64(v):
    # As a port whose numbers are float64 (JavaScript's JSON.parse) would:
    # an integer beyond 2**53 is rounded and written in the shortest form
    # that reads back as the same float64 (10**40 comes back as 1e+40, the
    # same value but no longer an integer literal). Smaller integers are
    # exact in a float64 anyway.
    if catalogkit.is_json_integer(v) and abs(v) > 2 ** 53:
        try:
            return catalog_port.Number(repr(float(v)))
        except OverflowError:
            return None
    return v


echo_leaves(_through_float64)
serve(__name__)
