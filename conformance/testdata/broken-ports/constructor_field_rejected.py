#!/usr/bin/env python3
# BROKEN: detects duplicate field names with `name in seen` against a plain JavaScript object, so a field named constructor is INVALID_FIELDS.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve, OBJECT_PROTOTYPE  # noqa: E402


_validate_fields = catalogkit.validate_fields


def validate_fields(fields, path):
    out = _validate_fields(fields, path)
    for f in out:
        # seen = {}; for (name in fields) { if (name in seen) throw ...; seen[name] = true }
        if f.name in OBJECT_PROTOTYPE:
            raise catalogkit.CatalogError(catalogkit.INVALID_FIELDS, "%s: duplicate field %s" % (path, f.name))
    return out


catalogkit.validate_fields = validate_fields


serve(__name__)
