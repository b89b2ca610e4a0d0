#!/usr/bin/env python3
# BROKEN: caches outcomes by the length of the call line, so a later call of the same length gets an earlier call's outcome.

import json
import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


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


serve(__name__)
