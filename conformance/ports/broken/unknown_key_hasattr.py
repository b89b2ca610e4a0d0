#!/usr/bin/env python3
# BROKEN: tests argument keys with hasattr() on the dict of properties, so __class__, keys and get count as declared.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


def check_argument_keys(tool, arguments):
    if type(arguments) is not dict:
        raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "arguments is not an object")
    properties = {f.name: f for f in tool.fields}
    for key in arguments:
        # A lookup meant for attribute-style access finds the dict's own
        # attributes too.
        if key not in properties and not hasattr(properties, key):
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "unknown key " + key)
    for f in tool.fields:
        if f.required and f.name not in arguments:
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "missing " + f.name)


catalogkit.check_argument_keys = check_argument_keys


serve(__name__)
