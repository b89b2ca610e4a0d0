#!/usr/bin/env python3
# BROKEN: checks the 30-field limit after the fields themselves, so a bad field name wins over the count.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


real_validate_fields = catalogkit.validate_fields
catalogkit.MAX_FIELDS = sys.maxsize  # the real check never fires: the count comes last below


def validate_fields(fields, path):
    out = real_validate_fields(fields, path)
    if len(out) > 30:
        raise catalogkit.CatalogError(catalogkit.INVALID_FIELDS, "%s: %d entries, more than 30" % (path, len(out)))
    return out


catalogkit.validate_fields = validate_fields


if __name__ == "__main__":
    sys.exit(catalog_port.main())
