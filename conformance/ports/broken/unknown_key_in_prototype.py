#!/usr/bin/env python3
# BROKEN: tests argument keys with `k in properties` against a plain JavaScript object, so constructor, toString, __proto__, hasOwnProperty and valueOf count as declared.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402

# The names every JavaScript object inherits from Object.prototype: what
# `k in obj` also finds in an object made with {}.
OBJECT_PROTOTYPE = frozenset((
    "constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf",
    "propertyIsEnumerable", "__proto__", "__defineGetter__", "__defineSetter__",
    "__lookupGetter__", "__lookupSetter__",
))


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


if __name__ == "__main__":
    sys.exit(catalog_port.main())
