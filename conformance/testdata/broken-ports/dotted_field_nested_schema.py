#!/usr/bin/env python3
# BROKEN: builds inputSchema.properties with a path setter (lodash _.set), so a field named out.format is described as properties.out.format, nested, instead of one member "out.format".
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, nested, serve  # noqa: E402

_input_schema = catalogkit.input_schema


def input_schema(tool):
    schema = _input_schema(tool)
    schema["properties"] = nested(schema["properties"])
    return schema


catalogkit.input_schema = input_schema

serve(__name__)
