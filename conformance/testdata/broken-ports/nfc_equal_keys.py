#!/usr/bin/env python3
# BROKEN: takes two keys for duplicates when they are equal once NFC-normalized ("\u00e9" and "e\u0301"), as Swift's String equality does.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import duplicates_by, serve  # noqa: E402

import unicodedata  # noqa: E402

duplicates_by(lambda key: unicodedata.normalize("NFC", key))


serve(__name__)
