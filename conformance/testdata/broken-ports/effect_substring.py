#!/usr/bin/env python3
# BROKEN: tests effect with a substring search of "read|change" (JavaScript "read|change".includes(effect)), so "", "ead", "d|c" and "hang" are accepted effects.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

catalogkit.EFFECTS = "read|change"  # `effect not in EFFECTS` is now a substring test
serve(__name__)
