#!/usr/bin/env python3
# BROKEN: decodes the whole catalog into tool structs first (strict decode, Rust serde deny_unknown_fields style): C2 (object with exactly the five keys) runs for every tool before C3-C7 of the first tool, so a key error in a later tool wins over a label/metadata/spec error in an earlier one.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_validate_catalog = catalogkit.validate_catalog


def validate_catalog(catalog):
    if type(catalog) is list and len(catalog) <= catalogkit.MAX_TOOLS:
        for i, d in enumerate(catalog):
            if type(d) is not dict or set(d) != catalogkit.TOOL_KEYS:
                raise catalogkit.CatalogError(catalogkit.INVALID_FIELDS, "$[%d]: not a tool object" % i)
    return _validate_catalog(catalog)


catalogkit.validate_catalog = validate_catalog

serve(__name__)
