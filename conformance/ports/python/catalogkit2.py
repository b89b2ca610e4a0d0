"""catalogkit2: catalog format 2 (conformance/SPEC.md §12) in standard-library Python.

A catalog that is a JSON object with a member "format" is format 2;
catalogkit.discover and catalogkit.validate_arguments hand it here. Values are
decoded JSON as catalogkit takes them: dict (in the order written), list,
str, int of any size for an integer literal, bool, None, and any other type
for a number written with a fraction or an exponent, whose str() is its
literal (catalog_port.Number). Numbers compare as exact decimals
(decimal.Decimal is exact for any exponent), never as floats.

The catalog (§12.2), the first failing check deciding:

 G1. format is "catalogkit/2" and no member but format, tools, families:
     INVALID_CATALOG
 G2. tools is a list of at most 1000 tools: INVALID_CATALOG
 G3. families, when present, is an object (INVALID_CATALOG) of labels
     (INVALID_LABEL) to {"description": str of <= 8192 code points}
     (INVALID_METADATA)
 then each tool, whole, before the next:
 G4. an object of name, family, effect, enabled, description, inputSchema,
     optionally title, annotations and origin: INVALID_FIELDS
 G5. name matches ^[A-Za-z][A-Za-z0-9._-]{0,127}$, then family is a label:
     INVALID_LABEL
 G6. name used before: DUPLICATE_TOOL
 G7. effect, enabled, description (<= 8192), title (<= 256), annotations
     (MCP's four hints, booleans), origin (exactly server and tool, each
     1 to 256 code points): INVALID_METADATA
 G8. inputSchema is a schema of the subset (K1-K5), an object that is not
     nullable: INVALID_SPEC

Every failure of the subset is INVALID_SPEC, so the order of K1-K5 decides
nothing but the detail; the checks below follow it all the same.
"""

import re
from decimal import Decimal

import catalogkit as ck
from catalogkit import CatalogError

FORMAT2 = "catalogkit/2"
MAX_DESCRIPTION = 8192
MAX_TITLE = 256
MAX_ORIGIN_TEXT = 256
MAX_SCHEMA_DEPTH = 10
MAX_PROPERTIES = 100
MAX_ENUM = 256
MAX_BOUND = 33554432

_TOOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9._-]{0,127}")
_PROPERTY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")

CATALOG_KEYS = frozenset(("format", "tools", "families"))
TOOL_KEYS = frozenset(("name", "family", "effect", "enabled", "description", "inputSchema"))
OPTIONAL_TOOL_KEYS = frozenset(("title", "annotations", "origin"))
HINTS = frozenset(("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"))
TYPES = frozenset(("string", "integer", "number", "boolean", "array", "object"))
APPLIES = {
    "minLength": ("string",), "maxLength": ("string",),
    "minimum": ("integer", "number"), "maximum": ("integer", "number"),
    "exclusiveMinimum": ("integer", "number"), "exclusiveMaximum": ("integer", "number"),
    "items": ("array",), "minItems": ("array",), "maxItems": ("array",),
    "properties": ("object",), "required": ("object",), "additionalProperties": ("object",),
}
ANY_TYPE = frozenset(("enum", "const", "description", "title", "default", "examples", "format"))
ANNOTATIONS = frozenset(("description", "title", "default", "examples", "format"))
DIALECTS = ("https://json-schema.org/draft/2020-12/schema",
            "http://json-schema.org/draft-07/schema#",
            "http://json-schema.org/draft-07/schema")


def is_tool_name(v):
    """is_tool_name reports whether v is a format-2 tool name."""
    return type(v) is str and _TOOL_NAME.fullmatch(v) is not None


def kind(v):
    """kind names the JSON kind of a decoded value; "integer" for an integer
    literal, "number" for any other number."""
    if v is None:
        return "null"
    t = type(v)
    if t is bool:
        return "boolean"
    if t is str:
        return "string"
    if t is list:
        return "array"
    if t is dict:
        return "object"
    if isinstance(v, int):
        return "integer"
    return "number"


