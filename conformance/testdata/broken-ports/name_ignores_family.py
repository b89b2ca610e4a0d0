#!/usr/bin/env python3
# BROKEN: ignores the family filter when a name is given.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_is_chosen = catalogkit.is_chosen


def is_chosen(tool, family, name):
    if name is not catalogkit.ABSENT:
        family = catalogkit.ALL
    return real_is_chosen(tool, family, name)


catalogkit.is_chosen = is_chosen


serve(__name__)
