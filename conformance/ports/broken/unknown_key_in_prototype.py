#!/usr/bin/env python3
# BROKEN: tests argument keys with `k in properties` against a plain JavaScript object, so constructor, toString, __proto__, hasOwnProperty and valueOf count as declared.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve, OBJECT_PROTOTYPE  # noqa: E402


def check_argument_keys(tool, arguments):
    if type(arguments) is not dict:
        raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "arguments is not an object")
    for key in arguments:
        # properties = {}; for (f of fields) properties[f.name] = ...;
        # if (!(key in properties)) throw ...
        if tool.field(key) is None and key not in OBJECT_PROTOTYPE:
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "unknown key " + key)
    for f in tool.fields:
        if f.required and f.name not in arguments:
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "missing " + f.name)


catalogkit.check_argument_keys = check_argument_keys


serve(__name__)
