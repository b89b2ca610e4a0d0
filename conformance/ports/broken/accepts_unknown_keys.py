#!/usr/bin/env python3
# BROKEN: accepts argument keys that the tool's schema lacks.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


def check_argument_keys(tool, arguments):
    if type(arguments) is not dict:
        raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "arguments is not an object")
    for f in tool.fields:
        if f.required and f.name not in arguments:
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "missing " + f.name)


catalogkit.check_argument_keys = check_argument_keys


serve(__name__)
