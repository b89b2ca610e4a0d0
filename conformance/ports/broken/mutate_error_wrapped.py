#!/usr/bin/env python3
# BROKEN: mutate_and_repeat puts the inner calls' outcomes in first and second even when they fail ({"first": {"error": ...}, ...}) instead of replying with the inner error outcome
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, catalog_port, serve  # noqa: E402

_mr = catalog_port.mutate_and_repeat
def mutate_and_repeat(inner):
    try:
        return _mr(inner)
    except catalogkit.CatalogError as e:
        args = None
        if inner.get("op") == "validate_arguments":
            args = catalog_port.snapshot(inner.get("arguments"))
        return {"first": {"error": e.code}, "second": {"error": e.code},
                "catalog": catalog_port.snapshot(inner.get("catalog")), "arguments": args}
catalog_port.mutate_and_repeat = mutate_and_repeat

serve(__name__)
