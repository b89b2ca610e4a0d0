#!/usr/bin/env python3
# BROKEN: takes any Unicode decimal digit for a digit in a label (page.v followed by U+0663), as \d does in a Python str pattern.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402

import re  # noqa: E402

catalogkit._LABEL = re.compile(r"[a-z][a-z\d._-]{0,79}")


serve(__name__)
