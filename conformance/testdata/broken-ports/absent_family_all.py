#!/usr/bin/env python3
# BROKEN: a discover call without a family lists "all" instead of INVALID_LABEL.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import default_absent, serve  # noqa: E402

default_absent("family", "all")


serve(__name__)
