#!/usr/bin/env python3
# BROKEN: validate_arguments compiles each tool's field checks once and caches them keyed by the tool's name and its field names, so a later catalog where the same tool has another type, required flag or max_length is checked with the first one's (the catalog itself is still validated every time).
import sys
sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_select_tools = catalogkit.select_tools
_compiled = {}


def validate_arguments(catalog, name, arguments):
    tools = catalogkit.validate_catalog(catalog)
    if name is catalogkit.ABSENT or type(name) is not str:
        raise catalogkit.CatalogError(catalogkit.INVALID_LABEL, "name is not a string")
    tool = _select_tools(tools, catalogkit.ALL, name)[0]
    key = (tool.name, tuple(f.name for f in tool.fields))
    tool.fields = _compiled.setdefault(key, tool.fields)
    catalogkit.check_argument_keys(tool, arguments)
    for f in tool.fields:
        if f.name in arguments:
            catalogkit.check_argument_value(f, arguments[f.name])
    return {"name": tool.name, "arguments": catalogkit.copy_json(arguments),
            "shape_valid": True, "authorized": False, "executed": False}


catalogkit.validate_arguments = validate_arguments
serve(__name__)
