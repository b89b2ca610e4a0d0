#!/usr/bin/env python3
# BROKEN: caches outcomes by the length of the call line, so a later call of the same length gets an earlier call's outcome.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402,F401

import json  # noqa: E402

_outcome = catalog_port.outcome
_handle = catalog_port.Session.handle
cache = {}
current = [0]


def handle(self, raw):
    # The length of the line without its seq: the cache key.
    current[0] = len(raw) - len(str(_seq_of(raw)))
    return _handle(self, raw)


def _seq_of(raw):
    try:
        return json.loads(raw).get("seq")
    except Exception:  # noqa: BLE001 -- any line: the key is only a length
        return ""


def outcome(call):
    key = current[0]
    if key not in cache:
        cache[key] = _outcome(call)
    return cache[key]


catalog_port.Session.handle = handle
catalog_port.outcome = outcome

if __name__ == "__main__":
    sys.exit(catalog_port.main())
