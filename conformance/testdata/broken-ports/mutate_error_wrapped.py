#!/usr/bin/env python3
# BROKEN: mutate_and_repeat puts the inner calls' outcomes in first and second even when they fail ({"first": {"error": ...}, ...}) instead of replying with the inner error outcome
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, catalog_port, on_error, serve  # noqa: E402


def error_as_result(mutate_and_repeat, e, inner):
    args = None
    if inner.get("op") == "validate_arguments":
        args = catalog_port.snapshot(inner.get("arguments"))
    return {"first": {"error": e.code}, "second": {"error": e.code},
            "catalog": catalog_port.snapshot(inner.get("catalog")), "arguments": args}


on_error(catalog_port, "mutate_and_repeat", catalogkit.CatalogError, error_as_result)
serve(__name__)
