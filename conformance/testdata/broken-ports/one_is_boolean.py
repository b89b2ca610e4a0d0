#!/usr/bin/env python3
# BROKEN: accepts the integers 0 and 1 as booleans.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


catalogkit.is_json_boolean = lambda v: type(v) is bool or (type(v) is int and v in (0, 1))


serve(__name__)