def decimal(v):
    """decimal returns the exact value of a number."""
    return Decimal(v) if isinstance(v, int) else Decimal(str(v))


def equal(a, b):
    """equal compares two values as results compare (§8.3): by kind, numbers
    by exact value, objects as unordered members, arrays in order."""
    ka, kb = kind(a), kind(b)
    if ka != kb:
        return False
    if ka in ("integer", "number"):
        return decimal(a) == decimal(b)
    if ka == "array":
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if ka == "object":
        return len(a) == len(b) and all(k in b and equal(x, b[k]) for k, x in a.items())
    return a == b


def key(v):
    """key returns a hashable key of v that two values share exactly when
    equal finds them equal: a number by its kind and exact value (no
    rounding context: the digits and exponent of the decimal, trailing
    zeros moved into the exponent), objects as sets of members."""
    k = kind(v)
    if k in ("integer", "number"):
        sign, digits, exp = decimal(v).as_tuple()
        n = len(digits)
        while n > 0 and digits[n - 1] == 0:
            n -= 1
        if n == 0:
            return (k, 0)
        return (k, sign, digits[:n], exp + len(digits) - n)
    if k == "array":
        return (k, tuple(key(x) for x in v))
    if k == "object":
        return (k, frozenset((kk, key(x)) for kk, x in v.items()))
    return (k, v)


def _text(v, path, what, limit, code=ck.INVALID_METADATA):
    if type(v) is not str:
        raise CatalogError(code, "%s: %s is %s, want a string" % (path, what, kind(v)))
    if ck.code_points(v) > limit:
        raise CatalogError(code, "%s: %s is %d code points, over %d" % (path, what, ck.code_points(v), limit))
    return v


class Schema:
    """Schema is one compiled schema of the subset: the single source of the
    checks validate_arguments makes (discover returns the schema as written)."""

    __slots__ = ("type", "nullable", "null_skips", "enum", "const", "has_const",
                 "min_length", "max_length", "minimum", "maximum", "excl_min", "excl_max",
                 "items", "min_items", "max_items", "props", "required")

    def __init__(self):
        self.type = None
        self.nullable = False
        self.null_skips = False  # null is anyOf's other branch: no enum or const applies
        self.enum = None
        self.const = None
        self.has_const = False
        self.min_length = self.max_length = None
        self.minimum = self.maximum = self.excl_min = self.excl_max = None
        self.items = None
        self.min_items = self.max_items = None
        self.props = []  # (name, Schema), in the order written
        self.required = []


def _spec(path, why):
    return CatalogError(ck.INVALID_SPEC, "%s: %s" % (path, why))


