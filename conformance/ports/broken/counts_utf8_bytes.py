#!/usr/bin/env python3
# BROKEN: counts a string's UTF-8 bytes instead of its code points.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


catalogkit.code_points = lambda s: len(s.encode("utf-8", "surrogatepass"))


if __name__ == "__main__":
    sys.exit(catalog_port.main())
