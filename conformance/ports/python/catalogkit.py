"""catalogkit: the catalog contract (conformance/SPEC.md) in standard-library Python.

This module works on decoded JSON values (dict, list, str, int, bool, None,
and any other type for a non-integer number). It never reads files, the
network or the clock. Reading JSON text (conformance/SPEC.md §2) is the
caller's job; see catalog_port.py for a decoder that keeps what the contract
needs (integers as int of any size, non-integer numbers as a different type).

A label is a str matching ^[a-z][a-z0-9._-]{0,79}$ with nothing after it
(no trailing newline).

Catalog validation (conformance/SPEC.md §5), run first by every call. Tools
are checked in array order; the first failing check decides the error:

 C1. the catalog is not a list, or has more than 1000 tools: INVALID_CATALOG
 C2. a tool is not an object, or its keys are not exactly name, family,
     effect, enabled, fields: INVALID_FIELDS
 C3. name is not a label, then family is not a label: INVALID_LABEL
 C4. name was used by an earlier tool: DUPLICATE_TOOL
 C5. effect is not "read" or "change", then enabled is not a bool:
     INVALID_METADATA
 C6. fields is not an object, or has more than 30 entries: INVALID_FIELDS
 C7. for each field, in order: its name is not a label: INVALID_LABEL; its
     spec is not an object with exactly the keys type, required, max_length:
     INVALID_FIELDS; type is not "string", "integer" or "boolean", then
     required is not a bool, then max_length is not an int (a bool is not)
     in 1..20000: INVALID_SPEC

discover(catalog, family, name=ABSENT) (§6): D1 the catalog; D2 family not
a label: INVALID_LABEL; D3 a name given and not a label: INVALID_LABEL; D4
family not "all" and no tool (enabled or not) has it: UNKNOWN_FAMILY; D5
choose the enabled tools of the family, with that name if one is given; D6 a
name given and nothing chosen: TOOL_NOT_AVAILABLE_IN_FAMILY.

validate_arguments(catalog, name, arguments) (§7): V1 the catalog;
V2 name absent, not a str or not a label: INVALID_LABEL; V3 no enabled tool
has that name: TOOL_NOT_AVAILABLE_IN_FAMILY; V4 arguments not an object, or
with a key the schema lacks, or without a required key:
INVALID_ARGUMENT_KEYS; V5 in the tool's field order (not the order the
arguments are written in), a value of the wrong type, or a string longer
than max_length code points: INVALID_ARGUMENT_VALUE, naming the first such
field.

A catalog that is an object with a member "format" is of format 2
(conformance/SPEC.md §12): discover and validate_arguments hand it to
catalogkit2.py.

Every failure raises CatalogError, whose code attribute is one of the stable
codes above. Every result is a fresh value: changing it never changes the
catalog, the caller's arguments or a later result.
"""

import re

INVALID_CATALOG = "INVALID_CATALOG"
INVALID_FIELDS = "INVALID_FIELDS"
INVALID_LABEL = "INVALID_LABEL"
DUPLICATE_TOOL = "DUPLICATE_TOOL"
INVALID_METADATA = "INVALID_METADATA"
INVALID_SPEC = "INVALID_SPEC"
UNKNOWN_FAMILY = "UNKNOWN_FAMILY"
TOOL_NOT_AVAILABLE_IN_FAMILY = "TOOL_NOT_AVAILABLE_IN_FAMILY"
INVALID_ARGUMENT_KEYS = "INVALID_ARGUMENT_KEYS"
INVALID_ARGUMENT_VALUE = "INVALID_ARGUMENT_VALUE"

MAX_TOOLS = 1000
MAX_FIELDS = 30
MIN_MAX_LENGTH = 1
MAX_MAX_LENGTH = 20000

ALL = "all"
TOOL_KEYS = frozenset(("name", "family", "effect", "enabled", "fields"))
SPEC_KEYS = frozenset(("type", "required", "max_length"))
EFFECTS = ("read", "change")
TYPES = ("string", "integer", "boolean")

_LABEL = re.compile(r"[a-z][a-z0-9._-]{0,79}")


