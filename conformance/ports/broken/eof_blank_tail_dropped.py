#!/usr/bin/env python3
# BROKEN: at the end of input, a last line without a newline that is empty or only white space (" ", "\t", "\r") gets no reply: the port takes it for trailing white space of the stream.
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402


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
        elif not raw.strip(b" \t\r"):
            return 0  # the bug: a blank unterminated tail is dropped
        reply = session.handle(raw)
        stdout.write(catalog_port.encode(reply).encode("ascii") + b"\n")
        stdout.flush()


catalog_port.main = main
serve(__name__)
