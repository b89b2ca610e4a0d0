package catalog

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The input schema of a format-2 tool: a JSON Schema (2020-12, or draft-07
// where the two mean the same) restricted to an exact subset (the package
// documentation, "Format 2"). A schemaNode is one schema of it, compiled:
// the same value describes the tool (discovery returns the schema as the
// catalog writes it) and checks its arguments.

type schemaType uint8

const (
	typeString schemaType = iota + 1
	typeInteger
	typeNumber
	typeBoolean
	typeArray
	typeObject
)

var schemaTypes = map[string]schemaType{
	"string": typeString, "integer": typeInteger, "number": typeNumber,
	"boolean": typeBoolean, "array": typeArray, "object": typeObject,
}

var typeArticles = [...]string{"", "a string", "an integer", "a number", "a boolean", "an array", "an object"}

// A schemaNode is a compiled schema of the subset.
type schemaNode struct {
	typ      schemaType
	nullable bool
	// nullSkips is set for anyOf [S, {"type": "null"}]: null is the other
	// branch, and S's enum and const do not apply to it. Under type
	// [T, "null"] they do, as JSON Schema has it.
	nullSkips bool
	enum      []Value // nil when the schema has none
	constant  *Value
	// Numbers: each bound's literal and value, nil when absent.
	minimum, maximum, exclMin, exclMax *bound
	// Strings and arrays: -1 when absent.
	minLength, maxLength int
	minItems, maxItems   int
	items                *schemaNode
	// Objects: the properties in the schema's order, and the indices of
	// the required ones in the order of "required".
	props    []property2
	index    map[string]int
	required []int
	isReq    []bool
}

type bound struct {
	lit string
	dec decimal
	// small is the bound as an int64, when it is an integer literal of at
	// most 18 digits (isSmall): compared without a decimal.
	small   int64
	isSmall bool
}

// newBound returns the bound of a number literal.
func newBound(lit string) *bound {
	b := &bound{lit: lit, dec: parseDecimal(lit)}
	b.small, b.isSmall = smallInt(lit)
	return b
}

// smallInt returns the value of an integer literal of at most 18 digits.
func smallInt(lit string) (int64, bool) {
	if len(lit) > 19 || strings.ContainsAny(lit, ".eE") {
		return 0, false
	}
	x, err := strconv.ParseInt(lit, 10, 64)
	return x, err == nil
}

// cmpBound compares the number v to the bound b: -1, 0 or +1.
func cmpBound(v Value, vSmall int64, vIsSmall bool, b *bound) int {
	if vIsSmall && b.isSmall {
		switch {
		case vSmall < b.small:
			return -1
		case vSmall > b.small:
			return 1
		}
		return 0
	}
	return cmpDecimal(parseDecimal(v.text()), b.dec)
}

type property2 struct {
	name string
	node *schemaNode
}

// The keywords of the subset: those that constrain (by the types they apply
// to) and the annotations, which constrain nothing.
var (
	stringKeywords  = []string{"minLength", "maxLength"}
	numberKeywords  = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
	arrayKeywords   = []string{"items", "minItems", "maxItems"}
	objectKeywords  = []string{"properties", "required", "additionalProperties"}
	valueKeywords   = []string{"enum", "const"}
	annotationWords = []string{"description", "title", "default", "examples", "format"}
)

// refused says why a keyword outside the subset is refused, for those a
// schema author is likely to write.
var refused = map[string]string{
	"pattern":               "patterns are outside the subset: regular-expression dialects differ between languages, so a pattern cannot be checked alike everywhere",
	"$ref":                  "references are outside the subset: write the schema in place",
	"$defs":                 "definitions are outside the subset: write each schema in place",
	"definitions":           "definitions are outside the subset: write each schema in place",
	"oneOf":                 "unions are outside the subset (only anyOf of a type and {\"type\": \"null\"}, a nullable value)",
	"allOf":                 "unions are outside the subset (only anyOf of a type and {\"type\": \"null\"}, a nullable value)",
	"not":                   "negation is outside the subset",
	"if":                    "conditions are outside the subset",
	"then":                  "conditions are outside the subset",
	"else":                  "conditions are outside the subset",
	"patternProperties":     "maps are outside the subset: name every property",
	"propertyNames":         "maps are outside the subset: name every property",
	"additionalItems":       "only items, one schema for every element, is in the subset",
	"prefixItems":           "only items, one schema for every element, is in the subset",
	"uniqueItems":           "it is outside the subset",
	"multipleOf":            "it is outside the subset",
	"minProperties":         "it is outside the subset: use required",
	"maxProperties":         "it is outside the subset",
	"dependentRequired":     "dependencies are outside the subset",
	"dependentSchemas":      "dependencies are outside the subset",
	"dependencies":          "dependencies are outside the subset",
	"contains":              "it is outside the subset",
	"unevaluatedProperties": "it is outside the subset: use additionalProperties: false",
}

// The $schema values a root schema may declare: 2020-12, and draft-07,
// whose keywords in the subset mean what they mean in 2020-12.
var schemaDialects = []string{
	"https://json-schema.org/draft/2020-12/schema",
	"http://json-schema.org/draft-07/schema#",
	"http://json-schema.org/draft-07/schema",
}

func specErr(path, format string, args ...any) error {
	return errorf(InvalidSpec, path, format, args...)
}

// compileSchema compiles the schema v at path, depth levels deep (the input
// schema is depth 1), in the order of the package documentation (K1 to K5).
func compileSchema(v Value, path string, depth int) (*schemaNode, error) {
	return compileNode(v, path, depth, false)
}

// compileNode is compileSchema; inner is true for the schema inside a
// nullable anyOf, which may not be nullable or an anyOf again.
func compileNode(v Value, path string, depth int, inner bool) (*schemaNode, error) {
	// K1: an object, not too deep.
	if v.Kind() != Object {
		return nil, specErr(path, "schema is %s, want an object", brief(v))
	}
	if depth > MaxSchemaDepth {
		return nil, specErr(path, "schemas nest %d deep here, over the limit of %d", depth, MaxSchemaDepth)
	}
	// K2: every member a keyword of the subset.
	for k := range v.members() {
		key := k.text()
		if known(key) || key == "type" || key == "anyOf" || key == "$schema" && depth == 1 && !inner {
			continue
		}
		if why, ok := refused[key]; ok {
			return nil, specErr(path+pathKey(key), "%s is refused: %s", key, why)
		}
		return nil, specErr(path+pathKey(key), "%s is not a keyword of the subset", quoteShort(key))
	}
	// K3: the type, or a nullable anyOf.
	typ, hasType := v.Lookup("type")
	anyOf, hasAnyOf := v.Lookup("anyOf")
	var n *schemaNode
	switch {
	case hasType && hasAnyOf:
		return nil, specErr(path, "schema has both type and anyOf: give one")
	case hasAnyOf && inner:
		return nil, specErr(path+".anyOf", "an anyOf inside a nullable anyOf is outside the subset")
	case hasAnyOf:
		var err error
		if n, err = compileAnyOf(v, anyOf, path, depth); err != nil {
			return nil, err
		}
		// The wrapper holds annotations only: what constrains is inside.
		for k := range v.members() {
			if key := k.text(); key != "anyOf" && key != "$schema" && !containsString(annotationWords, key) {
				return nil, specErr(path+pathKey(key), "%s belongs inside the anyOf's schema, next to its type", key)
			}
		}
		return n, finishAnnotations(n, v, path)
	case !hasType:
		return nil, specErr(path, "schema has no type (one of string, integer, number, boolean, array, object, or [T, \"null\"])")
	}
	n = &schemaNode{minLength: -1, maxLength: -1, minItems: -1, maxItems: -1}
	if err := n.setType(typ, path+".type", inner); err != nil {
		return nil, err
	}
	// K4: every keyword applies to the type; objects close their
	// properties, arrays give their items' schema.
	for k := range v.members() {
		key := k.text()
		var applies bool
		switch {
		case containsString(stringKeywords, key):
			applies = n.typ == typeString
		case containsString(numberKeywords, key):
			applies = n.typ == typeInteger || n.typ == typeNumber
		case containsString(arrayKeywords, key):
			applies = n.typ == typeArray
		case containsString(objectKeywords, key):
			applies = n.typ == typeObject
		default:
			applies = true
		}
		if !applies {
			return nil, specErr(path+pathKey(key), "%s does not apply to %s", key, typeArticles[n.typ])
		}
	}
	if _, ok := v.Lookup("additionalProperties"); n.typ == typeObject && !ok {
		return nil, specErr(path, "an object schema says \"additionalProperties\": false (a key the schema does not name is refused, and the schema must say so)")
	}
	if _, ok := v.Lookup("items"); n.typ == typeArray && !ok {
		return nil, specErr(path, "an array schema gives items, the schema of its elements")
	}
	// K5: each keyword's value, in a fixed order.
	if err := n.setBounds(v, path); err != nil {
		return nil, err
	}
	if items, ok := v.Lookup("items"); ok {
		node, err := compileNode(items, path+".items", depth+1, false)
		if err != nil {
			return nil, err
		}
		n.items = node
	}
	if err := n.setProperties(v, path, depth); err != nil {
		return nil, err
	}
	if ap, ok := v.Lookup("additionalProperties"); ok {
		if b, isBool := ap.Bool(); !isBool || b {
			return nil, specErr(path+".additionalProperties", "additionalProperties is %s, want false: maps and open objects are outside the subset", brief(ap))
		}
	}
	return n, finishAnnotations(n, v, path)
}

// known reports whether key is a keyword of the subset other than type,
// anyOf and $schema.
func known(key string) bool {
	for _, list := range [][]string{stringKeywords, numberKeywords, arrayKeywords, objectKeywords, valueKeywords, annotationWords} {
		if containsString(list, key) {
			return true
		}
	}
	return false
}

// setType reads type: a type name, or [T, "null"] in either order.
func (n *schemaNode) setType(typ Value, path string, inner bool) error {
	want := `want one of "string", "integer", "number", "boolean", "array", "object", or [T, "null"]`
	if s, ok := typ.Str(); ok {
		t, known := schemaTypes[s]
		if !known {
			return specErr(path, "type is %s, %s", brief(typ), want)
		}
		n.typ = t
		return nil
	}
	if typ.Kind() != Array || typ.Len() != 2 {
		return specErr(path, "type is %s, %s", brief(typ), want)
	}
	a, _ := typ.Index(0).Str()
	b, _ := typ.Index(1).Str()
	if a == "null" {
		a, b = b, a
	}
	t, known := schemaTypes[a]
	if !known || b != "null" || typ.Index(0).Kind() != String || typ.Index(1).Kind() != String {
		return specErr(path, "type is %s, %s", brief(typ), want)
	}
	if inner {
		return specErr(path, "a nullable type inside a nullable anyOf is outside the subset")
	}
	n.typ, n.nullable = t, true
	return nil
}

// compileAnyOf compiles anyOf: [S, {"type": "null"}] in either order, S a
// schema that is not nullable: S or null.
func compileAnyOf(v, anyOf Value, path string, depth int) (*schemaNode, error) {
	p := path + ".anyOf"
	if anyOf.Kind() != Array || anyOf.Len() != 2 {
		return nil, specErr(p, "anyOf is %s: only [SCHEMA, {\"type\": \"null\"}], a nullable value, is in the subset", brief(anyOf))
	}
	isNull := func(s Value) bool {
		t, ok := s.Lookup("type")
		str, _ := t.Str()
		return s.Kind() == Object && s.Len() == 1 && ok && str == "null"
	}
	i := 0
	switch {
	case isNull(anyOf.Index(1)):
	case isNull(anyOf.Index(0)):
		i = 1
	default:
		return nil, specErr(p, "anyOf has no {\"type\": \"null\"}: only [SCHEMA, {\"type\": \"null\"}], a nullable value, is in the subset")
	}
	n, err := compileNode(anyOf.Index(i), p+"["+strconv.Itoa(i)+"]", depth, true)
	if err != nil {
		return nil, err
	}
	n.nullable, n.nullSkips = true, true
	return n, nil
}

// setBounds reads the numeric bounds and the bounds of lengths and counts.
func (n *schemaNode) setBounds(v Value, path string) error {
	for _, kw := range []struct {
		name string
		dst  **bound
	}{{"minimum", &n.minimum}, {"maximum", &n.maximum}, {"exclusiveMinimum", &n.exclMin}, {"exclusiveMaximum", &n.exclMax}} {
		b, ok := v.Lookup(kw.name)
		if !ok {
			continue
		}
		lit, isNum := b.NumberLiteral()
		if !isNum {
			return specErr(path+"."+kw.name, "%s is %s, want a number (the boolean form of draft-04 is outside the subset)", kw.name, brief(b))
		}
		*kw.dst = newBound(lit)
	}
	for _, kw := range []struct {
		name string
		dst  *int
	}{{"minLength", &n.minLength}, {"maxLength", &n.maxLength}, {"minItems", &n.minItems}, {"maxItems", &n.maxItems}} {
		b, ok := v.Lookup(kw.name)
		if !ok {
			continue
		}
		x, ok := smallCount(b)
		if !ok {
			return specErr(path+"."+kw.name, "%s is %s, want an integer from 0 to %d", kw.name, brief(b), MaxBound)
		}
		*kw.dst = x
	}
	switch {
	case n.maxLength >= 0 && n.minLength > n.maxLength:
		return specErr(path+".minLength", "minLength %d is more than maxLength %d: no string fits", n.minLength, n.maxLength)
	case n.maxItems >= 0 && n.minItems > n.maxItems:
		return specErr(path+".minItems", "minItems %d is more than maxItems %d: no array fits", n.minItems, n.maxItems)
	}
	lo, hi := n.minimum, n.maximum
	for _, b := range []*bound{n.exclMin} {
		if b != nil && (lo == nil || cmpDecimal(b.dec, lo.dec) >= 0) {
			lo = b
		}
	}
	for _, b := range []*bound{n.exclMax} {
		if b != nil && (hi == nil || cmpDecimal(b.dec, hi.dec) <= 0) {
			hi = b
		}
	}
	if lo != nil && hi != nil && cmpDecimal(lo.dec, hi.dec) > 0 {
		return specErr(path, "the lower bound %s is more than the upper bound %s: no number fits", lo.lit, hi.lit)
	}
	return nil
}

// smallCount returns the value of an integer literal from 0 to MaxBound.
func smallCount(v Value) (int, bool) {
	if !v.isInteger() {
		return 0, false
	}
	lit := v.text()
	if len(lit) > 9 {
		return 0, false
	}
	x, err := strconv.Atoi(lit)
	if x == 0 {
		return 0, err == nil // "-0" is 0
	}
	return x, err == nil && 0 < x && x <= MaxBound
}

// setProperties reads properties and required.
func (n *schemaNode) setProperties(v Value, path string, depth int) error {
	props, hasProps := v.Lookup("properties")
	if hasProps {
		if props.Kind() != Object {
			return specErr(path+".properties", "properties is %s, want an object: property name → schema", brief(props))
		}
		if props.Len() > MaxProperties {
			return specErr(path+".properties", "an object schema has %d properties, over the limit of %d", props.Len(), MaxProperties)
		}
		n.index = make(map[string]int, props.Len())
		for k, s := range props.members() {
			name := k.text()
			p := path + ".properties" + pathKey(name)
			if !isPropertyName(name) {
				return specErr(p, "property name %s is not a name (want ^[A-Za-z_][A-Za-z0-9_.-]{0,63}$)", quoteShort(name))
			}
			node, err := compileNode(s, p, depth+1, false)
			if err != nil {
				return err
			}
			n.index[name] = len(n.props)
			n.props = append(n.props, property2{name: name, node: node})
		}
	}
	if n.typ == typeObject && n.index == nil {
		n.index = map[string]int{}
	}
	n.isReq = make([]bool, len(n.props))
	req, ok := v.Lookup("required")
	if !ok {
		return nil
	}
	if req.Kind() != Array {
		return specErr(path+".required", "required is %s, want an array of property names", brief(req))
	}
	for i := range req.Len() {
		r := req.Index(i)
		p := path + ".required[" + strconv.Itoa(i) + "]"
		s, isStr := r.Str()
		j, isProp := n.index[s]
		switch {
		case !isStr:
			return specErr(p, "required lists %s, want a property name", brief(r))
		case !isProp:
			return specErr(p, "required lists %s, which is not a property of the schema", quoteShort(s))
		case n.isReq[j]:
			return specErr(p, "required lists %s twice", quoteShort(s))
		}
		n.isReq[j] = true
		n.required = append(n.required, j)
	}
	return nil
}

// finishAnnotations reads what is checked after the type's own keywords:
// enum, const and default, each fitting the schema, and the annotations.
func finishAnnotations(n *schemaNode, v Value, path string) error {
	if e, ok := v.Lookup("enum"); ok {
		if e.Kind() != Array || e.Len() == 0 || e.Len() > MaxEnum {
			return specErr(path+".enum", "enum is %s, want an array of 1 to %d values", brief(e), MaxEnum)
		}
		var vals []Value
		seen := make(map[string]bool, e.Len())
		for i := range e.Len() {
			x := e.Index(i)
			p := path + ".enum[" + strconv.Itoa(i) + "]"
			if err := n.check(x, &vpath{key: p, index: -1}); err != nil {
				return specErr(p, "the enum's value %s does not fit the schema: %s", brief(x), err.(*Error).Detail)
			}
			// One key per value, equal exactly when equalValues says so:
			// 256 values cost 256 keys, not 32,640 comparisons.
			k := string(appendValueKey(nil, x))
			if seen[k] {
				return specErr(p, "enum lists %s twice", brief(x))
			}
			seen[k] = true
			vals = append(vals, x)
		}
		n.enum = vals
	}
	if c, ok := v.Lookup("const"); ok {
		if err := n.check(c, &vpath{key: path + ".const", index: -1}); err != nil {
			return specErr(path+".const", "const %s does not fit the schema: %s", brief(c), err.(*Error).Detail)
		}
		n.constant = &c
	}
	if d, ok := v.Lookup("default"); ok {
		if err := n.check(d, &vpath{key: path + ".default", index: -1}); err != nil {
			return specErr(path+".default", "default %s does not fit the schema: %s", brief(d), err.(*Error).Detail)
		}
	}
	for _, a := range []struct {
		name string
		max  int
	}{{"description", MaxDescription}, {"title", MaxTitle}} {
		if t, ok := v.Lookup(a.name); ok {
			s, isStr := t.Str()
			if !isStr {
				return specErr(path+"."+a.name, "%s is %s, want a string", a.name, brief(t))
			}
			if c := utf8.RuneCountInString(s); c > a.max {
				return specErr(path+"."+a.name, "%s is %d code points, over the limit of %d", a.name, c, a.max)
			}
		}
	}
	if ex, ok := v.Lookup("examples"); ok && ex.Kind() != Array {
		return specErr(path+".examples", "examples is %s, want an array", brief(ex))
	}
	if f, ok := v.Lookup("format"); ok && f.Kind() != String {
		return specErr(path+".format", "format is %s, want a string (an annotation: it constrains nothing)", brief(f))
	}
	if s, ok := v.Lookup("$schema"); ok {
		str, _ := s.Str()
		if !containsString(schemaDialects, str) {
			return specErr(path+pathKey("$schema"), "$schema is %s, want %s (2020-12) or %s (draft-07)", brief(s), schemaDialects[0], schemaDialects[1])
		}
	}
	return nil
}

// describeType names what the node takes, for a message.
func (n *schemaNode) describeType() string {
	if n.nullable {
		return typeArticles[n.typ] + " or null"
	}
	return typeArticles[n.typ]
}

// equalValues compares two values as results compare (conformance/SPEC.md §8.3): by
// kind and value, numbers by exact value and by whether each is an integer
// literal, strings by code points, objects as unordered sets of members,
// arrays in order.
func equalValues(a, b Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case Null:
		return true
	case Bool:
		x, _ := a.Bool()
		y, _ := b.Bool()
		return x == y
	case Number:
		return a.isInteger() == b.isInteger() && cmpDecimal(parseDecimal(a.text()), parseDecimal(b.text())) == 0
	case String:
		return a.text() == b.text()
	case Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !equalValues(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case Object:
		if a.Len() != b.Len() {
			return false
		}
		for k, x := range a.members() {
			y, ok := b.Lookup(k.text())
			if !ok || !equalValues(x, y) {
				return false
			}
		}
		return true
	}
	return false
}

// appendValueKey appends to b a key of v that two values share exactly
// when [equalValues] finds them equal: the kind, then a number's
// integer-ness and exact value (sign, digits without leading or trailing
// zeros, exponent), a string's length and text, an array's elements in
// order, an object's members sorted by key. Every part says its length or
// ends in a byte it cannot hold, so no two values' keys run together.
func appendValueKey(b []byte, v Value) []byte {
	switch v.Kind() {
	case Null:
		return append(b, 'z')
	case Bool:
		if x, _ := v.Bool(); x {
			return append(b, 't')
		}
		return append(b, 'f')
	case Number:
		d := parseDecimal(v.text())
		b = append(b, 'n')
		if v.isInteger() {
			b = append(b, 'i')
		}
		if d.neg {
			b = append(b, '-')
		}
		b = append(append(b, d.digits...), 'e')
		return append(d.exp.Append(b, 10), ';')
	case String:
		t := v.text()
		b = strconv.AppendInt(append(b, 's'), int64(len(t)), 10)
		return append(append(b, ':'), t...)
	case Array:
		b = strconv.AppendInt(append(b, 'a'), int64(v.Len()), 10)
		b = append(b, ':')
		for i := range v.Len() {
			b = appendValueKey(b, v.Index(i))
		}
		return b
	case Object:
		type member struct {
			key string
			val Value
		}
		var ms []member
		for k, x := range v.members() {
			ms = append(ms, member{k.text(), x})
		}
		slices.SortFunc(ms, func(x, y member) int { return strings.Compare(x.key, y.key) })
		b = strconv.AppendInt(append(b, 'o'), int64(len(ms)), 10)
		b = append(b, ':')
		for _, m := range ms {
			b = strconv.AppendInt(b, int64(len(m.key)), 10)
			b = append(append(append(b, ':'), m.key...), '=')
			b = appendValueKey(b, m.val)
		}
		return b
	}
	return append(b, '?')
}

// listValues renders values for a message, cut after a few.
func listValues(vals []Value) string {
	var parts []string
	for i, v := range vals {
		if i == 8 {
			parts = append(parts, "... ("+strconv.Itoa(len(vals))+" in all)")
			break
		}
		parts = append(parts, brief(v))
	}
	return strings.Join(parts, ", ")
}
