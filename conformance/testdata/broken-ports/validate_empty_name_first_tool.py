#!/usr/bin/env python3
# BROKEN: validate_arguments with name "" (Go zero value of the name string) falls back to the first enabled tool, as the reference did for no name (R1), instead of INVALID_LABEL
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_va = catalogkit.validate_arguments
def validate_arguments(catalog, name, arguments):
    if name == "":
        tools = catalogkit.validate_catalog(catalog)
        for t in tools:
            if t.enabled:
                name = t.name
                break
    return _va(catalog, name, arguments)
catalogkit.validate_arguments = validate_arguments

serve(__name__)
