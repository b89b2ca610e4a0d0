#!/usr/bin/env python3
# BROKEN: validate_arguments trims white space around the name before checking it (Java's name.trim()), so "page.read\n" or " page.read" selects page.read instead of INVALID_LABEL (validate_arguments).
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_real = catalogkit.validate_arguments


def validate_arguments(catalog, name, arguments):
    if type(name) is str:
        name = name.strip(" \t\r\n")
    return _real(catalog, name, arguments)


catalogkit.validate_arguments = validate_arguments
serve(__name__)
