#!/usr/bin/env python3
# BROKEN: compares format 2's numeric bounds as floats: 0.30000000000000001 is 0.3, 1e400 is infinity

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

from decimal import Decimal  # noqa: E402

catalogkit2.decimal = lambda v: Decimal(float(str(v)))


serve(__name__)
