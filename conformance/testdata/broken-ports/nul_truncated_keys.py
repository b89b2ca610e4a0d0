#!/usr/bin/env python3
# BROKEN: compares keys as C strings, up to the first U+0000, so "a" and "a\u0000b" are taken for duplicates.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import duplicates_by, serve  # noqa: E402

duplicates_by(lambda key: key.split("\0", 1)[0])


serve(__name__)
