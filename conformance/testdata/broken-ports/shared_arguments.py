#!/usr/bin/env python3
# BROKEN: returns the caller's own arguments object in the result, not a copy.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


catalogkit.copy_json = lambda v: v


serve(__name__)
