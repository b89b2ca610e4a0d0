#!/usr/bin/env python3
# BROKEN: exits with status 1 at the end of input when the last line it answered got an error line (its exit status is that of the last line).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402


def main():
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr
    session = catalog_port.Session()
    status = 0
    while True:
        raw = stdin.readline()
        if not raw:
            return status
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        reply = session.handle(raw)
        status = 1 if reply.get("type") == "error" else 0
        stdout.write(catalog_port.encode(reply).encode("ascii") + b"\n")
        stdout.flush()


catalog_port.main = main
serve(__name__)
