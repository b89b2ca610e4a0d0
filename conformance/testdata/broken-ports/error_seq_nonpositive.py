#!/usr/bin/env python3
# BROKEN: an error line for a message that is not a call (type missing, not a string, unknown, a second hello) or a call before the hello echoes any integer seq, 0 and -3 included, instead of null.
#
# The port checks "positive" only where a call's seq is checked (rule 8); its
# readable seq for the other error lines is any integer.

import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_handle = catalog_port.Session.handle


def handle(self, raw):
    greeted = self.greeted
    reply = _handle(self, raw)
    if reply.get("type") == "error" and reply.get("seq") is None:
        try:
            msg, problems = catalog_port.decode(raw)
        except Exception:  # noqa: BLE001
            return reply
        if problems or type(msg) is not dict:
            return reply
        s = msg.get("seq")
        if type(s) is int and (msg.get("type") != "call" or not greeted):
            reply["seq"] = s
    return reply


catalog_port.Session.handle = handle
serve(__name__)
