#!/usr/bin/env python3
# BROKEN: checks the family and name labels before validating the catalog.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalogkit, serve  # noqa: E402


real_discover = catalogkit.discover
real_validate_arguments = catalogkit.validate_arguments


def discover(catalog, family, name=catalogkit.ABSENT):
    if not catalogkit.is_label(family):
        raise catalogkit.CatalogError(catalogkit.INVALID_LABEL, "family is not a label")
    if name is not catalogkit.ABSENT and not catalogkit.is_label(name):
        raise catalogkit.CatalogError(catalogkit.INVALID_LABEL, "name is not a label")
    return real_discover(catalog, family, name)


def validate_arguments(catalog, name, arguments):
    if not catalogkit.is_label(name):
        raise catalogkit.CatalogError(catalogkit.INVALID_LABEL, "name is not a label")
    return real_validate_arguments(catalog, name, arguments)


catalogkit.discover = discover
catalogkit.validate_arguments = validate_arguments


serve(__name__)
