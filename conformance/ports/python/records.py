#!/usr/bin/env python3
"""records: regenerate the five catalogkit records with the Python port.

usage: python3 conformance/ports/python/records.py [--root DIR] OUT_DIR

Reads records/definitions.json and the bytes of
conformance/synthetic-catalog.json under the repository root (--root,
by default the folder three levels above this file), makes each record's
call with this port's contract (catalogkit.py), checks that the outcome is
the kind the definition expects, and writes each record as NN-ID.json in
OUT_DIR, which must exist. Nothing is written unless all five records were
made.

The serialization is records/FORMAT.md section 3, implemented here rule by
rule (not through json.dumps), so that the files are a second, independent
implementation of the canonical form. To compare with the Go generation,
byte for byte:

    mkdir -p /tmp/pyrecords
    python3 conformance/ports/python/records.py /tmp/pyrecords
    for f in records/[0-9][0-9]-*.json; do cmp "$f" /tmp/pyrecords/"${f#records/}"; done

(catalogkit records --check --out DIR is no help here: it also expects the
records viewer page, index.html, which this port does not make.)

Exit status: 0 all records written, 1 a record could not be made or
written, 2 bad usage.
"""

import sys

sys.dont_write_bytecode = True

import hashlib  # noqa: E402
import os  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402

FORMAT = "catalogkit-record/1"
CATALOG_PATH = "conformance/synthetic-catalog.json"

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


class RecordError(Exception):
    """RecordError is a record that cannot be made or written."""


# ORDERED is the path, from the top of a record, of the objects whose
# members keep the order the call returned them (FORMAT.md section 3): each
# description's inputSchema.properties in a discover result, in the tool's
# field order. "[]" stands for any array element. Every other object is
# written with its keys sorted.
ORDERED = ("outcome", "result", "[]", "inputSchema", "properties")


def canonical(value):
    """canonical returns the bytes of value, the top of a record, in the
    canonical form of FORMAT.md section 3: encode(value, 0), one LF, UTF-8."""
    parts = []
    _canonical(value, 0, (), parts)
    parts.append("\n")
    return "".join(parts).encode("utf-8")


def _string(s):
    out = ['"']
    for c in s:
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif c < " ":
            out.append("\\u%04x" % ord(c))
        elif "\ud800" <= c <= "\udfff":
            raise RecordError("a string holds a lone surrogate: it has no UTF-8 form")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _canonical(v, d, path, parts):
    if v is None:
        parts.append("null")
    elif v is True:
        parts.append("true")
    elif v is False:
        parts.append("false")
    elif type(v) is catalog_port.NegativeZero:
        parts.append("-0")
    elif type(v) is int:
        parts.append(str(v))
    elif type(v) is catalog_port.Number:
        parts.append(v.literal)
    elif type(v) is str:
        parts.append(_string(v))
    elif type(v) is list:
        if not v:
            parts.append("[]")
            return
        parts.append("[")
        for i, x in enumerate(v):
            parts.append("\n" + "  " * (d + 1))
            _canonical(x, d + 1, path + ("[]",), parts)
            if i < len(v) - 1:
                parts.append(",")
        parts.append("\n" + "  " * d + "]")
    elif type(v) is dict:
        if not v:
            parts.append("{}")
            return
        parts.append("{")
        # A dict keeps the order its members were inserted in: the order the
        # contract returned them. Elsewhere, Python compares str by code
        # point, which is the order FORMAT.md asks for (not UTF-16 units).
        keys = list(v) if path == ORDERED else sorted(v)
        for i, k in enumerate(keys):
            parts.append("\n" + "  " * (d + 1) + _string(k) + ": ")
            _canonical(v[k], d + 1, path + (k,), parts)
            if i < len(keys) - 1:
                parts.append(",")
        parts.append("\n" + "  " * d + "}")
    else:
        raise RecordError("cannot serialize a %s" % type(v).__name__)


def load(path):
    """load returns the bytes of the JSON file at path and its value, read
    with the port's strict decoder."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RecordError("failed to read %s: %s" % (path, e))
    try:
        value, problems = catalog_port.decode(data)
    except ValueError as e:
        raise RecordError("%s is not JSON: %s" % (path, e))
    if problems:
        raise RecordError("%s: %s" % (path, "; ".join(problems)))
    return data, value


def make_records(root):
    """make_records returns the list of (file name, bytes) of every record."""
    catalog_bytes, catalog = load(os.path.join(root, *CATALOG_PATH.split("/")))
    _, definitions = load(os.path.join(root, "records", "definitions.json"))
    if type(definitions) is not list:
        raise RecordError("records/definitions.json is not an array")
    try:
        # A catalog that fails validation is an error, never a record.
        catalogkit.validate_catalog(catalog)
    except catalogkit.CatalogError as e:
        raise RecordError("%s is not a valid catalog: %s" % (CATALOG_PATH, e))
    ref = {"path": CATALOG_PATH, "sha256": hashlib.sha256(catalog_bytes).hexdigest()}
    out = []
    for number, d in enumerate(definitions, 1):
        if type(d) is not dict or type(d.get("call")) is not dict:
            raise RecordError("definition %d is not an object with a call object" % number)
        call = dict(d["call"])
        op = call.get("op")
        try:
            if op == "discover":
                result = catalogkit.discover(catalog, call.get("family", catalogkit.ABSENT),
                                             call.get("name", catalogkit.ABSENT))
            elif op == "validate_arguments":
                result = catalogkit.validate_arguments(catalog, call.get("name", catalogkit.ABSENT),
                                                       call.get("arguments", catalogkit.ABSENT))
            else:
                raise RecordError("record %s: unknown op %s" % (d.get("id"), catalog_port.encode(op)))
            outcome, kind = {"result": result}, "result"
        except catalogkit.CatalogError as e:
            outcome, kind = {"error": e.code}, e.code
        if kind != d.get("expect"):
            raise RecordError("record %s: the call is meant to give %s but gave %s"
                              % (d.get("id"), catalog_port.encode(d.get("expect")), kind))
        call["catalog"] = ref
        record = {"format": FORMAT, "id": d.get("id"), "title": d.get("title"), "call": call, "outcome": outcome}
        out.append(("%02d-%s.json" % (number, d.get("id")), canonical(record)))
    return out


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    args = list(argv)
    if len(args) >= 2 and args[0] == "--root":
        root = args[1]
        args = args[2:]
    if len(args) != 1 or args[0].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    out_dir = args[0]
    try:
        if not os.path.isdir(out_dir):
            raise RecordError("output folder %s does not exist" % out_dir)
        records = make_records(root)
        for name, data in records:
            try:
                with open(os.path.join(out_dir, name), "wb") as f:
                    f.write(data)
            except OSError as e:
                raise RecordError("failed to write %s: %s" % (name, e))
    except RecordError as e:
        sys.stderr.write("records.py: error: %s\n" % e)
        return 1
    for name, _ in records:
        print(os.path.join(out_dir, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
