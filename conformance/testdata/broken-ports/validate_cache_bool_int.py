#!/usr/bin/env python3
# BROKEN: memoizes validate_arguments outcomes by (catalog text, name, frozenset of the argument items); in Python 1 == True and 0 == False hash alike, so {"limit":true} after {"limit":1} gets the cached answer.
import json
import sys

sys.dont_write_bytecode = True
from _patch import memoize_validate, serve  # noqa: E402


def _key(catalog, name, arguments):
    return (json.dumps(catalog, default=str), name,
            frozenset(arguments.items()) if type(arguments) is dict else json.dumps(arguments, default=str))


memoize_validate(_key)
serve(__name__)
