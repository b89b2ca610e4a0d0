#!/usr/bin/env python3
# BROKEN: within one field, checks the spec's shape (an object with exactly type, required, max_length: INVALID_FIELDS) before the field name's label (INVALID_LABEL), as a decoder of map[string]Spec does.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, patch_source, serve  # noqa: E402

# The field name's label check, moved from before the spec's shape checks
# to after the last of them.
label_check = """        if not is_label(name):
            raise CatalogError(INVALID_LABEL, "%s: field name %s is not a label" % (path, _describe_value(name)))
"""
last_shape_check = """            raise CatalogError(INVALID_FIELDS, "%s: keys are %s, want exactly %s" % (fpath, _keys(spec), _keys(SPEC_KEYS)))
"""
patch_source(catalogkit, "validate_fields", label_check, "", last_shape_check, last_shape_check + label_check)

serve(__name__)
