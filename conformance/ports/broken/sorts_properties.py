#!/usr/bin/env python3
# BROKEN: lists a schema's properties sorted by name instead of in the fields' order.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


real_input_schema = catalogkit.input_schema


def input_schema(tool):
    schema = real_input_schema(tool)
    schema["properties"] = dict(sorted(schema["properties"].items()))
    return schema


catalogkit.input_schema = input_schema


if __name__ == "__main__":
    sys.exit(catalog_port.main())
