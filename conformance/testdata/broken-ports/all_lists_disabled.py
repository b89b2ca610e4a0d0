#!/usr/bin/env python3
# BROKEN: lists disabled tools under "all" (it lifts the enabled filter too).

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_is_chosen = catalogkit.is_chosen


def is_chosen(tool, family, name):
    if family == catalogkit.ALL:
        return name is catalogkit.ABSENT or tool.name == name
    return real_is_chosen(tool, family, name)


catalogkit.is_chosen = is_chosen


serve(__name__)
