#!/usr/bin/env python3
# BROKEN: until the handshake is made, the port recognizes the hello with the stock JSON parser (json.loads: last duplicate key wins, NaN allowed) before the strict text layer sees the line, so a hello line the text layer refuses (a duplicate key) is answered with the hello reply.
import json
import sys
sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_handle = catalog_port.Session.handle


def handle(self, raw):
    if not self.greeted:
        try:
            msg = json.loads(raw)
        except ValueError:
            msg = None
        if type(msg) is dict and msg.get("type") == "hello":
            self.greeted = True
            return {"type": "hello", "protocol": catalog_port.PROTOCOL,
                    "port": {"name": catalog_port.PORT_NAME, "language": catalog_port.PORT_LANGUAGE,
                             "version": catalog_port.port_version()}}
    return _handle(self, raw)


catalog_port.Session.handle = handle
serve(__name__)
