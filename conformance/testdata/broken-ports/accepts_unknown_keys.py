#!/usr/bin/env python3
# BROKEN: accepts argument keys that the tool's schema lacks.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import check_keys, serve  # noqa: E402


check_keys(declared=lambda tool, key: True)


serve(__name__)
