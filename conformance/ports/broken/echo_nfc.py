#!/usr/bin/env python3
# BROKEN: echoes string arguments NFC-normalized (a platform string type that normalizes on the way out), so "e\u0301" is checked as 2 code points but comes back as "\u00e9" (copy_json).
import sys
import unicodedata

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_real = catalogkit.copy_json


def copy_json(v):
    if type(v) is str:
        return unicodedata.normalize("NFC", v)
    if type(v) is dict:
        return {k: copy_json(x) for k, x in v.items()}
    if type(v) is list:
        return [copy_json(x) for x in v]
    return v


catalogkit.copy_json = copy_json
serve(__name__)
