#!/usr/bin/env python3
# BROKEN: checks an object's values in the order the arguments are written, not the schema's order of properties

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

real = catalogkit2.check_object


def check_object(n, v, path):
    schemas = dict(n.props)
    saved = n.props
    n.props = [(k, schemas[k]) for k in v if k in schemas] + [p for p in saved if p[0] not in v]
    try:
        real(n, v, path)
    finally:
        n.props = saved


catalogkit2.check_object = check_object


serve(__name__)
