#!/usr/bin/env python3
# BROKEN: holds format-2 tool names to format 1's label rule, refusing camelCase

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

catalogkit2.is_tool_name = catalogkit.is_label


serve(__name__)
