#!/usr/bin/env python3
# BROKEN: skips empty lines and lines of white space without a reply.
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

if __name__ == "__main__":
    sys.exit(catalog_port.main())
