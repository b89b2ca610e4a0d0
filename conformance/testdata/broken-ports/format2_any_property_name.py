#!/usr/bin/env python3
# BROKEN: takes any string as a property name

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, catalogkit, catalogkit2, serve  # noqa: E402,F401

import re  # noqa: E402

catalogkit2._PROPERTY_NAME = re.compile(r".*", re.S)


serve(__name__)
