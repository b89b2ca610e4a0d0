#!/usr/bin/env python3
# BROKEN: takes a line for the hello only when it has a string "protocol" member, so a first {"type":"hello"} gets an error line and the session stays ungreeted (catalog_port.Session.handle).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_handle = catalog_port.Session.handle


def handle(self, raw):
    if not self.greeted:
        try:
            msg, problems = catalog_port.decode(raw)
        except ValueError:
            msg, problems = None, ["unreadable"]
        if not problems and type(msg) is dict and msg.get("type") == "hello" and type(msg.get("protocol")) is not str:
            return {"type": "error", "seq": None, "message": "a hello without a protocol"}
    return _handle(self, raw)


catalog_port.Session.handle = handle
serve(__name__)
