#!/usr/bin/env python3
# BROKEN: ignores data after the message, as JSONDecoder.raw_decode does.

import sys
import json

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, on_error, serve  # noqa: E402


def keep_what_was_read(decode, e, raw):
    if e.msg != "Extra data":
        raise e
    return decode(e.doc[:e.pos].encode("utf-8"))  # drop the rest


on_error(catalog_port, "decode", json.JSONDecodeError, keep_what_was_read)
serve(__name__)
