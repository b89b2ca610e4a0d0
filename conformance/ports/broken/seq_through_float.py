#!/usr/bin/env python3
# BROKEN: echoes seq through a float, so 9007199254740993 comes back as 9007199254740992.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402,F401

_handle = catalog_port.Session.handle


def handle(self, raw):
    reply = _handle(self, raw)
    if type(reply.get("seq")) is int:
        reply["seq"] = int(float(reply["seq"]))
    return reply


catalog_port.Session.handle = handle

if __name__ == "__main__":
    sys.exit(catalog_port.main())