class _Absent:
    """The type of ABSENT."""

    __slots__ = ()

    def __repr__(self):
        return "ABSENT"


# ABSENT stands for an argument that was not given, which is different from
# None (JSON null): discover(c, f) has no name, discover(c, f, None) has a
# name that is not a label.
ABSENT = _Absent()


class CatalogError(Exception):
    """CatalogError is the one error type of the contract.

    code is one of the stable codes; detail says where, for people, and is
    never compared.
    """

    def __init__(self, code, detail=""):
        super().__init__(code + ": " + detail if detail else code)
        self.code = code
        self.detail = detail


class Field:
    """Field is one validated field spec, the single source of both the
    inputSchema that discover returns and the checks validate_arguments
    makes."""

    __slots__ = ("name", "type", "required", "max_length")

    def __init__(self, name, type_, required, max_length):
        self.name = name
        self.type = type_
        self.required = required
        self.max_length = max_length


class Tool:
    """Tool is one validated tool definition."""

    __slots__ = ("name", "family", "effect", "enabled", "fields")

    def __init__(self, name, family, effect, enabled, fields):
        self.name = name
        self.family = family
        self.effect = effect
        self.enabled = enabled
        self.fields = fields  # list of Field, in the definition's order

    def field(self, name):
        """field returns the Field called name, or None."""
        for f in self.fields:
            if f.name == name:
                return f
        return None


def is_label(v):
    """is_label reports whether v is a label."""
    return type(v) is str and _LABEL.fullmatch(v) is not None


def is_json_boolean(v):
    """is_json_boolean reports whether v is a JSON true or false."""
    return type(v) is bool


def is_json_integer(v):
    """is_json_integer reports whether v is a JSON number written without a
    fraction or an exponent (decoded as int). A bool is not an integer,
    although Python's bool is a subclass of int."""
    return isinstance(v, int) and not isinstance(v, bool)


def code_points(s):
    """code_points returns the length of s in Unicode code points."""
    return len(s)


def _quote(s):
    # _quote renders user input for a detail message, like Go's %q, cut
    # after 80 code points so that a huge input gives a short message.
    more = "..." if len(s) > 80 else ""
    return '"' + s[:80].encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"' + more


def _describe_value(v):
    if v is ABSENT:
        return "absent"
    if type(v) is str:
        return _quote(v)
    if v is None:
        return "null"
    if type(v) is bool:
        return "true" if v else "false"
    if type(v) is dict:
        return "an object"
    if type(v) is list:
        return "an array"
    if is_json_integer(v) and v.bit_length() > 64:
        # str() of a very long int may raise ValueError (Python 3.11+).
        return "an integer of %d bits" % v.bit_length()
    text = str(v)
    return "the number " + (text[:80] + "..." if len(text) > 80 else text)


def validate_catalog(catalog):
    """validate_catalog checks the whole catalog in the documented order and
    returns its tools as a list of Tool, or raises the first CatalogError."""
    if type(catalog) is not list:
        raise CatalogError(INVALID_CATALOG, "catalog is %s, not an array" % _describe_value(catalog))
    if len(catalog) > MAX_TOOLS:
        raise CatalogError(INVALID_CATALOG, "catalog has %d tools, more than %d" % (len(catalog), MAX_TOOLS))
    tools = []
    seen = set()
    for i, d in enumerate(catalog):
        path = "$[%d]" % i
        # C2 and C3.
        if type(d) is not dict:
            raise CatalogError(INVALID_FIELDS, "%s: tool is %s, not an object" % (path, _describe_value(d)))
        if set(d) != TOOL_KEYS:
            raise CatalogError(INVALID_FIELDS, "%s: keys are %s, want exactly %s" % (path, _keys(d), _keys(TOOL_KEYS)))
        name, family = d["name"], d["family"]
        if not is_label(name):
            raise CatalogError(INVALID_LABEL, "%s.name: %s is not a label" % (path, _describe_value(name)))
        if not is_label(family):
            raise CatalogError(INVALID_LABEL, "%s.family: %s is not a label" % (path, _describe_value(family)))
        # C4.
        if name in seen:
            raise CatalogError(DUPLICATE_TOOL, "%s.name: %s is already used by an earlier tool" % (path, _quote(name)))
        seen.add(name)
        # C5 to C7.
        effect, enabled = d["effect"], d["enabled"]
        if type(effect) is not str or effect not in EFFECTS:
            raise CatalogError(INVALID_METADATA, "%s.effect: %s is not \"read\" or \"change\"" % (path, _describe_value(effect)))
        if not is_json_boolean(enabled):
            raise CatalogError(INVALID_METADATA, "%s.enabled: %s is not a boolean" % (path, _describe_value(enabled)))
        fields = validate_fields(d["fields"], path + ".fields")
        tools.append(Tool(name, family, effect, enabled, fields))
    return tools