def compile_schema(v, path, depth=1, inner=False):
    """compile_schema checks v against the subset (K1-K5) and returns a
    Schema; inner is true for the schema inside a nullable anyOf."""
    # K1
    if type(v) is not dict:
        raise _spec(path, "schema is %s, want an object" % kind(v))
    if depth > MAX_SCHEMA_DEPTH:
        raise _spec(path, "schemas nest %d deep, over %d" % (depth, MAX_SCHEMA_DEPTH))
    # K2
    for key in v:
        if key in APPLIES or key in ANY_TYPE or key in ("type", "anyOf"):
            continue
        if key == "$schema" and depth == 1 and not inner:
            continue
        raise _spec(path + "." + key, "not a keyword of the subset")
    # K3
    if "type" in v and "anyOf" in v:
        raise _spec(path, "both type and anyOf")
    if "anyOf" in v:
        if inner:
            raise _spec(path, "anyOf inside a nullable anyOf")
        n = _compile_any_of(v["anyOf"], path + ".anyOf", depth)
        for key in v:
            if key not in ANNOTATIONS and key not in ("anyOf", "$schema"):
                raise _spec(path + "." + key, "only annotations stand beside anyOf")
        _finish(n, v, path)
        return n
    if "type" not in v:
        raise _spec(path, "no type")
    n = Schema()
    t = v["type"]
    if type(t) is str and t in TYPES:
        n.type = t
    elif (type(t) is list and len(t) == 2 and all(type(x) is str for x in t)
          and "null" in t and (t[0] if t[1] == "null" else t[1]) in TYPES):
        if inner:
            raise _spec(path + ".type", "a nullable type inside a nullable anyOf")
        n.type, n.nullable = (t[0] if t[1] == "null" else t[1]), True
    else:
        raise _spec(path + ".type", "not a type of the subset")
    # K4
    for key in v:
        if key in APPLIES and n.type not in APPLIES[key]:
            raise _spec(path + "." + key, "does not apply to %s" % n.type)
    if n.type == "object" and "additionalProperties" not in v:
        raise _spec(path, "an object schema says additionalProperties: false")
    if n.type == "array" and "items" not in v:
        raise _spec(path, "an array schema gives items")
    # K5
    for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        if key in v and kind(v[key]) not in ("integer", "number"):
            raise _spec(path + "." + key, "not a number")
    n.minimum, n.maximum = _bound(v, "minimum"), _bound(v, "maximum")
    n.excl_min, n.excl_max = _bound(v, "exclusiveMinimum"), _bound(v, "exclusiveMaximum")
    for key, attr in (("minLength", "min_length"), ("maxLength", "max_length"),
                      ("minItems", "min_items"), ("maxItems", "max_items")):
        if key in v:
            x = v[key]
            if kind(x) != "integer" or not 0 <= decimal(x) <= MAX_BOUND:
                raise _spec(path + "." + key, "not an integer from 0 to %d" % MAX_BOUND)
            setattr(n, attr, int(decimal(x)))
    if n.max_length is not None and (n.min_length or 0) > n.max_length:
        raise _spec(path, "minLength over maxLength")
    if n.max_items is not None and (n.min_items or 0) > n.max_items:
        raise _spec(path, "minItems over maxItems")
    lows = [b for b in (n.minimum, n.excl_min) if b is not None]
    highs = [b for b in (n.maximum, n.excl_max) if b is not None]
    if lows and highs and max(lows) > min(highs):
        raise _spec(path, "the lower bound is over the upper bound")
    if "items" in v:
        n.items = compile_schema(v["items"], path + ".items", depth + 1)
    if "properties" in v:
        props = v["properties"]
        if type(props) is not dict:
            raise _spec(path + ".properties", "not an object")
        if len(props) > MAX_PROPERTIES:
            raise _spec(path + ".properties", "over %d properties" % MAX_PROPERTIES)
        for name, s in props.items():
            if _PROPERTY_NAME.fullmatch(name) is None:
                raise _spec(path + ".properties", "property name %r is not a name" % name)
            n.props.append((name, compile_schema(s, path + ".properties." + name, depth + 1)))
    if "required" in v:
        req = v["required"]
        names = [p for p, _ in n.props]
        if type(req) is not list:
            raise _spec(path + ".required", "not an array")
        for r in req:
            if type(r) is not str or r not in names:
                raise _spec(path + ".required", "%r is not a property" % (r,))
            if r in n.required:
                raise _spec(path + ".required", "%r twice" % r)
            n.required.append(r)
    if "additionalProperties" in v and v["additionalProperties"] is not False:
        raise _spec(path + ".additionalProperties", "not false")
    _finish(n, v, path)
    return n


def _bound(v, key):
    return decimal(v[key]) if key in v else None


def _compile_any_of(a, path, depth):
    if type(a) is not list or len(a) != 2:
        raise _spec(path, "anyOf is [SCHEMA, {\"type\": \"null\"}]")
    null = [i for i, s in enumerate(a) if type(s) is dict and len(s) == 1 and s.get("type") == "null"]
    if not null:
        raise _spec(path, "anyOf has no {\"type\": \"null\"}")
    other = 0 if null[-1] == 1 else 1
    n = compile_schema(a[other], "%s[%d]" % (path, other), depth, inner=True)
    n.nullable = n.null_skips = True
    return n


