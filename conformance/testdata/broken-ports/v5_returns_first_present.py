#!/usr/bin/env python3
# BROKEN: V5 returns the outcome of the first field present in the arguments (Go: 'if v, ok := args[f.Name]; ok { return check(f, v) }'), so later fields' values are never checked.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, patch_source, serve  # noqa: E402

patch_source(catalogkit, "validate_arguments",
             "            check_argument_value(f, arguments[f.name])",
             "            check_argument_value(f, arguments[f.name])\n            break")

serve(__name__)
