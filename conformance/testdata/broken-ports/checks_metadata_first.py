#!/usr/bin/env python3
# BROKEN: checks effect and enabled before the labels and the duplicate check.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_validate_catalog = catalogkit.validate_catalog


def validate_catalog(catalog):
    if type(catalog) is list:
        for d in catalog:
            if type(d) is dict and set(d) == catalogkit.TOOL_KEYS:
                if d["effect"] not in catalogkit.EFFECTS or type(d["enabled"]) is not bool:
                    raise catalogkit.CatalogError(catalogkit.INVALID_METADATA, "bad effect or enabled")
    return real_validate_catalog(catalog)


catalogkit.validate_catalog = validate_catalog


serve(__name__)
