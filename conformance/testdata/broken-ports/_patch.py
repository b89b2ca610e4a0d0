"""What every deliberately broken port here shares.

Each broken port is the real Python port (../python) with exactly one
behaviour changed: it imports the real modules from here, replaces one
function and serves the protocol as usual. The conformance cases must catch
every one; see README.md in this directory. This file is not a port: the
tests run every *.py here except the ones whose name starts with "_".
"""

import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "ports", "python"))

import catalog_port  # noqa: E402,F401
import catalogkit  # noqa: E402,F401
import catalogkit2  # noqa: E402,F401

# The names every JavaScript object inherits from Object.prototype: what
# `k in obj` also finds in an object made with {}.
OBJECT_PROTOTYPE = frozenset((
    "constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf",
    "propertyIsEnumerable", "__proto__", "__defineGetter__", "__defineSetter__",
    "__lookupGetter__", "__lookupSetter__",
))


def rewrite_bytes(raw, inside=None, outside=None):
    """rewrite_bytes copies the JSON text raw, passing each byte inside a
    string (after any backslash escape) to inside and each byte between
    tokens to outside; each returns the bytes to write instead, or None to
    keep the byte."""
    out = bytearray()
    in_string = escaped = False
    for c in raw:
        fn = None
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:
                escaped = True
            elif c == 0x22:
                in_string = False
            else:
                fn = inside
        elif c == 0x22:
            in_string = True
        else:
            fn = outside
        repl = fn(c) if fn else None
        if repl is None:
            out.append(c)
        else:
            out += repl
    return bytes(out)


def is_field(tool, key):
    """is_field is the port's own test of an argument key."""
    return tool.field(key) is not None


def check_keys(declared=is_field, present=lambda arguments, name: name in arguments):
    """check_keys replaces the port's check of argument keys with one that
    asks declared(tool, key) whether a key of the arguments is a field of the
    tool and present(arguments, name) whether a required field is given:
    the broken ports that get one of the two wrong pass their own."""
    def check_argument_keys(tool, arguments):
        if type(arguments) is not dict:
            raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "arguments is not an object")
        for key in arguments:
            if not declared(tool, key):
                raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "unknown key " + key)
        for f in tool.fields:
            if f.required and not present(arguments, f.name):
                raise catalogkit.CatalogError(catalogkit.INVALID_ARGUMENT_KEYS, "missing " + f.name)

    catalogkit.check_argument_keys = check_argument_keys


def values_in(value):
    """values_in yields value and every value inside it, depth first."""
    stack = [value]
    while stack:
        v = stack.pop()
        yield v
        if type(v) is dict:
            stack.extend(v.values())
        elif type(v) is list:
            stack.extend(v)


def duplicates_by(same):
    """duplicates_by makes the JSON reader also take two keys of one object
    for duplicates when same(key) gives the same for both: the broken ports
    that compare keys other than code point by code point."""
    _decode = catalog_port.decode

    def decode(raw):
        value, problems = _decode(raw)
        for v in values_in(value):
            if type(v) is dict:
                seen = set()
                for k in v:
                    if same(k) in seen:
                        problems.append("duplicate object key %s" % json.dumps(k))
                    seen.add(same(k))
        return value, problems

    catalog_port.decode = decode


def default_absent(member, value):
    """default_absent makes a call that lacks member run as if it held
    value: the broken ports that default a parameter instead of refusing
    its absence."""
    _perform = catalog_port.perform

    def perform(call):
        return _perform(call if member in call else dict(call, **{member: value}))

    catalog_port.perform = perform


def main_loop(reply, end_status=lambda: 0, stop=lambda raw, r: False):
    """main_loop replaces the port's main with the same loop over stdin, in
    which reply(session, raw, ended) returns the reply to one line (raw
    without its newline; ended when it had none, at the end of input) or
    None for no reply at all, end_status() is the exit status once the
    input ends, and stop(raw, r) after a reply r is written ends the loop
    with status 0 at once: the broken ports whose bug is in that loop."""
    def main():
        stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
        sys.stdout = sys.stderr  # only protocol lines go to stdout
        session = catalog_port.Session()
        while True:
            raw = stdin.readline()
            if not raw:
                return end_status()
            ended = not raw.endswith(b"\n")
            r = reply(session, raw if ended else raw[:-1], ended)
            if r is not None:
                write_line(stdout, r)
            if stop(raw, r):
                return 0

    catalog_port.main = main


