#!/usr/bin/env python3
# BROKEN: quotes input in an error detail cut after 64 UTF-16 code units (JavaScript's s.slice(0, 64)), so an emoji across the cut leaves a lone surrogate, written "\ud83d": the reply is not JSON.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

CUT = 64  # UTF-16 code units, as String.prototype.slice counts them


def _quote(s):
    units = s.encode("utf-16-le", "surrogatepass")
    more = "..." if len(units) > 2 * CUT else ""
    return '"' + units[:2 * CUT].decode("utf-16-le", "surrogatepass") + '"' + more


catalogkit._quote = _quote
serve(__name__)
