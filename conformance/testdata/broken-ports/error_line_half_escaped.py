#!/usr/bin/env python3
# BROKEN: writes an error line from a template whose message, which names an unknown type as it was sent, is escaped only for " and \, so a type holding a TAB or U+0001 goes out raw and the error line is not JSON.
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_encode = catalog_port.encode


def half_escaped(s):
    return "".join("\\" + c if c in '"\\' else c if ord(c) < 0x7F else _encode(c)[1:-1] for c in s)


def encode(v):
    if type(v) is dict and v.get("type") == "error":
        return '{"type":"error","seq":' + _encode(v["seq"]) + ',"message":"' + half_escaped(v["message"]) + '"}'
    return _encode(v)


catalog_port.encode = encode

_handle = catalog_port.Session.handle


def handle(self, raw):
    # The message names the unknown type as it was sent, not quoted.
    r = _handle(self, raw)
    if type(r) is dict and r.get("type") == "error" and r["message"].startswith("unknown message type "):
        kind = catalog_port.decode(raw)[0].get("type")
        if type(kind) is str:
            r["message"] = "unknown message type " + kind
    return r


catalog_port.Session.handle = handle
serve(__name__)
