#!/usr/bin/env python3
# BROKEN: after answering a hello that asks for another protocol version, the port exits (status 0) at once, since "the runner stops" then, instead of serving until its stdin is closed.
import sys
sys.dont_write_bytecode = True
from _patch import catalog_port, main_loop, serve  # noqa: E402


def after_mismatch(raw, r):
    if r.get("type") != "hello":
        return False
    msg, _ = catalog_port.decode(raw)
    return msg.get("protocol") != catalog_port.PROTOCOL  # the session is over


main_loop(lambda session, raw, ended: session.handle(raw), stop=after_mismatch)
serve(__name__)
