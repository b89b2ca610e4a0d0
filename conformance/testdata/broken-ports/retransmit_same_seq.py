#!/usr/bin/env python3
# BROKEN: a call whose seq equals the previous call's seq is taken for a retransmission and gets the previous reply again, whatever the call now says.
import sys
sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_handle = catalog_port.Session.handle


def handle(self, raw):
    r = _handle(self, raw)
    if r.get("type") == "reply":
        last = getattr(self, "_last", None)
        if last is not None and last["seq"] == r["seq"]:
            return last  # a retransmitted call: repeat the answer
        self._last = r
    return r


catalog_port.Session.handle = handle
serve(__name__)
