#!/usr/bin/env python3
# BROKEN: writes the seq of an error line through a float64 (the reply path keeps it exact), so {"type":"bye","seq":9007199254740993} gets an error line with seq 9007199254740992.
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_handle = catalog_port.Session.handle


def handle(self, raw):
    reply = _handle(self, raw)
    if reply.get("type") == "error" and type(reply.get("seq")) is int:
        reply["seq"] = int(float(reply["seq"]))
    return reply


catalog_port.Session.handle = handle
serve(__name__)
