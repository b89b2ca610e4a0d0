#!/usr/bin/env python3
# BROKEN: tests required keys with `name in arguments` against a plain JavaScript object, so a missing field named constructor counts as present.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import check_keys, serve, OBJECT_PROTOTYPE  # noqa: E402


# if (f.required && !(f.name in args)) throw ...
check_keys(present=lambda arguments, name: name in arguments or name in OBJECT_PROTOTYPE)


serve(__name__)
