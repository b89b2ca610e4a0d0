#!/usr/bin/env python3
# BROKEN: exits with status 1 at the end of input when the last line it answered got an error line (its exit status is that of the last line).

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import main_loop, serve  # noqa: E402


last = {"status": 0}


def reply(session, raw, ended):
    r = session.handle(raw)
    last["status"] = 1 if r.get("type") == "error" else 0
    return r


main_loop(reply, lambda: last["status"])


serve(__name__)
