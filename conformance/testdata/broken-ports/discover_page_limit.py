#!/usr/bin/env python3
# BROKEN: lists at most the first 100 chosen tools, one page as an MCP tools/list server would, instead of every chosen tool.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

PAGE = 100
_discover = catalogkit.discover


def discover(catalog, family, name=catalogkit.ABSENT):
    return _discover(catalog, family, name)[:PAGE]


catalogkit.discover = discover
serve(__name__)
