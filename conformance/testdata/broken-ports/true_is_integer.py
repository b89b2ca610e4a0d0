#!/usr/bin/env python3
# BROKEN: accepts true and false as integers (Python's bool is a subclass of int).

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


catalogkit.is_json_integer = lambda v: isinstance(v, int)


serve(__name__)
