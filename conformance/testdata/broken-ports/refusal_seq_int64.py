#!/usr/bin/env python3
# BROKEN: parses the seq of a refused line as a signed 64-bit integer (Long.parseLong, strconv.ParseInt); one beyond 2^63-1 fails to parse and the line gets an error line with seq null.
#
# Valid lines are read by the JSON reader, which keeps any seq exactly; only
# the prefix scan of refused lines goes through int64.

import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_refusal = catalog_port.refusal


def refusal(raw, why):
    m = catalog_port._SEQ_PREFIX.match(raw)
    if m and int(m.group(1)) > (1 << 63) - 1:
        return {"type": "error", "seq": None, "message": "the line is not valid JSON: " + why}
    return _refusal(raw, why)


catalog_port.refusal = refusal
serve(__name__)
