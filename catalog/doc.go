// Package catalog is the exact core of catalogkit: given a catalog of tool
// definitions, it returns the descriptions of one family of tools, or of one
// tool by exact name, each with a small input schema, and it checks a call's
// arguments against that same schema.
//
// Nothing here executes a tool or grants a permission. A successful
// [ValidateArguments] says the *shape* of a call is valid, never that the call
// is allowed or that it ran: its JSON form always says "authorized": false and
// "executed": false, and every description says "executes": false.
//
// The package is pure: it does no file, network, process or clock access, and
// imports only the standard library.
//
// This documentation is the contract for Go. The same contract, for porters
// to other languages, is conformance/SPEC.md in the catalogkit repository and
// release; its step ids (J1 to J9 for JSON text, C1 to C7, D1 to D6, V1 to
// V5) are the ones used here, and a test keeps the two lists of steps and
// codes in agreement.
//
// # Two forms, one contract
//
// The function-level form, [Discover] and [ValidateArguments], takes the
// catalog and the call's parameters as the JSON [Value]s a caller holds and
// validates the whole catalog on every call, like the original reference.
// The compiled form validates once with [Compile] (or [Parse] from JSON text)
// and then answers [Catalog.Discover], [Catalog.DiscoverTool] and
// [Catalog.ValidateArguments] many times. Both give identical results and
// errors. Every result is a fresh value: changing it never changes the catalog
// or a later result.
//
// # Catalog
//
// A catalog is a JSON array of tool definitions. A label is a string matching
// ^[a-z][a-z0-9._-]{0,79}$ (1 to 80 ASCII characters, nothing after them, not
// even a newline); see [IsLabel].
//
// A tool definition is an object with exactly the keys name (a label), family
// (a label), effect ("read" or "change"), enabled (true or false) and fields
// (an object of at most 30 entries, field name → field spec, field names
// being labels). A field spec is an object with exactly the keys type
// ("string", "integer" or "boolean"), required (true or false) and max_length
// (a JSON integer from 1 to 20000; 5.0, 1e2 and true are not integers).
// max_length is declared for every field but bounds only strings.
//
// # Catalog validation
//
// Every call validates the whole catalog first. The first failing check, in
// this order, decides the error. C1 looks at the whole catalog; then tools
// are checked in array order, each through C2 to C7 before the next:
//
//   - C1. the catalog is not an array: [InvalidCatalog]; it has more than
//     1000 tools: [InvalidCatalog]
//   - C2. the tool is not an object, or its keys are not exactly the five:
//     [InvalidFields]
//   - C3. name is not a label: [InvalidLabel]; then family is not a label:
//     [InvalidLabel]
//   - C4. name is used by an earlier tool: [DuplicateTool]
//   - C5. effect is not "read" or "change": [InvalidMetadata]; then enabled
//     is not a boolean: [InvalidMetadata]
//   - C6. fields is not an object, or has more than 30 entries:
//     [InvalidFields]
//   - C7. for each field, in the object's order: the field name is not a
//     label: [InvalidLabel]; the spec is not an object with exactly the three
//     keys: [InvalidFields]; type is not one of the three: [InvalidSpec];
//     required is not a boolean: [InvalidSpec]; max_length is not an integer
//     from 1 to 20000: [InvalidSpec]
//
// One bad definition rejects the whole catalog: no tool is ever skipped.
//
// # Discovery
//
// Discover(catalog, family, name?) runs these steps:
//
//   - D1. validate the catalog (C1 to C7)
//   - D2. family is not a label: [InvalidLabel]
//   - D3. a name is given and is not a label: [InvalidLabel]
//   - D4. family is not "all" and no tool, enabled or not, has it:
//     [UnknownFamily]
//   - D5. choose, in catalog order, the enabled tools of the family (of every
//     family for "all", which lifts only the family filter, never the enabled
//     filter) and, if a name is given, with exactly that name
//   - D6. a name is given and no tool was chosen:
//     [ToolNotAvailableInFamily]. A disabled tool, a tool of another family
//     and an absent tool are all rejected alike; there is never a similar
//     name or a fallback to another tool.
//
// The result lists the chosen tools as [Description]s. A known family whose
// tools are all disabled lists as []. In each input schema, properties keep
// the fields' order, required lists the required fields in that order, and
// only string properties carry maxLength.
//
// # Argument validation
//
// ValidateArguments(catalog, name, arguments) runs these steps:
//
//   - V1. validate the catalog (C1 to C7)
//   - V2. name is missing, not a string or not a label: [InvalidLabel]
//   - V3. no enabled tool, in any family, has that name:
//     [ToolNotAvailableInFamily] (discovery in family "all")
//   - V4. arguments is not an object: [InvalidArgumentKeys]; it has a key the
//     schema lacks: [InvalidArgumentKeys]; it lacks a required key:
//     [InvalidArgumentKeys]
//   - V5. for each field in the tool's field order (not the order the
//     arguments are written in), a value that does not fit its property:
//     [InvalidArgumentValue]; the first such field names the error's path.
//     A string property takes a JSON string of at most maxLength Unicode
//     code points (not bytes, not UTF-16 units; never truncated). An integer
//     property takes a JSON number written with no fraction and no exponent,
//     of any magnitude (1.0, 1e2 and true are not integers). A boolean
//     property takes true or false only (1 and "true" are not booleans).
//     null fits no property.
//
// The schema that discovery returns and the check that validation makes are
// one value ([Description.InputSchema]), so they cannot drift apart. The
// grammar is deliberately small: no nested objects, no formats, no ranges.
//
// # Format 2
//
// A catalog that is an object with a member "format" is format 2, whose
// format must be [Format2] ("catalogkit/2"); an array is format 1, and
// anything else is refused as format 1 refuses it (C1). Format 2 gives each
// tool a description (and an optional title and MCP annotations), each
// family an optional description, and an input schema that is a JSON Schema
// (2020-12, or draft-07 where the two mean the same) restricted to an exact
// subset. Its tool names match ^[A-Za-z][A-Za-z0-9._-]{0,127}$
// ([IsToolName2]); families are labels. The catalog is checked in order:
//
//   - G1. format is "catalogkit/2" and the object has no member but format,
//     tools and families: [InvalidCatalog]
//   - G2. tools is an array of at most 1000 tools: [InvalidCatalog]
//   - G3. families, when present, is an object ([InvalidCatalog]) that maps
//     labels ([InvalidLabel]) to objects of exactly one member, description,
//     a string of at most 8192 code points ([InvalidMetadata])
//   - G4. for each tool: it is an object of the keys name, family, effect,
//     enabled, description, inputSchema, and optionally title, annotations
//     and origin: [InvalidFields]
//   - G5. name is a tool name, then family is a label: [InvalidLabel]
//   - G6. name is used by an earlier tool: [DuplicateTool]
//   - G7. effect, enabled, description (a string of at most 8192 code
//     points), title (at most 256), annotations (readOnlyHint,
//     destructiveHint, idempotentHint, openWorldHint, each a boolean),
//     origin (exactly server and tool, each a string of 1 to
//     [MaxOriginText] code points): [InvalidMetadata]
//   - G8. inputSchema is a schema of the subset whose root is an object
//     that is not nullable: [InvalidSpec], at the keyword's path
//
// A schema is checked in order, its subschemas in turn:
//
//   - K1. it is an object, at most [MaxSchemaDepth] levels deep:
//     [InvalidSpec]
//   - K2. each member, in the order written, is a keyword of the subset
//     (type, anyOf, enum, const, minLength, maxLength, minimum, maximum,
//     exclusiveMinimum, exclusiveMaximum, items, minItems, maxItems,
//     properties, required, additionalProperties, and the annotations
//     description, title, default, examples, format, and $schema at the
//     root): pattern, $ref, oneOf, allOf, not, if, patternProperties and
//     the rest are [InvalidSpec]
//   - K3. exactly one of type (a type name, or [T, "null"]) and anyOf
//     ([SCHEMA, {"type": "null"}] in either order, a nullable value, with
//     only annotations beside it): [InvalidSpec]
//   - K4. each keyword applies to the type; an object schema says
//     "additionalProperties": false and an array schema gives items:
//     [InvalidSpec]
//   - K5. the values: bounds are numbers, lengths and counts integers from
//     0 to [MaxBound], no bound crossed (equal bounds are allowed); items; properties (at
//     most [MaxProperties], names ^[A-Za-z_][A-Za-z0-9_.-]{0,63}$); required
//     (distinct properties); additionalProperties false; enum (1 to
//     [MaxEnum] distinct values fitting the schema), const and default
//     fitting the schema; the annotations' types and lengths:
//     [InvalidSpec]
//
// Discovery runs D1 to D6 with G1 to G8 and the tool-name rule; a
// description is name, family, effect, title (when given), description,
// inputSchema as the catalog writes it, annotations (when given), origin
// (when given) and executes. Validation runs V1 to V3, then:
//
//   - W1. arguments is not an object: [InvalidArgumentKeys]
//   - W2. the arguments are checked against the input schema depth first,
//     W3 to W8 for each value; the first failure decides
//   - W3. null fits a nullable schema only: [InvalidArgumentValue]; under
//     type [T, "null"] it must still pass W5 (an enum without null refuses
//     it), under anyOf [S, {"type": "null"}] S's enum and const do not apply
//   - W4. the type (an integer is an integer literal, of any magnitude):
//     [InvalidArgumentValue]
//   - W5. enum and const, comparing by value and kind: [InvalidArgumentValue]
//   - W6. a string's length in code points, a number's bounds by exact
//     decimal value: [InvalidArgumentValue]
//   - W7. an array's count ([InvalidArgumentValue]), then each element in
//     index order
//   - W8. an object's keys in the order written (an unknown key is
//     [InvalidArgumentKeys] at its path), then the required keys in the
//     order of required ([InvalidArgumentKeys]), then each property's value
//     in the schema's order
//
// # JSON text
//
// [ParseJSON] reads JSON text strictly (J1 to J9), for callers that hold
// bytes: it rejects malformed JSON, trailing data, a byte order mark,
// duplicate object keys at any depth (a second "enabled" must not smuggle a
// value past a reviewer), invalid UTF-8, lone surrogate escapes, input over
// [MaxInputBytes] and nesting deeper than [MaxDepth] (the outermost array or
// object being depth 1), all with [InvalidJSON] and a message naming the byte
// offset, line, column and JSON path. Number literals are kept exactly. The
// text layer is decided for the whole text first: [InvalidJSON] wins over
// every other code. Because a [Value] can only come from ParseJSON, every
// Value has unique keys and valid strings.
//
// # Errors
//
// Every error is an [*Error] carrying one of the stable [Code]s and the path of
// the offending value. When several things are wrong, the first failing step
// decides: the JSON text, then the catalog (C1 to C7), then the call's own
// steps in order (D2 to D6, or V2 to V5). Match codes, never message text. An
// error means that nothing ran: discovery failed, and the caller should
// re-read the current definitions.
package catalog
