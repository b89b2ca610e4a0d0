#!/usr/bin/env python3
# BROKEN: checks the 30-field limit after the fields themselves, so a bad field name wins over the count.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_validate_fields = catalogkit.validate_fields
catalogkit.MAX_FIELDS = sys.maxsize  # the real check never fires: the count comes last below


def validate_fields(fields, path):
    out = real_validate_fields(fields, path)
    if len(out) > 30:
        raise catalogkit.CatalogError(catalogkit.INVALID_FIELDS, "%s: %d entries, more than 30" % (path, len(out)))
    return out


catalogkit.validate_fields = validate_fields


serve(__name__)
