#!/usr/bin/env python3
# BROKEN: ignores const when it checks a value

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

def check_enum(n, v, path):
    if n.enum is not None and not any(catalogkit2.equal(v, x) for x in n.enum):
        raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_VALUE, path + ": not in the enum")


catalogkit2.check_enum = check_enum


serve(__name__)
