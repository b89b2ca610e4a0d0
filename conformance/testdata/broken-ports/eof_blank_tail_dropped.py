#!/usr/bin/env python3
# BROKEN: at the end of input, a last line without a newline that is empty or only white space (" ", "\t", "\r") gets no reply: the port takes it for trailing white space of the stream.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import main_loop, serve  # noqa: E402


def reply(session, raw, ended):
    if ended and not raw.strip(b" \t\r"):
        return None  # taken for trailing white space of the stream
    return session.handle(raw)


main_loop(reply)


serve(__name__)
