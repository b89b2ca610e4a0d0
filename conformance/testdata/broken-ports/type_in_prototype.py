#!/usr/bin/env python3
# BROKEN: tests a field's type with JavaScript's 'type in TYPES' on a plain object {string, integer, boolean}, so constructor, toString, valueOf, hasOwnProperty, __proto__ ... are accepted types.
import sys

sys.dont_write_bytecode = True
from _patch import OBJECT_PROTOTYPE, catalogkit, serve  # noqa: E402

catalogkit.TYPES = frozenset(("string", "integer", "boolean")) | OBJECT_PROTOTYPE

serve(__name__)
