#!/usr/bin/env python3
# BROKEN: after answering a hello that asks for another protocol version, the port exits (status 0) at once, since "the runner stops" then, instead of serving until its stdin is closed.
import sys
sys.dont_write_bytecode = True
from _patch import catalog_port, serve, write_line  # noqa: E402


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    session = catalog_port.Session()
    while True:
        raw = stdin.readline()
        if not raw:
            return 0
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        r = session.handle(raw)
        write_line(stdout, r)
        if r.get("type") == "hello":
            msg, _ = catalog_port.decode(raw)
            if msg.get("protocol") != catalog_port.PROTOCOL:
                return 0  # version mismatch: the session is over


catalog_port.main = main
serve(__name__)
