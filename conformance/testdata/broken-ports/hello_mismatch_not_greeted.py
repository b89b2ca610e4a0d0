#!/usr/bin/env python3
# BROKEN: a hello asking for another protocol version is answered with the port's own version but not taken as the handshake: a later hello gets a second hello reply instead of an error line, and calls after it are "before the hello".
import sys
sys.dont_write_bytecode = True
from _patch import catalog_port, patch_source, serve  # noqa: E402

patch_source(catalog_port.Session, "handle",
             "self.greeted = True",
             'self.greeted = msg.get("protocol") == PROTOCOL')
serve(__name__)
