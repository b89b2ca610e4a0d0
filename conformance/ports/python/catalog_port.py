#!/usr/bin/env python3
"""catalog_port: the Python port of catalogkit, speaking catalogkit-conformance/1.

Run it as the runner's child process:

    catalogkit conform -- python3 conformance/ports/python/catalog_port.py

It reads one JSON message per line on stdin and writes one reply per line on
stdout, flushed at once (see conformance/PROTOCOL.md). stdout carries only
protocol messages; anything else goes to stderr. Every failure, a bug
included, becomes a reply; the port exits 0 when stdin ends.

Standard library only (Python 3.7 or later: dicts keep key order). The
contract itself is in catalogkit.py, next to this file.
"""

import sys

# The port must leave the source tree as it found it (the release archive is
# built from it): no __pycache__ next to catalogkit.py.
sys.dont_write_bytecode = True

import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import traceback  # noqa: E402

# catalogkit.py is next to this file; python3 -I does not put this folder on
# the path by itself.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import catalogkit  # noqa: E402

PROTOCOL = "catalogkit-conformance/1"
PORT_NAME = "catalogkit-python"
PORT_LANGUAGE = "Python"

# INVALID_JSON is the code of the JSON text layer: duplicate object keys,
# invalid UTF-8, lone surrogates, a message nested deeper than MAX_DEPTH
# arrays and objects (the limit of the Go runner and of catalogkit port).
INVALID_JSON = "INVALID_JSON"
MAX_DEPTH = 64

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")

if hasattr(sys, "set_int_max_str_digits"):
    # Integers of any magnitude must survive decoding and re-encoding; since
    # Python 3.11 int() and str() refuse more than 4300 digits by default.
    sys.set_int_max_str_digits(0)


