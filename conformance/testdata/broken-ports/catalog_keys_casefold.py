#!/usr/bin/env python3
# BROKEN: tool and field-spec keys are matched case-insensitively, as Go's encoding/json matches struct fields (last of two spellings wins), so {"Name": ...} or {"Max_Length": ...} is accepted instead of INVALID_FIELDS.
import sys

sys.dont_write_bytecode = True
from _patch import catalog_keys, serve  # noqa: E402

catalog_keys(lambda d: {k.lower(): v for k, v in d.items()})
serve(__name__)
