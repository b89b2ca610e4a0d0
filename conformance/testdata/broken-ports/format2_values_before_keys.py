#!/usr/bin/env python3
# BROKEN: checks an object's values before its keys and required properties

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

def check_object(n, v, path):
    for name, s in n.props:
        if name in v:
            catalogkit2.check(s, v[name], path + "." + name)
    schemas = dict(n.props)
    for key in v:
        if key not in schemas:
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "%s: %s is not a property" % (path, key))
    for r in n.required:
        if r not in v:
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "%s: %s is missing" % (path, r))


catalogkit2.check_object = check_object


serve(__name__)
