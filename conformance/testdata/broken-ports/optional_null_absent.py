#!/usr/bin/env python3
# BROKEN: reads null for an optional field as 'not given' (a Go *T left nil) and skips its value check, so {"query":"x","limit":null} is shape-valid.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, patch_source, serve  # noqa: E402

patch_source(catalogkit, "validate_arguments",
             "        if f.name in arguments:",
             "        if f.name in arguments and not (arguments[f.name] is None and not f.required):")

serve(__name__)
