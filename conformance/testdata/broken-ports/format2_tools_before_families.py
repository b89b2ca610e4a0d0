#!/usr/bin/env python3
# BROKEN: checks the tools before families, so a bad tool hides a bad family

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.validate_catalog


def validate_catalog(catalog):
    if "families" in catalog and type(catalog.get("tools")) is list:
        real({k: x for k, x in catalog.items() if k != "families"})
    return real(catalog)


catalogkit2.validate_catalog = validate_catalog


serve(__name__)
