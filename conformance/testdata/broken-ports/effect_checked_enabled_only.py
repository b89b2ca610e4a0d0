#!/usr/bin/env python3
# BROKEN: checks effect (C5) only for enabled tools, the ones whose description shows it; a disabled tool with effect "write" passes.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, patch_source, serve  # noqa: E402

patch_source(catalogkit, "validate_catalog",
             "if type(effect) is not str or effect not in EFFECTS:",
             "if enabled is True and (type(effect) is not str or effect not in EFFECTS):")

serve(__name__)
