#!/usr/bin/env python3
# BROKEN: checks the name and family labels (C3) of every tool in a first pass before any tool's C4-C7, so a bad effect in tool 0 loses to an uppercase name in tool 1: INVALID_LABEL instead of INVALID_METADATA (validate_catalog).
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_real = catalogkit.validate_catalog


def validate_catalog(catalog):
    if type(catalog) is list and len(catalog) <= catalogkit.MAX_TOOLS:
        for i, d in enumerate(catalog):
            if type(d) is dict and set(d) == catalogkit.TOOL_KEYS:
                for k in ("name", "family"):
                    if not catalogkit.is_label(d[k]):
                        raise catalogkit.CatalogError(catalogkit.INVALID_LABEL, "$[%d].%s is not a label" % (i, k))
    return _real(catalog)


catalogkit.validate_catalog = validate_catalog
serve(__name__)
