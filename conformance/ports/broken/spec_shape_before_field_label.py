#!/usr/bin/env python3
# BROKEN: within one field, checks the spec's shape (an object with exactly type, required, max_length: INVALID_FIELDS) before the field name's label (INVALID_LABEL), as a decoder of map[string]Spec does.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, patch_source, serve  # noqa: E402

src_old = """        if not is_label(name):
            raise CatalogError(INVALID_LABEL, "%s: field name %s is not a label" % (path, _describe_value(name)))
        fpath = path + "." + name
        if type(spec) is not dict:
            raise CatalogError(INVALID_FIELDS, "%s: spec is %s, not an object" % (fpath, _describe_value(spec)))
        if set(spec) != SPEC_KEYS:
            raise CatalogError(INVALID_FIELDS, "%s: keys are %s, want exactly %s" % (fpath, _keys(spec), _keys(SPEC_KEYS)))
"""
src_new = """        fpath = path + "." + name
        if type(spec) is not dict:
            raise CatalogError(INVALID_FIELDS, "%s: spec is %s, not an object" % (fpath, _describe_value(spec)))
        if set(spec) != SPEC_KEYS:
            raise CatalogError(INVALID_FIELDS, "%s: keys are %s, want exactly %s" % (fpath, _keys(spec), _keys(SPEC_KEYS)))
        if not is_label(name):
            raise CatalogError(INVALID_LABEL, "%s: field name %s is not a label" % (path, _describe_value(name)))
"""
patch_source(catalogkit, "validate_fields", src_old, src_new)

serve(__name__)
