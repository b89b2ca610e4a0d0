#!/usr/bin/env python3
# BROKEN: holds an origin's server and tool to the description's limit of 8192 code points, not 256

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

catalogkit2.MAX_ORIGIN_TEXT = catalogkit2.MAX_DESCRIPTION


serve(__name__)
