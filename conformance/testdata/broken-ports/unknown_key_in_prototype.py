#!/usr/bin/env python3
# BROKEN: tests argument keys with `k in properties` against a plain JavaScript object, so constructor, toString, __proto__, hasOwnProperty and valueOf count as declared.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import check_keys, is_field, serve, OBJECT_PROTOTYPE  # noqa: E402


# properties = {}; for (f of fields) properties[f.name] = ...;
# if (!(key in properties)) throw ...
check_keys(declared=lambda tool, key: is_field(tool, key) or key in OBJECT_PROTOTYPE)


serve(__name__)
