#!/usr/bin/env python3
# BROKEN: measures a string argument's length after trimming it like Java's String.trim() (every char <= U+0020 at both ends), so " abcdefgh " (10 code points) fits max_length 8; the echo is still whole.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

def code_points(s):
    i, j = 0, len(s)
    while i < j and s[i] <= " ":
        i += 1
    while j > i and s[j - 1] <= " ":
        j -= 1
    return j - i


catalogkit.code_points = code_points

serve(__name__)
