#!/usr/bin/env python3
# BROKEN: reads "required": null as false, as Go's encoding/json leaves a bool field at its zero value for null, instead of INVALID_SPEC.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_validate_fields = catalogkit.validate_fields


def validate_fields(fields, path):
    if type(fields) is dict:
        fields = {k: (dict(v, required=False) if type(v) is dict and "required" in v and v["required"] is None else v)
                  for k, v in fields.items()}
    return _validate_fields(fields, path)


catalogkit.validate_fields = validate_fields
serve(__name__)
