#!/usr/bin/env python3
# BROKEN: a label may not contain "-": the pattern is ^[a-z][a-z0-9._]{0,79}$.

import sys
import re

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


_label = re.compile(r"[a-z][a-z0-9._]{0,79}")
catalogkit.is_label = lambda v: type(v) is str and _label.fullmatch(v) is not None


serve(__name__)
