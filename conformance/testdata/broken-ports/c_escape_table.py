#!/usr/bin/env python3
# BROKEN: writes strings with C's table of simple escapes, so U+0007 is written \a and U+000B \v (neither is a JSON escape): a reply echoing either is not JSON.
import re
import sys

sys.dont_write_bytecode = True
from _patch import rewrite_output, serve  # noqa: E402

# Every escape of the JSON text as a unit, so that "\\u0007" (an escaped
# backslash, then u0007) is never taken for the escape of U+0007.
ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")
C_ESCAPES = {"u0007": r"\a", "u000b": r"\v"}

rewrite_output(lambda line: ESCAPE.sub(lambda m: C_ESCAPES.get(m.group(1).lower(), m.group(0)), line))
serve(__name__)
