#!/usr/bin/env python3
# BROKEN: reads the seq of a refused line from {"type":"call","seq": and the digits after it without requiring the "," after them, so "seq":7.5, or "seq":7} gives a reply to seq 7.
import re
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

catalog_port._SEQ_PREFIX = re.compile(rb'\{"type":"call","seq":([1-9][0-9]*)')
serve(__name__)
