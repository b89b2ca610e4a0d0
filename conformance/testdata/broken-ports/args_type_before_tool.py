#!/usr/bin/env python3
# BROKEN: validate_arguments checks that arguments is an object before it checks the name (V2) and looks the tool up (V3), so an unknown name with arguments [] is INVALID_ARGUMENT_KEYS.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_validate_arguments = catalogkit.validate_arguments


def validate_arguments(catalog, name, arguments):
    catalogkit.validate_catalog(catalog)
    if type(arguments) is not dict:
        raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "arguments is not an object")
    return _validate_arguments(catalog, name, arguments)


catalogkit.validate_arguments = validate_arguments
serve(__name__)
