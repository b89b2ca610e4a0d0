#!/usr/bin/env python3
# BROKEN: tests labels with JavaScript's LABEL.test(v) after a null/undefined guard; RegExp.prototype.test converts its argument with ToString, so true, false and ["reading"] are labels (a family ["reading"] is UNKNOWN_FAMILY, a tool named true is valid).
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

import re  # noqa: E402

_LABEL = re.compile(r"[a-z][a-z0-9._-]{0,79}")


def _js_string(v):
    if v is None:
        return "null"
    if type(v) is bool:
        return "true" if v else "false"
    if type(v) is str:
        return v
    if type(v) is list:
        return ",".join("" if x is None else _js_string(x) for x in v)
    if type(v) is dict:
        return "[object Object]"
    return str(v)


def is_label(v):
    if v is None or v is catalogkit.ABSENT:
        return False
    return _LABEL.fullmatch(_js_string(v)) is not None


catalogkit.is_label = is_label

# The detail text is built with a template string, which coerces alike.
_quote = catalogkit._quote
catalogkit._quote = lambda s: _quote(s if type(s) is str else _js_string(s))

serve(__name__)
