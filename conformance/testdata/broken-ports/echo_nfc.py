#!/usr/bin/env python3
# BROKEN: echoes string arguments NFC-normalized (a platform string type that normalizes on the way out), so "e\u0301" is checked as 2 code points but comes back as "\u00e9" (copy_json).
import sys
import unicodedata

sys.dont_write_bytecode = True
from _patch import echo_leaves, serve  # noqa: E402

echo_leaves(lambda v: unicodedata.normalize("NFC", v) if type(v) is str else v)
serve(__name__)