def _finish(n, v, path):
    """_finish checks enum, const and default, each against the schema as
    compiled so far, then the annotations."""
    if "enum" in v:
        e = v["enum"]
        if type(e) is not list or not 1 <= len(e) <= MAX_ENUM:
            raise _spec(path + ".enum", "want an array of 1 to %d values" % MAX_ENUM)
        seen = set()
        for i, x in enumerate(e):
            _fits(n, x, "%s.enum[%d]" % (path, i))
            kx = key(x)
            if kx in seen:
                raise _spec("%s.enum[%d]" % (path, i), "listed twice")
            seen.add(kx)
        n.enum = e
    if "const" in v:
        _fits(n, v["const"], path + ".const")
        n.const, n.has_const = v["const"], True
    if "default" in v:
        _fits(n, v["default"], path + ".default")
    if "description" in v:
        _text(v["description"], path, "description", MAX_DESCRIPTION, ck.INVALID_SPEC)
    if "title" in v:
        _text(v["title"], path, "title", MAX_TITLE, ck.INVALID_SPEC)
    if "examples" in v and type(v["examples"]) is not list:
        raise _spec(path + ".examples", "not an array")
    if "format" in v and type(v["format"]) is not str:
        raise _spec(path + ".format", "not a string")
    if "$schema" in v and (type(v["$schema"]) is not str or v["$schema"] not in DIALECTS):
        raise _spec(path + ".$schema", "not a dialect of the subset")


def _fits(n, x, path):
    try:
        check(n, x, path)
    except CatalogError as e:
        raise _spec(path, "does not fit the schema (%s)" % e.detail)


def _value(path, why):
    return CatalogError(ck.INVALID_ARGUMENT_VALUE, "%s: %s" % (path, why))


def check(n, v, path):
    """check checks the value v against the Schema n (W3-W8), depth first;
    the first failure raises."""
    k = kind(v)
    # W3
    if k == "null":
        if not n.nullable:
            raise _value(path, "null, want %s" % n.type)
        if not n.null_skips:
            check_enum(n, v, path)
        return
    # W4
    if not (k == n.type or n.type == "number" and k == "integer"):
        raise _value(path, "%s, want %s" % (k, n.type))
    # W5
    check_enum(n, v, path)
    # W6-W8
    if k == "string":
        check_string(n, v, path)
    elif k in ("integer", "number"):
        check_number(n, v, path)
    elif k == "array":
        check_array(n, v, path)
    elif k == "object":
        check_object(n, v, path)


def check_string(n, v, path):
    """W6 for a string: its length in code points."""
    length = ck.code_points(v)
    if n.max_length is not None and length > n.max_length:
        raise _value(path, "%d code points, over maxLength %d" % (length, n.max_length))
    if n.min_length is not None and length < n.min_length:
        raise _value(path, "%d code points, under minLength %d" % (length, n.min_length))


def check_number(n, v, path):
    """W6 for a number: the bounds, as exact decimals."""
    if n.minimum is None and n.maximum is None and n.excl_min is None and n.excl_max is None:
        return
    x = decimal(v)
    if ((n.minimum is not None and x < n.minimum) or (n.excl_min is not None and x <= n.excl_min)
            or (n.maximum is not None and x > n.maximum) or (n.excl_max is not None and x >= n.excl_max)):
        raise _value(path, "out of bounds")


def check_array(n, v, path):
    """W7: the count, then each element in index order."""
    if n.min_items is not None and len(v) < n.min_items:
        raise _value(path, "fewer than minItems")
    if n.max_items is not None and len(v) > n.max_items:
        raise _value(path, "more than maxItems")
    for i, x in enumerate(v):
        check(n.items, x, "%s[%d]" % (path, i))


