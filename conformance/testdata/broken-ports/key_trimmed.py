#!/usr/bin/env python3
# BROKEN: trims white space from argument keys before matching them to fields (and echoes the trimmed keys), so {"tab_id ": 3} is shape-valid
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_va = catalogkit.validate_arguments
def validate_arguments(catalog, name, arguments):
    if type(arguments) is dict:
        arguments = {k.strip(): v for k, v in arguments.items()}
    return _va(catalog, name, arguments)
catalogkit.validate_arguments = validate_arguments

serve(__name__)
