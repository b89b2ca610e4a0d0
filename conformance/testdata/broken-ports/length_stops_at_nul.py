#!/usr/bin/env python3
# BROKEN: counts a string's length up to its first U+0000 (strlen on the decoded C string), so "a\u0000" followed by 20 letters fits max_length 16; the echo is still whole.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402


def code_points(s):
    return len(s.split("\x00", 1)[0])


catalogkit.code_points = code_points
serve(__name__)
