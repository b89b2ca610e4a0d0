#!/usr/bin/env python3
# BROKEN: ignores the family filter when a name is given.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


real_is_chosen = catalogkit.is_chosen


def is_chosen(tool, family, name):
    if name is not catalogkit.ABSENT:
        family = catalogkit.ALL
    return real_is_chosen(tool, family, name)


catalogkit.is_chosen = is_chosen


if __name__ == "__main__":
    sys.exit(catalog_port.main())