def check_object(n, v, path):
    """W8: the keys in the order written, the required properties, then the
    values in the schema's order of properties."""
    schemas = dict(n.props)
    for key in v:
        if key not in schemas:
            raise CatalogError(ck.INVALID_ARGUMENT_KEYS, "%s: %s is not a property" % (path, ck._quote(key)))
    for r in n.required:
        if r not in v:
            raise CatalogError(ck.INVALID_ARGUMENT_KEYS, "%s: required %s is missing" % (path, ck._quote(r)))
    for name, s in n.props:
        if name in v:
            check(s, v[name], path + "." + name)


def check_enum(n, v, path):
    """W5: enum and const, compared by value and kind."""
    if n.enum is not None and not any(equal(v, x) for x in n.enum):
        raise _value(path, "not one of the enum's values")
    if n.has_const and not equal(v, n.const):
        raise _value(path, "not the const")


class Tool2:
    """Tool2 is one checked format-2 tool: its definition as written, and its
    compiled input schema."""

    __slots__ = ("name", "family", "enabled", "definition", "schema")

    def __init__(self, definition, schema):
        self.name = definition["name"]
        self.family = definition["family"]
        self.enabled = definition["enabled"]
        self.definition = definition
        self.schema = schema


def validate_catalog(catalog):
    """validate_catalog checks a format-2 catalog (G1-G8) and returns its
    tools as a list of Tool2, or raises the first CatalogError."""
    # G1
    if catalog.get("format") != FORMAT2 or type(catalog.get("format")) is not str:
        raise CatalogError(ck.INVALID_CATALOG, "$.format: want %r" % FORMAT2)
    for key in catalog:
        if key not in CATALOG_KEYS:
            raise CatalogError(ck.INVALID_CATALOG, "$: unknown member %s" % ck._quote(key))
    # G2
    tools = catalog.get("tools")
    if type(tools) is not list or len(tools) > ck.MAX_TOOLS:
        raise CatalogError(ck.INVALID_CATALOG, "$.tools: want an array of at most %d tools" % ck.MAX_TOOLS)
    # G3
    if "families" in catalog:
        fams = catalog["families"]
        if type(fams) is not dict:
            raise CatalogError(ck.INVALID_CATALOG, "$.families: want an object")
        for name, about in fams.items():
            if not ck.is_label(name):
                raise CatalogError(ck.INVALID_LABEL, "$.families: %s is not a label" % ck._quote(name))
            if type(about) is not dict or set(about) != {"description"}:
                raise CatalogError(ck.INVALID_METADATA, "$.families.%s: want {\"description\": TEXT}" % name)
            _text(about["description"], "$.families." + name, "description", MAX_DESCRIPTION)
    out, seen = [], set()
    for i, d in enumerate(tools):
        p = "$.tools[%d]" % i
        # G4
        if type(d) is not dict or not TOOL_KEYS <= set(d) or not set(d) <= TOOL_KEYS | OPTIONAL_TOOL_KEYS:
            raise CatalogError(ck.INVALID_FIELDS, "%s: want name, family, effect, enabled, description, inputSchema, and optionally title, annotations and origin" % p)
        # G5
        if not is_tool_name(d["name"]):
            raise CatalogError(ck.INVALID_LABEL, "%s.name: not a tool name" % p)
        if not ck.is_label(d["family"]):
            raise CatalogError(ck.INVALID_LABEL, "%s.family: not a label" % p)
        # G6
        if d["name"] in seen:
            raise CatalogError(ck.DUPLICATE_TOOL, "%s.name: %s is used by an earlier tool" % (p, ck._quote(d["name"])))
        seen.add(d["name"])
        # G7
        if type(d["effect"]) is not str or d["effect"] not in ck.EFFECTS:
            raise CatalogError(ck.INVALID_METADATA, "%s.effect: want \"read\" or \"change\"" % p)
        if type(d["enabled"]) is not bool:
            raise CatalogError(ck.INVALID_METADATA, "%s.enabled: want a boolean" % p)
        _text(d["description"], p, "description", MAX_DESCRIPTION)
        if "title" in d:
            _text(d["title"], p, "title", MAX_TITLE)
        if "annotations" in d:
            ann = d["annotations"]
            if type(ann) is not dict or any(k not in HINTS or type(x) is not bool for k, x in ann.items()):
                raise CatalogError(ck.INVALID_METADATA, "%s.annotations: want MCP's hints, each a boolean" % p)
        if "origin" in d:
            origin = d["origin"]
            if type(origin) is not dict or set(origin) != {"server", "tool"}:
                raise CatalogError(ck.INVALID_METADATA, "%s.origin: want {\"server\": NAME, \"tool\": NAME}" % p)
            for key, text in origin.items():
                _text(text, p + ".origin", key, MAX_ORIGIN_TEXT)
                if text == "":
                    raise CatalogError(ck.INVALID_METADATA, "%s.origin.%s: empty" % (p, key))
        # G8
        schema = compile_schema(d["inputSchema"], p + ".inputSchema")
        if schema.type != "object" or schema.nullable:
            raise _spec(p + ".inputSchema", "the input schema is an object schema, not nullable")
        out.append(Tool2(d, schema))
    return out


