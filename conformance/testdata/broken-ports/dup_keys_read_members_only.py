#!/usr/bin/env python3
# BROKEN: detects duplicate keys only in the objects it decodes into maps (the message, the call, the catalog's tools, fields and specs, and arguments); a member it skips unread (serde's IgnoredAny, a json.RawMessage) is never checked, so {"a":1,"a":2} in an ignored member or inside an argument's value is read (catalog_port.decode).
import json
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_real = catalog_port.decode


class Obj(dict):
    __slots__ = ("dups",)


def _scan(raw):
    dup_objs = []

    def pairs(items):
        o = Obj()
        o.dups = False
        for k, v in items:
            if k in o:
                o.dups = True
            o[k] = v
        return o

    dec = json.JSONDecoder(object_pairs_hook=pairs, parse_float=catalog_port.decode_float,
                           parse_int=catalog_port._parse_int, parse_constant=catalog_port._reject_constant)
    return dec.decode(raw.decode("utf-8", "surrogateescape"))


def _read_dups(msg):
    # the objects this port decodes into maps
    def d(o):
        return type(o) is Obj and o.dups
    if d(msg):
        return True
    if type(msg) is not Obj:
        return False
    calls = [msg.get("call")]
    if type(calls[0]) is Obj and type(calls[0].get("call")) is Obj:
        calls.append(calls[0]["call"])
    for c in calls:
        if type(c) is not Obj:
            continue
        if d(c):
            return True
        cat = c.get("catalog")
        if type(cat) is list:
            for t in cat:
                if d(t):
                    return True
                if type(t) is Obj:
                    f = t.get("fields")
                    if d(f):
                        return True
                    if type(f) is Obj:
                        for s in f.values():
                            if d(s):
                                return True
        if d(c.get("arguments")):
            return True
    return False


def decode(raw):
    value, problems = _real(raw)
    dup = [p for p in problems if p.startswith("duplicate object key")]
    if dup and len(dup) == len(problems):
        try:
            if not _read_dups(_scan(raw)):
                return value, []
        except Exception:
            pass
    return value, problems


catalog_port.decode = decode
serve(__name__)