def validate_fields(fields, path):
    """validate_fields checks a tool's fields object (C6 and C7) and
    returns its fields as a list of Field, in the object's order."""
    if type(fields) is not dict:
        raise CatalogError(INVALID_FIELDS, "%s: %s is not an object" % (path, _describe_value(fields)))
    if len(fields) > MAX_FIELDS:
        raise CatalogError(INVALID_FIELDS, "%s: %d entries, more than %d" % (path, len(fields), MAX_FIELDS))
    out = []
    for name, spec in fields.items():
        if not is_label(name):
            raise CatalogError(INVALID_LABEL, "%s: field name %s is not a label" % (path, _describe_value(name)))
        fpath = path + "." + name
        if type(spec) is not dict:
            raise CatalogError(INVALID_FIELDS, "%s: spec is %s, not an object" % (fpath, _describe_value(spec)))
        if set(spec) != SPEC_KEYS:
            raise CatalogError(INVALID_FIELDS, "%s: keys are %s, want exactly %s" % (fpath, _keys(spec), _keys(SPEC_KEYS)))
        type_, required, max_length = spec["type"], spec["required"], spec["max_length"]
        if type(type_) is not str or type_ not in TYPES:
            raise CatalogError(INVALID_SPEC, "%s.type: %s is not \"string\", \"integer\" or \"boolean\"" % (fpath, _describe_value(type_)))
        if not is_json_boolean(required):
            raise CatalogError(INVALID_SPEC, "%s.required: %s is not a boolean" % (fpath, _describe_value(required)))
        if not is_json_integer(max_length) or not MIN_MAX_LENGTH <= max_length <= MAX_MAX_LENGTH:
            raise CatalogError(INVALID_SPEC, "%s.max_length: %s is not an integer in %d..%d" % (fpath, _describe_value(max_length), MIN_MAX_LENGTH, MAX_MAX_LENGTH))
        out.append(Field(name, type_, required, max_length))
    return out


def _keys(keys):
    keys = sorted(keys)
    more = ", ..." if len(keys) > 8 else ""
    return "[" + ", ".join(_quote(k) for k in keys[:8]) + more + "]"


def input_schema(tool):
    """input_schema returns a fresh inputSchema object for tool."""
    properties = {}
    for f in tool.fields:
        prop = {"type": f.type}
        if f.type == "string":
            prop["maxLength"] = f.max_length
        properties[f.name] = prop
    return {
        "type": "object",
        "properties": properties,
        "required": [f.name for f in tool.fields if f.required],
        "additionalProperties": False,
    }


def describe(tool):
    """describe returns a fresh description of tool, as discover lists it."""
    return {
        "name": tool.name,
        "family": tool.family,
        "effect": tool.effect,
        "inputSchema": input_schema(tool),
        "executes": False,
    }


def is_chosen(tool, family, name):
    """is_chosen reports whether discover lists tool for family and name:
    the tool is enabled, in family (any family for "all"), and called name
    if a name was given."""
    return (tool.enabled
            and (family == ALL or tool.family == family)
            and (name is ABSENT or tool.name == name))


