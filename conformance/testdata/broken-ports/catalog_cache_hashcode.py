#!/usr/bin/env python3
# BROKEN: caches validated catalogs keyed by the 32-bit Java String.hashCode() of the catalog's JSON text (an int key, no equality check), so a later catalog whose text collides, e.g. a tool renamed from "c0" to "an", gets the earlier catalog's tools.
import sys
sys.dont_write_bytecode = True
from _patch import catalog_port, catalogkit, serve  # noqa: E402

_validate_catalog = catalogkit.validate_catalog
_cache = {}


def java_hash(s):
    h = 0
    for unit in _units(s):
        h = (31 * h + unit) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def _units(s):
    b = s.encode("utf-16-le", "surrogatepass")
    return [b[i] | b[i + 1] << 8 for i in range(0, len(b), 2)]


def validate_catalog(catalog):
    if type(catalog) is not list:
        return _validate_catalog(catalog)
    key = java_hash(catalog_port.encode(catalog))
    if key not in _cache:
        try:
            _cache[key] = ("ok", _validate_catalog(catalog))
        except catalogkit.CatalogError as e:
            _cache[key] = ("err", e)
    kind, v = _cache[key]
    if kind == "err":
        raise v
    return v


catalogkit.validate_catalog = validate_catalog
serve(__name__)
