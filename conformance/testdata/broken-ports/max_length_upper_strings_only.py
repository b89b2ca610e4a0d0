#!/usr/bin/env python3
# BROKEN: enforces max_length's upper bound 20000 only on string fields (it 'bounds the length of a string'); an integer or boolean field with max_length 20001 or 10^20 is accepted (the lower bound and integer-ness are still checked on every field).
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, patch_source, serve  # noqa: E402

patch_source(catalogkit, "validate_fields",
             "if not is_json_integer(max_length) or not MIN_MAX_LENGTH <= max_length <= MAX_MAX_LENGTH:",
             "if not is_json_integer(max_length) or max_length < MIN_MAX_LENGTH or (type_ == \"string\" and max_length > MAX_MAX_LENGTH):")

serve(__name__)