def select_tools(tools, family, name=ABSENT):
    """select_tools applies discover's steps D2 to D6 to validated tools and
    returns the chosen ones, in catalog order."""
    if not is_label(family):
        raise CatalogError(INVALID_LABEL, "family: %s is not a label" % _describe_value(family))
    if name is not ABSENT and not is_label(name):
        raise CatalogError(INVALID_LABEL, "name: %s is not a label" % _describe_value(name))
    if family != ALL and not any(t.family == family for t in tools):
        raise CatalogError(UNKNOWN_FAMILY, "no tool has family %s" % _quote(family))
    chosen = [t for t in tools if is_chosen(t, family, name)]
    if name is not ABSENT and not chosen:
        where = "any family" if family == ALL else "family " + _quote(family)
        raise CatalogError(TOOL_NOT_AVAILABLE_IN_FAMILY, "no enabled tool %s in %s" % (_quote(name), where))
    return chosen


def is_format2(catalog):
    """is_format2 reports whether catalog is of format 2 (§12.1): an object
    with a member "format". Any other object is refused as format 1
    refuses it."""
    return type(catalog) is dict and "format" in catalog


def discover(catalog, family, name=ABSENT):
    """discover returns fresh descriptions of the enabled tools in family
    ("all" for any family), only the one called name if a name is given."""
    if is_format2(catalog):
        import catalogkit2
        return catalogkit2.discover(catalog, family, name)
    tools = validate_catalog(catalog)
    return [describe(t) for t in select_tools(tools, family, name)]


def check_argument_keys(tool, arguments):
    """check_argument_keys raises INVALID_ARGUMENT_KEYS unless arguments is
    an object with only keys that tool's schema has and every required
    one."""
    if type(arguments) is not dict:
        raise CatalogError(INVALID_ARGUMENT_KEYS, "arguments: %s is not an object" % _describe_value(arguments))
    for key in arguments:
        if tool.field(key) is None:
            raise CatalogError(INVALID_ARGUMENT_KEYS, "arguments: %s is not a field of %s" % (_quote(key), _quote(tool.name)))
    for f in tool.fields:
        if f.required and f.name not in arguments:
            raise CatalogError(INVALID_ARGUMENT_KEYS, "arguments: required field %s is missing" % _quote(f.name))


def check_argument_value(field, value):
    """check_argument_value raises INVALID_ARGUMENT_VALUE unless value fits
    field: a str of at most max_length code points, an integer, or a
    boolean."""
    path = "arguments." + field.name
    if field.type == "string":
        if type(value) is not str:
            raise CatalogError(INVALID_ARGUMENT_VALUE, "%s: %s is not a string" % (path, _describe_value(value)))
        n = code_points(value)
        if n > field.max_length:
            raise CatalogError(INVALID_ARGUMENT_VALUE, "%s: %d code points, more than %d" % (path, n, field.max_length))
    elif field.type == "integer":
        if not is_json_integer(value):
            raise CatalogError(INVALID_ARGUMENT_VALUE, "%s: %s is not an integer" % (path, _describe_value(value)))
    elif not is_json_boolean(value):
        raise CatalogError(INVALID_ARGUMENT_VALUE, "%s: %s is not a boolean" % (path, _describe_value(value)))


def validate_arguments(catalog, name, arguments):
    """validate_arguments checks the shape of a call of the enabled tool
    called name and returns a fresh result. shape_valid is true; authorized
    and executed are always false: a valid shape grants nothing."""
    if is_format2(catalog):
        import catalogkit2
        return catalogkit2.validate_arguments(catalog, name, arguments)
    tools = validate_catalog(catalog)
    if name is ABSENT or type(name) is not str:
        # Intentional divergence: the reference used the first enabled tool.
        raise CatalogError(INVALID_LABEL, "name: %s is not a string" % _describe_value(name))
    tool = select_tools(tools, ALL, name)[0]
    check_argument_keys(tool, arguments)
    # V5: values in the tool's field order, so that the first bad field does
    # not depend on the order the arguments were written in.
    for f in tool.fields:
        if f.name in arguments:
            check_argument_value(f, arguments[f.name])
    return {
        "name": tool.name,
        "arguments": copy_json(arguments),
        "shape_valid": True,
        "authorized": False,
        "executed": False,
    }


def copy_json(v):
    """copy_json returns a deep copy of the decoded JSON value v. Values
    other than dict and list are immutable and are shared."""
    if type(v) is dict:
        return {k: copy_json(x) for k, x in v.items()}
    if type(v) is list:
        return [copy_json(x) for x in v]
    return v
