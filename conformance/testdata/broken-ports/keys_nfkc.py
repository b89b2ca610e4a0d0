#!/usr/bin/env python3
# BROKEN: matches argument keys to field names after NFKC normalization (as Python does for identifiers, the port maps arguments onto keyword names), so a full-width "ｔａｂ＿ｉｄ" or a ligature "ﬁlter" counts as the field tab_id or filter; the echo keeps the keys as sent (check_argument_keys).
import sys
import unicodedata

sys.dont_write_bytecode = True
from _patch import check_keys, serve  # noqa: E402


def declared(tool, key):
    return tool.field(unicodedata.normalize("NFKC", key)) is not None


def present(arguments, name):
    return any(unicodedata.normalize("NFKC", k) == name for k in arguments)


check_keys(declared, present)
serve(__name__)
