#!/usr/bin/env python3
# BROKEN: checks effect and enabled before the labels and the duplicate check.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402


real_validate_catalog = catalogkit.validate_catalog


def validate_catalog(catalog):
    if type(catalog) is list:
        for d in catalog:
            if type(d) is dict and set(d) == catalogkit.TOOL_KEYS:
                if d["effect"] not in catalogkit.EFFECTS or type(d["enabled"]) is not bool:
                    raise catalogkit.CatalogError(catalogkit.INVALID_METADATA, "bad effect or enabled")
    return real_validate_catalog(catalog)


catalogkit.validate_catalog = validate_catalog


if __name__ == "__main__":
    sys.exit(catalog_port.main())