def describe(tool):
    """describe returns a fresh description of a format-2 tool (§12.4)."""
    d = tool.definition
    out = {"name": d["name"], "family": d["family"], "effect": d["effect"]}
    if "title" in d:
        out["title"] = d["title"]
    out["description"] = d["description"]
    out["inputSchema"] = ck.copy_json(d["inputSchema"])
    if "annotations" in d:
        out["annotations"] = ck.copy_json(d["annotations"])
    if "origin" in d:
        out["origin"] = {"server": d["origin"]["server"], "tool": d["origin"]["tool"]}
    out["executes"] = False
    return out


def select_tools(tools, family, name):
    """select_tools is discover's D2-D6 with format 2's tool names."""
    if not ck.is_label(family):
        raise CatalogError(ck.INVALID_LABEL, "family: %s is not a label" % ck._describe_value(family))
    if name is not ck.ABSENT and not is_tool_name(name):
        raise CatalogError(ck.INVALID_LABEL, "name: %s is not a tool name" % ck._describe_value(name))
    if family != ck.ALL and not any(t.family == family for t in tools):
        raise CatalogError(ck.UNKNOWN_FAMILY, "no tool has family %s" % ck._quote(family))
    chosen = [t for t in tools if t.enabled and (family == ck.ALL or t.family == family)
              and (name is ck.ABSENT or t.name == name)]
    if name is not ck.ABSENT and not chosen:
        raise CatalogError(ck.TOOL_NOT_AVAILABLE_IN_FAMILY, "no enabled tool %s" % ck._quote(name))
    return chosen


def discover(catalog, family, name=ck.ABSENT):
    """discover on a format-2 catalog."""
    return [describe(t) for t in select_tools(validate_catalog(catalog), family, name)]


def validate_arguments(catalog, name, arguments):
    """validate_arguments on a format-2 catalog: V1-V3, then W1-W8."""
    tools = validate_catalog(catalog)
    if not is_tool_name(name):
        raise CatalogError(ck.INVALID_LABEL, "name: %s is not a tool name" % ck._describe_value(name))
    tool = select_tools(tools, ck.ALL, name)[0]
    if type(arguments) is not dict:
        raise CatalogError(ck.INVALID_ARGUMENT_KEYS, "arguments: %s is not an object" % ck._describe_value(arguments))
    check(tool.schema, arguments, "arguments")
    return {
        "name": tool.name,
        "arguments": ck.copy_json(arguments),
        "shape_valid": True,
        "authorized": False,
        "executed": False,
    }
