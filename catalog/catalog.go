package catalog

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Description is what discovery returns for one tool. Its JSON form is
//
//	{"name": N, "family": F, "effect": E,
//	 "inputSchema": {"type": "object", "properties": {...}, "required": [...],
//	                 "additionalProperties": false},
//	 "executes": false}
//
// "executes" is always false: a description never runs anything.
type Description struct {
	Name   string
	Family string
	Effect string // "read" or "change"
	// InputSchema is the schema that [Catalog.ValidateArguments] checks
	// arguments against: description and check come from this one value.
	// It is that of a format-1 tool; a format-2 tool's is InputSchema2.
	InputSchema Schema

	// A format-2 tool's title ("" when it has none, or an empty one),
	// description and MCP annotations (nil when it has none, in the
	// catalog's order).
	Title string
	Text  string
	Hints []Hint
	// Origin is the MCP server tool a format-2 tool stands for (nil when
	// the catalog does not say).
	Origin *Origin
	// titled reports that the tool has a title, "" included: the
	// description has one exactly when the definition has.
	titled bool
	// schema is a format-2 tool's input schema as the catalog writes it
	// (Absent for a format-1 tool): what discovery returns and what
	// validation checks are compiled from this one value.
	schema Value
}

// InputSchema2 returns a format-2 tool's input schema as the catalog writes
// it, and false for a format-1 tool.
func (d Description) InputSchema2() (Value, bool) { return d.schema, d.schema.Kind() != Absent }

// Format returns the format of the catalog the tool comes from: 1 or 2.
func (d Description) Format() int {
	if d.schema.Kind() != Absent {
		return 2
	}
	return 1
}

// Schema is a tool's input schema: an object with exactly the properties
// listed, in field order, no others ("additionalProperties": false).
type Schema struct {
	Properties []Property
	// Required lists the names of required properties, in field order.
	Required []string
}

// Property is one field of a [Schema].
type Property struct {
	Name string
	Type string // "string", "integer" or "boolean"
	// MaxLength bounds a string's length in Unicode code points. It is 0,
	// and absent from the JSON form, for integers and booleans.
	MaxLength int
}

// Validation is the result of a successful [ValidateArguments]: the shape of
// the arguments is valid, and that is all. Its JSON form is
//
//	{"name": N, "arguments": {...}, "shape_valid": true,
//	 "authorized": false, "executed": false}
//
// "authorized" and "executed" are always false: a valid shape grants nothing
// and runs nothing.
type Validation struct {
	Name string
	// Arguments is the validated arguments object, exactly as given.
	Arguments Value
}

// MarshalJSON returns the description's JSON form.
func (d Description) MarshalJSON() ([]byte, error) { return d.appendJSON(nil), nil }

func (d Description) appendJSON(b []byte) []byte {
	if d.schema.Kind() != Absent {
		return d.appendJSON2(b)
	}
	b = d.appendHead(b)
	b = append(b, `,"inputSchema":{"type":"object","properties":{`...)
	for i, p := range d.InputSchema.Properties {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, p.Name)
		b = append(b, `:{"type":`...)
		b = appendString(b, p.Type)
		if p.Type == "string" {
			b = append(b, `,"maxLength":`...)
			b = strconv.AppendInt(b, int64(p.MaxLength), 10)
		}
		b = append(b, '}')
	}
	b = append(b, `},"required":[`...)
	for i, r := range d.InputSchema.Required {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, r)
	}
	return append(b, `],"additionalProperties":false},"executes":false}`...)
}

// MarshalJSON returns the validation's JSON form.
func (v Validation) MarshalJSON() ([]byte, error) {
	b := append([]byte(nil), `{"name":`...)
	b = appendString(b, v.Name)
	b = append(b, `,"arguments":`...)
	b = v.Arguments.appendJSON(b, -1)
	return append(b, `,"shape_valid":true,"authorized":false,"executed":false}`...), nil
}

// appendHead writes the members every description begins with: {"name",
// "family", "effect".
func (d Description) appendHead(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, d.Name)
	b = append(b, `,"family":`...)
	b = appendString(b, d.Family)
	b = append(b, `,"effect":`...)
	b = appendString(b, d.Effect)
	return b
}

// appendJSON2 writes a format-2 tool's description: name, family, effect,
// title (when the definition has one, "" included), description, inputSchema as the catalog writes it,
// annotations (when given), origin (when given, server then tool), executes.
func (d Description) appendJSON2(b []byte) []byte {
	b = d.appendHead(b)
	if d.titled {
		b = append(b, `,"title":`...)
		b = appendString(b, d.Title)
	}
	b = append(b, `,"description":`...)
	b = appendString(b, d.Text)
	b = append(b, `,"inputSchema":`...)
	b = d.schema.appendJSON(b, -1)
	if d.Hints != nil {
		b = append(b, `,"annotations":{`...)
		for i, h := range d.Hints {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, h.Name)
			b = append(b, ':')
			b = strconv.AppendBool(b, h.Value)
		}
		b = append(b, '}')
	}
	if d.Origin != nil {
		b = d.Origin.appendJSON(append(b, `,"origin":`...))
	}
	return append(b, `,"executes":false}`...)
}

func (o *Origin) appendJSON(b []byte) []byte {
	b = append(b, `{"server":`...)
	b = appendString(b, o.Server)
	b = append(b, `,"tool":`...)
	b = appendString(b, o.Tool)
	return append(b, '}')
}

