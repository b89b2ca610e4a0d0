"""Regenerate the catalogkit records in another language, from FORMAT.md alone.

usage: python3 regenerate.py REPO_ROOT PORT_DIR OUT_DIR

Reads REPO_ROOT/records/definitions.json and the bytes of the synthetic
catalog, makes each record's call with the Python port's contract
implementation (PORT_DIR/catalogkit.py: discover, validate_arguments,
CatalogError, ABSENT), checks the outcome is the kind the definition expects,
and writes each record in canonical form (FORMAT.md section 3) to
OUT_DIR/NN-ID.json. The Go test TestPythonPortRegeneratesRecords compares
those files with the committed records, byte for byte.
"""

import hashlib
import json
import os
import sys

CATALOG_PATH = "conformance/synthetic-catalog.json"


def strict_object(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise ValueError("duplicate key %s" % json.dumps(k))
        obj[k] = v
    return obj


def parse_float(literal):
    raise ValueError("number %s is not an integer: FORMAT.md's Python equivalence holds for integers only" % literal)


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    return data, json.loads(data.decode("utf-8"), object_pairs_hook=strict_object, parse_float=parse_float)


# ORDERED is where a record keeps the order of an object's members: each
# description's inputSchema.properties in a discover result ("[]" is any array
# element). Every other object is written with its keys sorted.
ORDERED = ("outcome", "result", "[]", "inputSchema", "properties")


def ordered(v, path=()):
    if type(v) is dict:
        keys = list(v) if path == ORDERED else sorted(v)
        return {k: ordered(v[k], path + (k,)) for k in keys}
    if type(v) is list:
        return [ordered(x, path + ("[]",)) for x in v]
    return v


def canonical(value):
    return (json.dumps(ordered(value), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def main(root, port_dir, out_dir):
    sys.path.insert(0, port_dir)
    import catalogkit

    catalog_bytes, catalog = load(os.path.join(root, CATALOG_PATH))
    _, definitions = load(os.path.join(root, "records", "definitions.json"))
    ref = {"path": CATALOG_PATH, "sha256": hashlib.sha256(catalog_bytes).hexdigest()}
    for number, d in enumerate(definitions, 1):
        call = dict(d["call"])
        try:
            if call["op"] == "discover":
                result = catalogkit.discover(catalog, call["family"], call.get("name", catalogkit.ABSENT))
            elif call["op"] == "validate_arguments":
                result = catalogkit.validate_arguments(catalog, call.get("name", catalogkit.ABSENT), call["arguments"])
            else:
                raise SystemExit("record %s: unknown op %r" % (d["id"], call["op"]))
            outcome, kind = {"result": result}, "result"
        except catalogkit.CatalogError as e:
            outcome, kind = {"error": e.code}, e.code
        if kind != d["expect"]:
            raise SystemExit("record %s: the call is meant to give %s, but gave %s" % (d["id"], d["expect"], kind))
        call["catalog"] = ref
        record = {"format": "catalogkit-record/1", "id": d["id"], "title": d["title"], "call": call, "outcome": outcome}
        with open(os.path.join(out_dir, "%02d-%s.json" % (number, d["id"])), "wb") as f:
            f.write(canonical(record))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
