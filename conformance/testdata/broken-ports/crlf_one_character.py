#!/usr/bin/env python3
# BROKEN: counts CR LF inside a string as one character for max_length (a line break, as a text editor counts it), so a 17-code-point string holding \r\n fits a max_length of 16 (catalogkit.code_points).
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

catalogkit.code_points = lambda s: len(s) - s.count("\r\n")

serve(__name__)
