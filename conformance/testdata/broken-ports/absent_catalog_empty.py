#!/usr/bin/env python3
# BROKEN: a call without a catalog gets the empty catalog [] instead of INVALID_CATALOG.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import default_absent, serve  # noqa: E402

default_absent("catalog", [])


serve(__name__)
