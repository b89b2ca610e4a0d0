#!/usr/bin/env python3
# BROKEN: detects duplicate keys by Java's String.hashCode() alone, so "Aa" and "BB" (same hash) are taken for duplicates.
#
# A Java port that keeps a HashSet<Integer> of key.hashCode() per object, to
# save comparing strings, refuses two different keys whose hashes collide.

import sys

sys.dont_write_bytecode = True
from _patch import duplicates_by, serve  # noqa: E402


def java_hash(k):
    h = 0
    units = k.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] | units[i + 1] << 8)) & 0xFFFFFFFF
    return h


duplicates_by(java_hash)
serve(__name__)
