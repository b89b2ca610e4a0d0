#!/usr/bin/env python3
# BROKEN: memoizes validate_arguments outcomes by (catalog text, name, frozenset of the argument items); in Python 1 == True and 0 == False hash alike, so {"limit":true} after {"limit":1} gets the cached answer.
import json
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_validate_arguments = catalogkit.validate_arguments
_cache = {}


def validate_arguments(catalog, name, arguments):
    try:
        key = (json.dumps(catalog, default=str), name,
               frozenset(arguments.items()) if type(arguments) is dict else json.dumps(arguments, default=str))
        hash(key)
    except (TypeError, ValueError):
        return _validate_arguments(catalog, name, arguments)
    if key not in _cache:
        try:
            _cache[key] = ("ok", _validate_arguments(catalog, name, arguments))
        except catalogkit.CatalogError as e:
            _cache[key] = ("err", e)
    kind, v = _cache[key]
    if kind == "err":
        raise v
    return catalogkit.copy_json(v)


catalogkit.validate_arguments = validate_arguments
serve(__name__)
