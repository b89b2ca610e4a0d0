#!/usr/bin/env python3
# BROKEN: tests argument keys with hasattr() on the dict of properties, so __class__, keys and get count as declared.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import check_keys, is_field, serve  # noqa: E402


# A lookup meant for attribute-style access finds the dict's own attributes
# too.
check_keys(declared=lambda tool, key: is_field(tool, key) or hasattr({f.name: f for f in tool.fields}, key))


serve(__name__)
