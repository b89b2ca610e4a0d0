#!/usr/bin/env python3
# BROKEN: checks the key set of every field spec of a tool (INVALID_FIELDS) before any spec's values, as a struct decoder with deny_unknown_fields does, so a bad type in the first field loses to an extra key in the second: INVALID_FIELDS instead of INVALID_SPEC (validate_fields).
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_real = catalogkit.validate_fields


def validate_fields(fields, path):
    if type(fields) is dict and len(fields) <= catalogkit.MAX_FIELDS:
        for name, spec in fields.items():
            if not catalogkit.is_label(name):
                break
            if type(spec) is not dict or set(spec) != catalogkit.SPEC_KEYS:
                raise catalogkit.CatalogError(catalogkit.INVALID_FIELDS, "%s.%s: bad spec keys" % (path, name))
    return _real(fields, path)


catalogkit.validate_fields = validate_fields
serve(__name__)
