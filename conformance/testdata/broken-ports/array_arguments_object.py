#!/usr/bin/env python3
# BROKEN: takes an array for an object, as JavaScript typeof [] === "object" does, with its indices as keys, so arguments [] for a tool with no required field is shape-valid
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402

_ck = catalogkit.check_argument_keys
def check_argument_keys(tool, arguments):
    if type(arguments) is list:
        arguments = {str(i): v for i, v in enumerate(arguments)}
    _ck(tool, arguments)
catalogkit.check_argument_keys = check_argument_keys
patch_source(catalogkit, "validate_arguments", "        if f.name in arguments:", "        if type(arguments) is dict and f.name in arguments:")

serve(__name__)