def port_version():
    """port_version returns the contents of the repository's VERSION file,
    or "unknown" if it cannot be read."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "VERSION")
    try:
        with open(path, encoding="utf-8") as f:
            v = f.read().strip()
    except OSError:
        return "unknown"
    return v or "unknown"


class ProtocolError(Exception):
    """ProtocolError is a request the port cannot make sense of, answered
    with a {"type": "error"} line."""


class Number:
    """Number is a JSON number written with a fraction or an exponent (1.0,
    1e2, -0.5E-3), kept as its literal text so that it is echoed exactly and
    is never taken for an integer: it is neither an int nor a bool."""

    __slots__ = ("literal",)

    def __init__(self, literal):
        self.literal = literal

    def __str__(self):
        return self.literal

    __repr__ = __str__


class NegativeZero(int):
    """NegativeZero is the integer literal -0: the int 0, remembered as
    written so that a canonical serialization (records.py) can keep the
    literal. The protocol compares numbers by value and echoes it as 0."""

    __slots__ = ()


NEGATIVE_ZERO = NegativeZero(0)


def decode_float(literal):
    """decode_float returns the value of a number literal written with a
    fraction or an exponent: a Number, never an int, whatever its value."""
    return Number(literal)


def _parse_int(literal):
    return NEGATIVE_ZERO if literal == "-0" else int(literal)


def _reject_constant(name):
    raise ValueError("%s is not JSON" % name)


def decode(raw):
    """decode parses one line of bytes as JSON.

    Integers (no fraction, no exponent) become int of any size, other numbers
    Number, so 1.0 and 1e2 stay non-integers. It returns the value and a
    list of JSON text problems (duplicate keys, invalid UTF-8, lone
    surrogates, nesting deeper than MAX_DEPTH) that do not stop it from
    being read, so that a reply can still echo its seq. It raises ValueError
    if raw is not JSON (nesting too deep for Python's decoder included).
    """
    problems = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append("invalid UTF-8 at byte %d" % e.start)
        # Invalid bytes become lone surrogates, which the walk below finds
        # again; the rest of the message can still be read.
        text = raw.decode("utf-8", "surrogateescape")

    def pairs(items):
        obj = {}
        for k, v in items:
            if k in obj:
                problems.append("duplicate object key %s" % json.dumps(k))
            obj[k] = v
        return obj

    decoder = json.JSONDecoder(object_pairs_hook=pairs, parse_float=decode_float, parse_int=_parse_int,
                               parse_constant=_reject_constant)
    try:
        value = decoder.decode(text)
    except RecursionError:
        raise ValueError("nesting too deep")
    # A lone surrogate can only come from invalid UTF-8 (already a problem)
    # or from a \uD800-\uDFFF escape: walk the value only if the text has
    # one, to find where.
    if problems or _SURROGATE_ESCAPE.search(raw):
        _walk(value, problems)
    if depth(value) > MAX_DEPTH:
        problems.append("nesting deeper than %d" % MAX_DEPTH)
    return value, problems


def _walk(v, problems):
    # _walk appends to problems every string or key of v that holds a lone
    # surrogate (an escape like "\ud800", or an invalid UTF-8 byte).
    stack = [(v, "$")]
    while stack:
        v, path = stack.pop()
        if type(v) is str:
            m = _SURROGATE.search(v)
            if m:
                problems.append("%s: lone surrogate or invalid UTF-8 at code point %d" % (path, m.start()))
        elif type(v) is dict:
            for k, x in reversed(list(v.items())):
                p = "%s[%s]" % (path, json.dumps(k))
                if _SURROGATE.search(k):
                    problems.append("%s: lone surrogate or invalid UTF-8 in the key" % p)
                stack.append((x, p))
        elif type(v) is list:
            for i in range(len(v) - 1, -1, -1):
                stack.append((v[i], "%s[%d]" % (path, i)))


def depth(v, limit=MAX_DEPTH):
    """depth returns the deepest nesting of arrays and objects in v (0 for a
    string, 1 for [] or [1], 2 for [[]]); it stops counting at limit + 1."""
    d = 0
    level = [v]
    while d <= limit:
        below = []
        containers = False
        for x in level:
            if type(x) is list:
                below.extend(x)
                containers = True
            elif type(x) is dict:
                below.extend(x.values())
                containers = True
        if not containers:
            break
        d += 1
        level = below
    return d


def encode(v):
    """encode returns v as one line of ASCII JSON text, without the newline.
    Object keys keep their order; numbers are written exactly."""
    try:
        # Fast path: the standard encoder, for values without a Number.
        return json.dumps(v, ensure_ascii=True, separators=(",", ":"), allow_nan=False,
                          default=_refuse)
    except (TypeError, ValueError):
        parts = []
        _encode(v, parts)
        return "".join(parts)


def _refuse(v):
    raise TypeError("not a standard JSON value: %s" % type(v).__name__)


def _encode(v, parts):
    if v is None:
        parts.append("null")
    elif v is True:
        parts.append("true")
    elif v is False:
        parts.append("false")
    elif isinstance(v, int):
        parts.append(int.__repr__(v))
    elif type(v) is Number:
        parts.append(v.literal)
    elif type(v) is str:
        parts.append(json.dumps(v))
    elif type(v) is list:
        parts.append("[")
        for i, x in enumerate(v):
            if i:
                parts.append(",")
            _encode(x, parts)
        parts.append("]")
    elif type(v) is dict:
        parts.append("{")
        for i, (k, x) in enumerate(v.items()):
            if i:
                parts.append(",")
            if type(k) is not str:
                raise TypeError("object key %r is not a string" % (k,))
            parts.append(json.dumps(k))
            parts.append(":")
            _encode(x, parts)
        parts.append("}")
    else:
        raise TypeError("cannot encode %s as JSON" % type(v).__name__)


def perform(call):
    """perform runs a discover or validate_arguments call on the values in
    call, as decoded, and returns its result; it raises CatalogError."""
    op = call.get("op")
    if op == "discover":
        return catalogkit.discover(call.get("catalog", catalogkit.ABSENT),
                                   call.get("family", catalogkit.ABSENT),
                                   call.get("name", catalogkit.ABSENT))
    if op == "validate_arguments":
        return catalogkit.validate_arguments(call.get("catalog", catalogkit.ABSENT),
                                             call.get("name", catalogkit.ABSENT),
                                             call.get("arguments", catalogkit.ABSENT))
    raise ProtocolError("op %s is not discover or validate_arguments" % json.dumps(op) if type(op) is str else "op is missing or not a string")


def snapshot(v):
    """snapshot returns a deep copy of the decoded JSON value v, made by the
    port itself so that it never depends on the contract code it checks."""
    if type(v) is dict:
        return {k: snapshot(x) for k, x in v.items()}
    if type(v) is list:
        return [snapshot(x) for x in v]
    return v


def mutate(v):
    """mutate changes the object or array v in place, as PROTOCOL.md's
    mutation procedure says."""
    if type(v) is dict:
        for k in list(v):
            if type(v[k]) in (dict, list):
                mutate(v[k])
            else:
                v[k] = "MUTATED"
        v["__mutated__"] = True
    elif type(v) is list:
        for i in range(len(v)):
            if type(v[i]) in (dict, list):
                mutate(v[i])
            else:
                v[i] = "MUTATED"
        v.append("MUTATED")


def mutate_and_repeat(inner):
    """mutate_and_repeat makes the inner call, mutates its result in place,
    makes the same call again on the same in-memory values and returns both
    results with the catalog and arguments as they are afterwards."""
    if type(inner) is not dict:
        raise ProtocolError("mutate_and_repeat: call is not an object")
    if inner.get("op") not in ("discover", "validate_arguments"):
        raise ProtocolError("mutate_and_repeat: inner op must be discover or validate_arguments")
    result = perform(inner)
    first = snapshot(result)
    mutate(result)
    second = perform(inner)
    args = None
    if inner.get("op") == "validate_arguments":
        args = snapshot(inner.get("arguments"))
    return {
        "first": first,
        "second": second,
        "catalog": snapshot(inner.get("catalog")),
        "arguments": args,
    }


def outcome(call):
    """outcome runs one CALL object, already checked by check_call, and
    returns its OUTCOME object."""
    op = call["op"]
    try:
        if op in ("discover", "validate_arguments"):
            return {"result": perform(call)}
        if op == "mutate_and_repeat":
            inner_op = call["call"]["op"]
            if inner_op not in ("discover", "validate_arguments"):
                return {"not_implemented": "this port has no op %s inside mutate_and_repeat" % json.dumps(inner_op)}
            return {"result": mutate_and_repeat(call["call"])}
    except catalogkit.CatalogError as e:
        out = {"error": e.code}
        if e.detail:
            out["detail"] = e.detail
        return out
    return {"not_implemented": "this port has no op %s" % json.dumps(op)}


def check_call(call):
    """check_call raises ProtocolError if call is not a CALL object the
    protocol allows: an object with a string op, and for mutate_and_repeat
    an inner object with a string op that is not mutate_and_repeat."""
    if type(call) is not dict:
        raise ProtocolError('the message\'s "call" is not an object')
    if type(call.get("op")) is not str:
        raise ProtocolError('the call has no string "op"')
    if call["op"] == "mutate_and_repeat":
        inner = call.get("call")
        if type(inner) is not dict:
            raise ProtocolError('mutate_and_repeat: its "call" is not an object')
        if type(inner.get("op")) is not str:
            raise ProtocolError('mutate_and_repeat: the inner call has no string "op"')
        if inner["op"] == "mutate_and_repeat":
            raise ProtocolError("mutate_and_repeat inside mutate_and_repeat")


# The start of every call line the runner writes: when the text layer
# refuses a line that starts so, the seq can be read and the refusal is a
# reply to that call (PROTOCOL.md).
_SEQ_PREFIX = re.compile(rb'\{"type":"call","seq":([1-9][0-9]*),')

# The largest line the text layer reads, as catalogkit's (32 MiB).
MAX_INPUT_BYTES = 32 << 20


def refusal(raw, why):
    """refusal answers a line the JSON text layer refused."""
    m = _SEQ_PREFIX.match(raw)
    if m:
        return {"type": "reply", "seq": int(m.group(1)), "outcome": {"error": INVALID_JSON, "detail": why}}
    return {"type": "error", "seq": None, "message": "the line is not valid JSON: " + why}


class Session:
    """Session answers the lines of one protocol session, in order, by the
    rules of PROTOCOL.md ("Every line gets one reply")."""

    def __init__(self):
        self.greeted = False

    def handle(self, raw):
        """handle answers one line of input (without its newline) with one
        reply object."""
        seq = None
        try:
            if not raw.strip(b" \t\r"):
                raise ProtocolError("empty line: every line must hold one JSON message")
            if len(raw) > MAX_INPUT_BYTES:
                return refusal(raw, "the line is longer than the limit of %d bytes" % MAX_INPUT_BYTES)
            try:
                msg, problems = decode(raw)
            except ValueError as e:
                return refusal(raw, str(e))
            if problems:
                more = "; and %d more" % (len(problems) - 5) if len(problems) > 5 else ""
                return refusal(raw, "; ".join(problems[:5]) + more)
            if type(msg) is not dict:
                raise ProtocolError("the message is not a JSON object")
            s = msg.get("seq")
            if type(s) is int and s > 0:
                seq = s
            kind = msg.get("type")
            if type(kind) is not str:
                raise ProtocolError('the message has no string "type"')
            if kind == "hello":
                if self.greeted:
                    raise ProtocolError("a second hello: the handshake is made once per session")
                self.greeted = True
                return {"type": "hello", "protocol": PROTOCOL,
                        "port": {"name": PORT_NAME, "language": PORT_LANGUAGE, "version": port_version()}}
            if kind != "call":
                raise ProtocolError("unknown message type %s" % encode(kind))
            if not self.greeted:
                raise ProtocolError("a call before the hello")
            if seq is None:
                raise ProtocolError("the call's seq is not a positive integer")
            call = msg.get("call")
            check_call(call)
            return {"type": "reply", "seq": seq, "outcome": outcome(call)}
        except ProtocolError as e:
            return {"type": "error", "seq": seq, "message": str(e)}
        except Exception as e:  # a bug is a reply, never a crash
            traceback.print_exc(file=sys.stderr)
            return {"type": "error", "seq": seq, "message": "port bug: %s: %s" % (type(e).__name__, e)}


def main():
    """main serves the protocol on stdin and stdout until stdin ends and
    returns the exit status."""
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    # Only protocol lines go to stdout; a stray print goes to stderr.
    sys.stdout = sys.stderr
    session = Session()
    while True:
        raw = stdin.readline()
        if not raw:
            return 0
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        reply = session.handle(raw)
        try:
            line = encode(reply)
        except Exception as e:  # noqa: BLE001 -- reported, never a crash
            traceback.print_exc(file=sys.stderr)
            line = encode({"type": "error", "seq": reply.get("seq"), "message": "port bug: cannot encode reply: %s" % e})
        stdout.write(line.encode("ascii") + b"\n")
        stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
