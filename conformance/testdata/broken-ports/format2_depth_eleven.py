#!/usr/bin/env python3
# BROKEN: lets schemas nest 11 levels deep, one more than the limit

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

catalogkit2.MAX_SCHEMA_DEPTH = 11


serve(__name__)
