#!/usr/bin/env python3
# BROKEN: echoes seq through a float, so 9007199254740993 comes back as 9007199254740992.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_handle = catalog_port.Session.handle


def handle(self, raw):
    reply = _handle(self, raw)
    if type(reply.get("seq")) is int:
        reply["seq"] = int(float(reply["seq"]))
    return reply


catalog_port.Session.handle = handle


serve(__name__)
