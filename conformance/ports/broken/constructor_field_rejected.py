#!/usr/bin/env python3
# BROKEN: detects duplicate field names with `name in seen` against a plain JavaScript object, so a field named constructor is INVALID_FIELDS.
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

_validate_fields = catalogkit.validate_fields


def validate_fields(fields, path):
    out = _validate_fields(fields, path)
    for f in out:
        # seen = {}; for (name in fields) { if (name in seen) throw ...; seen[name] = true }
        if f.name in OBJECT_PROTOTYPE:
            raise catalogkit.CatalogError(catalogkit.INVALID_FIELDS, "%s: duplicate field %s" % (path, f.name))
    return out


catalogkit.validate_fields = validate_fields


if __name__ == "__main__":
    sys.exit(catalog_port.main())
