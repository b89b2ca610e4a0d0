#!/usr/bin/env python3
# BROKEN: accepts the integers 0 and 1 as booleans.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


catalogkit.is_json_boolean = lambda v: type(v) is bool or (type(v) is int and v in (0, 1))


if __name__ == "__main__":
    sys.exit(catalog_port.main())
