#!/usr/bin/env python3
# BROKEN: builds the arguments echo with a set-by-path helper (lodash's _.set), so the argument "out.format": "x" is echoed nested, as {"out": {"format": "x"}}.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, nested, serve  # noqa: E402

_validate_arguments = catalogkit.validate_arguments


def validate_arguments(catalog, name, arguments):
    result = _validate_arguments(catalog, name, arguments)
    result["arguments"] = nested(result["arguments"])
    return result


catalogkit.validate_arguments = validate_arguments
serve(__name__)