def memoize_validate(key, errors=(TypeError, ValueError)):
    """memoize_validate makes validate_arguments remember each outcome (the
    result or the CatalogError) under key(catalog, name, arguments), and call
    the real one where key raises one of errors: the broken ports whose bug
    is a key under which two different calls are one."""
    real = catalogkit.validate_arguments
    memo = {}

    def validate_arguments(catalog, name, arguments):
        try:
            k = key(catalog, name, arguments)
            hash(k)
        except errors:
            return real(catalog, name, arguments)
        if k not in memo:
            try:
                memo[k] = ("ok", real(catalog, name, arguments))
            except catalogkit.CatalogError as e:
                memo[k] = ("err", e)
        kind, v = memo[k]
        if kind == "err":
            raise v
        return catalogkit.copy_json(v)

    catalogkit.validate_arguments = validate_arguments


def patch_source(owner, func_name, old, new, *more):
    """patch_source redefines func_name of owner (a module of the real port,
    or a class of it) from its own source with the text old replaced by new,
    and each further pair of more likewise: for the broken ports whose one
    change is a line or two inside a function of the real port. It fails if
    old is not there, so a change to the real port cannot silently leave a
    port unbroken."""
    import inspect
    import textwrap
    src = textwrap.dedent(inspect.getsource(getattr(owner, func_name)))
    for o, n in [(old, new)] + list(zip(more[::2], more[1::2])):
        if o not in src:
            raise SystemExit("_patch.patch_source: %s no longer holds %r" % (func_name, o))
        src = src.replace(o, n, 1)
    module = sys.modules[getattr(owner, "__module__", None) or owner.__name__]
    ns = {}
    exec(compile(src, module.__file__, "exec"), module.__dict__, ns)
    setattr(owner, func_name, ns[func_name])


def on_error(owner, name, errors, handler):
    """on_error replaces owner.name (a function of the real port) with the
    same function, except that when it raises one of errors the port
    returns handler(real, e, *args) instead, which may raise: the broken
    ports whose bug is what they do after an error."""
    real = getattr(owner, name)

    def wrapper(*args):
        try:
            return real(*args)
        except errors as e:
            return handler(real, e, *args)

    setattr(owner, name, wrapper)


def nested(flat):
    """nested returns a new dict with each key of flat set as a set-by-path
    helper sets it (lodash's _.set): "out.format" becomes
    ["out"]["format"]. The broken ports that nest a dotted field name share
    it."""
    out = {}
    for key, value in flat.items():
        obj = out
        *parents, last = key.split(".")
        for p in parents:
            if type(obj.get(p)) is not dict:
                obj[p] = {}
            obj = obj[p]
        obj[last] = value
    return out


def write_line(stdout, reply, end=b"\n"):
    """write_line writes one reply as the port does: ASCII JSON, then end."""
    stdout.write(catalog_port.encode(reply).encode("ascii") + end)
    stdout.flush()


def rewrite_output(fn):
    """rewrite_output passes every line the port writes (its JSON text,
    without the newline) through fn: the broken ports whose bug is in how
    they write JSON."""
    _encode = catalog_port.encode
    catalog_port.encode = lambda v: fn(_encode(v))


def catalog_keys(rename):
    """catalog_keys passes every tool definition and field spec of a catalog
    through rename (a dict in, a dict out) before the real validate_catalog
    sees it: the broken ports whose bug is in how they read those keys."""
    real = catalogkit.validate_catalog

    def validate_catalog(catalog):
        if type(catalog) is list:
            out = []
            for d in catalog:
                d = rename(d) if type(d) is dict else d
                if type(d) is dict and type(d.get("fields")) is dict:
                    d = dict(d, fields={n: rename(s) if type(s) is dict else s for n, s in d["fields"].items()})
                out.append(d)
            catalog = out
        return real(catalog)

    catalogkit.validate_catalog = validate_catalog


def echo_leaves(fn):
    """echo_leaves makes copy_json (the echo of arguments) pass every value
    that is not an object or an array through fn: the broken ports whose
    bug is in what they echo."""
    def copy_json(v):
        if type(v) is dict:
            return {k: copy_json(x) for k, x in v.items()}
        if type(v) is list:
            return [copy_json(x) for x in v]
        return fn(v)

    catalogkit.copy_json = copy_json


def serve(name):
    """serve runs the port when the broken port's file is run as a script."""
    if name == "__main__":
        sys.exit(catalog_port.main())
