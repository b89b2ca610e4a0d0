#!/usr/bin/env python3
# BROKEN: the hello reply echoes the protocol the runner asked for instead of the port's own, so a hello asking for catalogkit-conformance/2 is answered as if the port spoke it
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, catalog_port, serve  # noqa: E402

_h = catalog_port.Session.handle
def handle(self, raw):
    r = _h(self, raw)
    if type(r) is dict and r.get("type") == "hello":
        try:
            p = catalog_port.json.loads(raw).get("protocol")
        except Exception:
            p = None
        if type(p) is str:
            r["protocol"] = p
    return r
catalog_port.Session.handle = handle

serve(__name__)
