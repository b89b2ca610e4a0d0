#!/usr/bin/env python3
# BROKEN: matches labels with POSIX regexec on a NUL-terminated copy of the string (a C port), so "reading\u0000x" is a label: discover("reading\u0000x") is UNKNOWN_FAMILY instead of INVALID_LABEL (is_label).
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_pattern = catalogkit._LABEL


def is_label(v):
    return type(v) is str and _pattern.fullmatch(v.split("\x00", 1)[0]) is not None


catalogkit.is_label = is_label
serve(__name__)