// clone returns a copy of d that shares no memory with it (a schema Value
// is immutable, so it is shared).
func (d Description) clone() Description {
	d.InputSchema.Properties = slices.Clone(d.InputSchema.Properties)
	d.InputSchema.Required = slices.Clone(d.InputSchema.Required)
	d.Hints = slices.Clone(d.Hints)
	if d.Origin != nil {
		o := *d.Origin
		d.Origin = &o
	}
	return d
}

// describe builds the description of a tool definition that checkTool
// accepted.
func describe(tool Value) Description {
	t, _ := splitTool(tool)
	d := Description{Name: t.name.text(), Family: t.family.text(), Effect: t.effect.text()}
	d.InputSchema.Properties = make([]Property, 0, t.fields.Len())
	d.InputSchema.Required = []string{}
	for key, spec := range t.fields.members() {
		sp, _ := splitSpec(spec)
		p := Property{Name: key.text(), Type: sp.typ.text()}
		if p.Type == "string" {
			p.MaxLength, _ = maxLengthOf(sp.maxLength)
		}
		d.InputSchema.Properties = append(d.InputSchema.Properties, p)
		if required, _ := sp.required.Bool(); required {
			d.InputSchema.Required = append(d.InputSchema.Required, p.Name)
		}
	}
	return d
}

// A shape is a schema ready to check arguments: the single place where
// arguments are checked against the description that discovery returns.
type shape struct {
	schema   *Schema
	index    map[string]int // property name → index in schema.Properties
	required uint32         // bit i is set when property i is required
}

func newShape(s *Schema) *shape {
	sh := &shape{schema: s, index: make(map[string]int, len(s.Properties))}
	for i, p := range s.Properties {
		sh.index[p.Name] = i
	}
	for _, r := range s.Required {
		sh.required |= 1 << sh.index[r]
	}
	return sh
}

// check checks arguments in the contract's order: keys first (V4: not an
// object, an unknown key, a missing required key), then each value in the
// tool's field order (V5), whatever order the arguments are written in, so
// that the first bad field, and the error's path, depend only on the catalog.
func (sh *shape) check(args Value) error {
	if args.Kind() != Object {
		return errorf(InvalidArgumentKeys, "arguments", "arguments is %s, want an object", describeKind(args.Kind()))
	}
	var vals [MaxFields]Value // vals[j] is the argument of property j, if present
	var present uint32
	props := sh.schema.Properties
	next := 0 // arguments usually come in field order: try the next property first
	for k, v := range args.members() {
		key := k.text()
		j := next
		if j >= len(props) || props[j].Name != key {
			var ok bool
			if j, ok = sh.index[key]; !ok {
				return unknownKey(sh.schema, key)
			}
		}
		next = j + 1
		// Keys are unique and known, so there are at most MaxFields of them.
		vals[j] = v
		present |= 1 << j
	}
	if missing := sh.required &^ present; missing != 0 {
		for i, p := range sh.schema.Properties {
			if missing&(1<<i) != 0 {
				return errorf(InvalidArgumentKeys, "arguments", "required key %q is missing", p.Name)
			}
		}
	}
	for j := range props {
		if present&(1<<j) != 0 && !props[j].accepts(vals[j]) {
			return valueError(&props[j], props[j].Name, vals[j])
		}
	}
	return nil
}

// accepts reports whether v is a valid value for the property.
func (p *Property) accepts(v Value) bool {
	switch p.Type {
	case "string":
		return v.Kind() == String && codePointsAtMost(v.text(), p.MaxLength)
	case "integer":
		return v.isInteger()
	case "boolean":
		return v.Kind() == Bool
	}
	return false
}

func unknownKey(s *Schema, key string) error {
	names := make([]string, len(s.Properties))
	quoted := make([]string, len(s.Properties))
	for i, p := range s.Properties {
		names[i] = p.Name
		quoted[i] = strconv.Quote(p.Name)
	}
	allowed := "no keys"
	if len(names) > 0 {
		allowed = strings.Join(quoted, ", ")
	}
	if m := closest(key, names); m != "" {
		return errorf(InvalidArgumentKeys, argPath(key), "unknown key %q, did you mean %q? (the schema allows %s)", key, m, allowed)
	}
	return errorf(InvalidArgumentKeys, argPath(key), "unknown key %s (the schema allows %s)", quoteShort(key), allowed)
}

func valueError(p *Property, key string, v Value) error {
	switch p.Type {
	case "string":
		if v.Kind() == String {
			return errorf(InvalidArgumentValue, argPath(key), "string is %d code points, longer than maxLength %d (strings are never truncated)", utf8.RuneCountInString(v.text()), p.MaxLength)
		}
		return errorf(InvalidArgumentValue, argPath(key), "value is %s, want a string of at most %d code points", brief(v), p.MaxLength)
	case "integer":
		return errorf(InvalidArgumentValue, argPath(key), "value is %s, want an integer written with no fraction or exponent", brief(v))
	default:
		return errorf(InvalidArgumentValue, argPath(key), "value is %s, want true or false", brief(v))
	}
}

func argPath(key string) string {
	b := []byte("arguments")
	if isPlainKey(key) {
		return string(append(append(b, '.'), key...))
	}
	b = append(b, '[')
	b = appendString(b, key)
	return string(append(b, ']'))
}
