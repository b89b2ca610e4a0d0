#!/usr/bin/env python3
# BROKEN: treats an empty-string argument as 'not filled in' (HTML-form habit) and skips its value check, so {"tab_id": ""} fits an integer field and {"match_case": ""} a boolean one.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, patch_source, serve  # noqa: E402

patch_source(catalogkit, "validate_arguments",
             "        if f.name in arguments:",
             "        if f.name in arguments and not (type(arguments[f.name]) is str and arguments[f.name] == \"\"):")

serve(__name__)
