#!/usr/bin/env python3
# BROKEN: counts a string's UTF-8 bytes instead of its code points.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


catalogkit.code_points = lambda s: len(s.encode("utf-8", "surrogatepass"))


serve(__name__)
