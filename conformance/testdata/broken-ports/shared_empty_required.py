#!/usr/bin/env python3
# BROKEN: every tool with no required field shares one module-level empty "required" list, so mutating one result's [] changes every later one.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_input_schema = catalogkit.input_schema
NO_REQUIRED = []


def input_schema(tool):
    schema = _input_schema(tool)
    if not schema["required"]:
        schema["required"] = NO_REQUIRED
    return schema


catalogkit.input_schema = input_schema
serve(__name__)
