#!/usr/bin/env python3
# BROKEN: reads lines with a bounded read of 32 MiB + 2 bytes (fgets-style, room for the CR and LF); a longer line is refused, but the rest of it is then read as one or more further lines, each with its own reply.
import sys
sys.dont_write_bytecode = True
from _patch import catalog_port, serve, write_line  # noqa: E402

CHUNK = catalog_port.MAX_INPUT_BYTES + 2


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    session = catalog_port.Session()
    while True:
        raw = stdin.readline(CHUNK)
        if not raw:
            return 0
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        write_line(stdout, session.handle(raw))


catalog_port.main = main
serve(__name__)
