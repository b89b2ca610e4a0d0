#!/usr/bin/env python3
# BROKEN: a label may not hold two separators in a row (.., ._, --): the pattern is [a-z][a-z0-9]*([._-][a-z0-9]*)* with no empty segment, so page..read is refused
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402
import re  # noqa: E402

_is_label = catalogkit.is_label
catalogkit.is_label = lambda v: _is_label(v) and re.search(r"[._-][._-]", v) is None

serve(__name__)
