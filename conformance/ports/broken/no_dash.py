#!/usr/bin/env python3
# BROKEN: a label may not contain "-": the pattern is ^[a-z][a-z0-9._]{0,79}$.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


_label = re.compile(r"[a-z][a-z0-9._]{0,79}")
catalogkit.is_label = lambda v: type(v) is str and _label.fullmatch(v) is not None


if __name__ == "__main__":
    sys.exit(catalog_port.main())
