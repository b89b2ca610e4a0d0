#!/usr/bin/env python3
# BROKEN: tests a mutate_and_repeat's inner op with JavaScript's `op == null` (missing or null) instead of "not a string", so an inner op 7 or true is an unknown op (not_implemented) instead of an error line (check_call).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, patch_source, serve  # noqa: E402

patch_source(catalog_port, "check_call",
             "if type(inner.get(\"op\")) is not str:",
             "if inner.get(\"op\") is None:")
patch_source(catalog_port, "outcome",
             "inner_op = call[\"call\"][\"op\"]",
             "inner_op = call[\"call\"][\"op\"]\n            if type(inner_op) is not str:\n                return {\"not_implemented\": \"this port has no op %s inside mutate_and_repeat\" % encode(inner_op)}")
serve(__name__)
