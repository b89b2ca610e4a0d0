#!/usr/bin/env python3
# BROKEN: lists a schema's properties sorted by name instead of in the fields' order.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_input_schema = catalogkit.input_schema


def input_schema(tool):
    schema = real_input_schema(tool)
    schema["properties"] = dict(sorted(schema["properties"].items()))
    return schema


catalogkit.input_schema = input_schema


serve(__name__)
