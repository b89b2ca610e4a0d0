#!/usr/bin/env python3
# BROKEN: a validate_arguments call without arguments gets {} instead of INVALID_ARGUMENT_KEYS.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import default_absent, serve  # noqa: E402

default_absent("arguments", {})


serve(__name__)
