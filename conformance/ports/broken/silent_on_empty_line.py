#!/usr/bin/env python3
# BROKEN: skips empty lines and lines of white space without a reply.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_handle = catalog_port.Session.handle


class Skip(Exception):
    """Skip is a line that gets no reply."""


def handle(self, raw):
    if not raw.strip(b" \t\r"):
        raise Skip()
    return _handle(self, raw)


catalog_port.Session.handle = handle


def main():
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr
    session = catalog_port.Session()
    while True:
        raw = stdin.readline()
        if not raw:
            return 0
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        try:
            reply = session.handle(raw)
        except Skip:
            continue
        stdout.write(catalog_port.encode(reply).encode("ascii") + b"\n")
        stdout.flush()


catalog_port.main = main


serve(__name__)
