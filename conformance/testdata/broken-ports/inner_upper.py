#!/usr/bin/env python3
# BROKEN: a label may hold uppercase letters after its first character (pAge.read, tabId).

import sys
import re

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


_label = re.compile(r"[a-z][a-zA-Z0-9._-]{0,79}")
catalogkit.is_label = lambda v: type(v) is str and _label.fullmatch(v) is not None


serve(__name__)
