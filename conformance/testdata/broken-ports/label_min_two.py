#!/usr/bin/env python3
# BROKEN: the label pattern is written [a-z][a-z0-9._-]{1,79}, so a one-character label such as x is refused
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402
import re  # noqa: E402

_LABEL = re.compile(r"[a-z][a-z0-9._-]{1,79}")
catalogkit.is_label = lambda v: type(v) is str and _LABEL.fullmatch(v) is not None

serve(__name__)
