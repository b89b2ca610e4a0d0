#!/usr/bin/env python3
# BROKEN: skips empty lines and lines of white space without a reply.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import main_loop, serve  # noqa: E402


def reply(session, raw, ended):
    if not raw.strip(b" \t\r"):
        return None
    return session.handle(raw)


main_loop(reply)


serve(__name__)
