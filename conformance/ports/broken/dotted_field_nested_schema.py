#!/usr/bin/env python3
# BROKEN: builds inputSchema.properties with a path setter (lodash _.set), so a field named out.format is described as properties.out.format, nested, instead of one member "out.format".
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

def input_schema(tool):
    properties = {}
    for f in tool.fields:
        prop = {"type": f.type}
        if f.type == "string":
            prop["maxLength"] = f.max_length
        parts = f.name.split(".")
        node = properties
        for p in parts[:-1]:
            if type(node.get(p)) is not dict:
                node[p] = {}
            node = node[p]
        node[parts[-1]] = prop
    return {
        "type": "object",
        "properties": properties,
        "required": [f.name for f in tool.fields if f.required],
        "additionalProperties": False,
    }


catalogkit.input_schema = input_schema

serve(__name__)
