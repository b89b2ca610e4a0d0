#!/usr/bin/env python3
# BROKEN: memoizes validate_arguments outcomes in a dictionary keyed by the call (catalog, name, arguments) serialized as a Swift String, whose == is canonical equivalence: "e\u0301" (2 code points) and "\u00e9" (1) are one key, so the second gets the first's outcome and echo.
import json
import sys
import unicodedata
sys.dont_write_bytecode = True
from _patch import catalogkit, memoize_validate, serve  # noqa: E402


def _key(*values):
    # The call serialized with its characters raw (no \u escapes), compared
    # as Swift compares Strings: up to canonical equivalence.
    text = json.dumps([None if v is catalogkit.ABSENT else v for v in values], ensure_ascii=False, default=str)
    return unicodedata.normalize("NFC", text)


memoize_validate(_key, errors=(TypeError, ValueError, UnicodeEncodeError))
serve(__name__)
