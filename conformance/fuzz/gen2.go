package fuzz

import "strings"

// Format 2 (conformance/SPEC.md §12): three turns in cornerEvery draw a call
// on a catalog of format 2 instead of format 1, with schemas of the subset
// nested a few levels, near-misses of the subset, and arguments that mostly
// fit. The other turns draw what they drew before format 2 existed.
const (
	format2TurnA = 5
	format2TurnB = 9
	format2TurnC = 14
)

func isFormat2Turn(turn uint64) bool {
	return turn == format2TurnA || turn == format2TurnB || turn == format2TurnC
}

// A schema2 is the model of a schema drawn for format 2: what the
// arguments are drawn from.
type schema2 struct {
	typ            string // string, integer, number, boolean, array, object
	nullable       bool
	enum           []*node
	minLen, maxLen int // -1: none
	bounds         []string
	items          *schema2
	props          []prop2
	constant       *node // const, nil for none
	objectEnum     bool  // an object schema whose enum is two objects, members in two orders
}

type prop2 struct {
	name     string
	schema   *schema2
	required bool
}

var (
	toolPool2 = []string{"readFile", "read_text_file", "t", "fetch", "write-file.v2", "A", "searchCode", "browser_navigate", "constructor", "toString"}
	propPool2 = []string{"path", "query", "limit", "head", "url", "a.b", "_id", "filePath", "x-y", "__proto__", "constructor", "n"}
	// Bounds and the numbers near them, written as the grammar allows:
	// what a float would get wrong is what the exact comparison keeps.
	boundPool2 = []string{"0", "1", "-1", "1.5", "0.3", "100", "1e400", "-1e400", "9007199254740992", "1e-400",
		"1234567890123456789012345678901234567890", "2.50", "1E+2"}
	numberPool2 = []string{"0", "-0", "1", "-1", "1.0", "1e2", "1.5", "15e-1", "0.30000000000000001", "9007199254740993",
		"1e401", "9e399", "-1e-400", "2e-400", "100", "100.0", "1234567890123456789012345678901234567891", "7", "2"}
	badToolNames2 = []string{"1tool", "_tool", "read file", "files/read", "é", "", strings.Repeat("n", 129)}
)

// call2 draws a discover or validate_arguments call on a format-2 catalog;
// probe, if not negative, makes it that probe of probes2.
func (g *gen) call2Probe(probe int) *node {
	if probe >= 0 {
		p := probes2[probe%len(probes2)]
		g.drew("format 2 probe " + p.name)
		return p.call(g)
	}
	return g.call2()
}

// call2 draws a discover or validate_arguments call on a format-2 catalog.
func (g *gen) call2() *node {
	g.drew("format 2")
	tools, names, schemas := g.catalog2()
	pick := func() string {
		if len(names) == 0 || g.p(0.04) {
			return oneOf(g, toolPool2...)
		}
		return names[g.n(len(names))]
	}
	var call *node
	if g.p(0.35) {
		call = object().set("op", str("discover")).set("catalog", tools)
		switch x := g.n(10); {
		case x < 6:
			call.set("family", str(oneOf(g, "f", "g")))
		case x < 9:
			call.set("family", str("all"))
		default:
			call.set("family", str(oneOf(g, "spare", "F")))
		}
		if g.p(0.5) {
			call.set("name", str(pick()))
		}
	} else {
		name := pick()
		var args *node
		if s := schemas[name]; s != nil {
			args = g.value2(s, g.p(0.6), 1)
		} else {
			args = object()
		}
		if g.p(0.03) {
			args = oneOf(g, array(), null(), str("{}"))
		}
		call = object().set("op", str("validate_arguments")).set("catalog", tools).set("name", str(name)).set("arguments", args)
	}
	if g.p(0.08) {
		call = object().set("op", str("mutate_and_repeat")).set("call", call)
	}
	if g.p(0.03) {
		g.textMutation(call)
	}
	return call
}

// catalog2 draws a format-2 catalog: its JSON, its tools' names, and the
// model of each tool's input schema.
func (g *gen) catalog2() (*node, []string, map[string]*schema2) {
	tools := array()
	var names []string
	schemas := map[string]*schema2{}
	count := 1 + g.n(3)
	if g.p(0.05) {
		count = 0
	}
	// At most one near-miss a catalog, so that it is the one the call
	// meets: half of them in an input schema.
	miss, missTool := -1, g.n(max(count, 1))
	if g.p(0.3) {
		miss = g.n(14)
	}
	// Rarely a second, elsewhere: which of two errors wins.
	miss2, miss2Tool := -1, g.n(max(count, 1))
	if miss >= 0 && g.p(0.15) {
		miss2 = g.n(14)
	}
	used := map[string]bool{}
	for i := range count {
		here := func(kind int) bool { return i == missTool && miss == kind || i == miss2Tool && miss2 == kind }
		name := oneOf(g, toolPool2...)
		for used[name] {
			name = oneOf(g, toolPool2...)
		}
		if here(0) && len(names) > 0 {
			name = names[g.n(len(names))]
			g.drew("format 2 duplicate tool")
		}
		used[name] = true
		if here(1) {
			name = oneOf(g, badToolNames2...)
			g.drew("format 2 bad tool name")
		}
		s := g.schema2(1, "object")
		schema := g.schemaNode2(s, 1)
		if miss >= 7 && i == missTool || miss2 >= 7 && i == miss2Tool {
			g.schemaMiss2(schema)
		}
		t := object().set("name", str(name)).set("family", str(oneOf(g, "f", "f", "g"))).
			set("effect", str(oneOf(g, "read", "change"))).set("enabled", boolean(g.p(0.92)))
		if g.p(0.3) || here(2) {
			n := g.n(4)
			if g.p(0.1) || here(2) {
				n = 256
				if here(2) {
					n = 257
				}
				g.drew("format 2 title at the limit")
			}
			t.set("title", g.text(n))
		}
		n := g.n(6)
		if g.p(0.01) {
			n = 8192
		}
		if here(3) {
			n = 8193
		}
		t.set("description", g.text(n))
		t.set("inputSchema", schema)
		if g.p(0.3) || here(4) {
			ann := object().set(oneOf(g, "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"), boolean(g.p(0.5)))
			if here(4) {
				ann.set(oneOf(g, "title", "readonlyHint"), boolean(true))
			}
			t.set("annotations", ann)
		}
		if g.p(0.25) || here(4) && g.p(0.5) {
			origin := object().set("server", g.text(1+g.n(4))).set("tool", str(name))
			if here(4) {
				g.drew("format 2 bad origin")
				switch g.n(3) {
				case 0:
					origin.set("server", str(""))
				case 1:
					remove(origin, oneOf(g, "server", "tool"))
				default:
					origin.set("version", str("1"))
				}
			}
			if g.p(0.3) {
				g.shuffleMembers(origin)
			}
			t.set("origin", origin)
		}
		if here(5) {
			g.drew("format 2 tool members")
			if g.p(0.5) {
				remove(t, oneOf(g, "description", "inputSchema", "enabled"))
			} else {
				t.set(oneOf(g, "fields", "outputSchema", "Title"), object())
			}
		}
		if g.p(0.15) {
			g.shuffleMembers(t)
		}
		tools.items = append(tools.items, t)
		names = append(names, name)
		schemas[name] = s
	}
	cat := object().set("format", str("catalogkit/2"))
	catalogMiss := miss == 6 || miss2 == 6 || count == 0 && miss >= 0
	if catalogMiss {
		g.drew("format 2 catalog miss")
	}
	if g.p(0.3) || catalogMiss && g.p(0.5) {
		fams := object().set("f", object().set("description", g.text(g.n(5))))
		if g.p(0.3) {
			fams.set("spare", object().set("description", str(""))) // described, and no tool has it
		}
		if catalogMiss {
			switch g.n(3) {
			case 0:
				fams.set(oneOf(g, "F", "a b"), object().set("description", str("")))
			case 1:
				fams.set("h", oneOf(g, str("h"), object(), object().set("description", number("1"))))
			default:
				fams = array()
			}
		}
		cat.set("families", fams)
	} else if catalogMiss {
		switch g.n(3) {
		case 0:
			cat.set(oneOf(g, "version", "Format"), number("2"))
		case 1:
			replace(cat, "format", str(oneOf(g, "catalogkit/1", "catalogkit/3", "Catalogkit/2")))
		default:
			tools = object()
		}
	}
	cat.set("tools", tools)
	if g.p(0.15) {
		g.shuffleMembers(cat)
	}
	return cat, names, schemas
}

// schema2 draws the model of a schema depth levels deep; typ, if not "",
// is its type.
func (g *gen) schema2(depth int, typ string) *schema2 {
	if typ == "" {
		typ = oneOf(g, "string", "string", "integer", "number", "boolean", "array", "object")
		if depth >= 4 && (typ == "array" || typ == "object") {
			typ = "string"
		}
	}
	s := &schema2{typ: typ, minLen: -1, maxLen: -1, nullable: depth > 1 && g.p(0.2)}
	switch typ {
	case "string":
		if g.p(0.4) {
			s.maxLen = g.n(6)
		}
		if g.p(0.2) {
			s.minLen = g.n(3)
			if s.maxLen >= 0 && s.minLen > s.maxLen {
				s.minLen = s.maxLen
			}
		}
	case "integer", "number":
		if g.p(0.6) {
			s.bounds = []string{oneOf(g, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"), oneOf(g, boundPool2...)}
			if g.p(0.25) {
				// Equal lower and upper bounds: one value fits, or none.
				lo, hi := oneOf(g, "minimum", "exclusiveMinimum"), oneOf(g, "maximum", "exclusiveMaximum")
				b := s.bounds[1]
				s.bounds = []string{lo, b, hi, b}
			}
		}
	case "array":
		items := ""
		if depth < 4 && g.p(0.5) {
			items = "object"
		}
		s.items = g.schema2(depth+1, items)
		if g.p(0.5) {
			s.maxLen = 1 + g.n(3) // maxItems
		}
		if g.p(0.2) {
			s.minLen = g.n(2) // minItems
		}
	case "object":
		used := map[string]bool{}
		for range g.n(4) + min(depth, 2) - 1 {
			name := oneOf(g, propPool2...)
			if used[name] {
				continue
			}
			used[name] = true
			s.props = append(s.props, prop2{name: name, schema: g.schema2(depth+1, ""), required: g.p(0.4)})
		}
		if depth == 1 && g.p(0.3) {
			// A nested object beside the others: where a value's error and
			// a key's can both be, in two properties.
			s.props = append(s.props, prop2{name: "opts", schema: g.schema2(depth+1, "object")})
		}
		if depth > 1 && g.p(0.08) {
			// An enum of objects: {"x": 1, "y": 2} and, as often as not,
			// the same object with its members in the other order.
			s.props = []prop2{{name: "x", schema: &schema2{typ: "integer", minLen: -1, maxLen: -1}}, {name: "y", schema: &schema2{typ: "integer", minLen: -1, maxLen: -1}}}
			s.objectEnum = true
		}
	}
	if typ != "object" && typ != "array" && len(s.bounds) == 0 && g.p(0.1) {
		s.constant = g.scalar2(s, true)
	} else if typ != "object" && typ != "array" && len(s.bounds) == 0 && (g.p(0.15) || (s.nullable || typ == "number") && g.p(0.3)) {
		seen := map[string]bool{}
		for range 1 + g.n(3) {
			v := g.scalar2(s, true)
			if text := v.String(); !seen[text] {
				seen[text] = true
				s.enum = append(s.enum, v)
			}
		}
	}
	return s
}

// schemaNode2 writes the model as JSON, in one of the forms the subset
// allows.
func (g *gen) schemaNode2(s *schema2, depth int) *node {
	n := object()
	typ := str(s.typ)
	anyOf := false
	if s.nullable {
		if g.p(0.5) {
			typ = array(str(s.typ), str("null"))
			if g.p(0.5) {
				typ = array(str("null"), str(s.typ))
			}
		} else {
			anyOf = true
		}
	}
	n.set("type", typ)
	switch s.typ {
	case "string":
		if s.minLen >= 0 {
			n.set("minLength", number(itoa(s.minLen)))
		}
		if s.maxLen >= 0 {
			n.set("maxLength", number(itoa(s.maxLen)))
		}
	case "integer", "number":
		for i := 0; i+1 < len(s.bounds); i += 2 {
			n.set(s.bounds[i], number(s.bounds[i+1]))
		}
	case "array":
		n.set("items", g.schemaNode2(s.items, depth+1))
		if s.minLen >= 0 {
			n.set("minItems", number(itoa(s.minLen)))
		}
		if s.maxLen >= 0 {
			n.set("maxItems", number(itoa(s.maxLen)))
		}
	case "object":
		props := object()
		var req []*node
		for _, p := range s.props {
			props.set(p.name, g.schemaNode2(p.schema, depth+1))
			if p.required {
				req = append(req, str(p.name))
			}
		}
		if len(s.props) > 0 || g.p(0.5) {
			n.set("properties", props)
		}
		if len(req) > 0 {
			n.set("required", array(req...))
		}
		n.set("additionalProperties", boolean(false))
	}
	if s.objectEnum {
		a := object().set("x", number("1")).set("y", number("2"))
		b := object().set("y", number("2")).set("x", number("1"))
		if g.p(0.5) {
			b = object().set("x", number("2")).set("y", number("1"))
		}
		n.set("enum", array(a, b))
	}
	if len(s.enum) > 0 {
		n.set("enum", array(s.enum...))
	}
	if s.constant != nil {
		n.set("const", s.constant)
	}
	if g.p(0.2) {
		n.set("description", g.text(g.n(5)))
	}
	if g.p(0.08) && s.typ != "object" && s.typ != "array" {
		if len(s.enum) > 0 && g.p(0.8) {
			n.set("default", s.enum[g.n(len(s.enum))].clone())
		} else {
			n.set("default", g.scalar2(s, g.p(0.9)))
		}
	}
	if g.p(0.2) {
		g.shuffleMembers(n)
	}
	if anyOf {
		branches := array(n, object().set("type", str("null")))
		if g.p(0.5) {
			branches.items[0], branches.items[1] = branches.items[1], branches.items[0]
		}
		n = object().set("anyOf", branches)
	}
	return n
}

// put sets the member key of obj to v: in its place if obj has it, else
// at the end.
func put(obj *node, key string, v *node) {
	if obj.get(key) != nil {
		replace(obj, key, v)
		return
	}
	obj.set(key, v)
}

// schemaMiss2 breaks the subset in the input schema: a keyword outside it,
// one that does not apply, a missing additionalProperties, crossed bounds,
// nesting one level too deep, a nullable root.
func (g *gen) schemaMiss2(schema *node) {
	target := schema
	if props := schema.get("properties"); props != nil && len(props.vals) > 0 && g.p(0.6) {
		target = props.vals[g.n(len(props.vals))]
		if inner := target.get("anyOf"); inner != nil {
			target = inner.items[g.n(2)]
		}
	}
	miss := g.n(14)
	g.drew("format 2 schema miss " + itoa(miss))
	switch miss {
	case 0:
		put(target, oneOf(g, "pattern", "$ref", "oneOf", "nullable", "x-order", "MaxLength"), str("x"))
	case 1:
		remove(target, "additionalProperties")
		put(target, "type", str("object"))
	case 2:
		put(target, oneOf(g, "minLength", "maximum", "items", "required"), number("1"))
	case 3:
		put(target, "minimum", number("5"))
		put(target, "maximum", number(oneOf(g, "4", "5", "4.99999999999999999999")))
		put(target, "type", str("number"))
		remove(target, "enum")
		remove(target, "default")
	case 4:
		deep := object().set("type", str("string"))
		for range 9 + g.n(2) {
			deep = object().set("type", str("array")).set("items", deep)
		}
		put(schema, "properties", object().set("d", deep))
		remove(schema, "required")
	case 5:
		put(schema, "type", array(str("object"), str("null")))
	case 6:
		put(target, "enum", array(str("a"), str("a")))
		put(target, "type", str("string"))
		remove(target, "default")
	case 7:
		put(target, "type", oneOf(g, str("null"), array(str("string"), str("integer")), str("any"), array(str("string"))))
	case 8:
		put(target, "maxLength", number(oneOf(g, "1.0", "-1", "33554433", "33554432")))
		put(target, "type", str("string"))
		remove(target, "enum")
		remove(target, "default")
	case 9:
		put(target, "$schema", str(oneOf(g, "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-04/schema#")))
	case 10:
		put(schema, "properties", object().set(oneOf(g, "1a", "a b", "", "café", strings.Repeat("p", 65), strings.Repeat("p", 64)), object().set("type", str("string"))))
		remove(schema, "required")
	case 11:
		// Ten levels, the limit, through nullable anyOfs; rarely eleven.
		deep := object().set("type", str("string"))
		for range 8 + g.n(2) {
			deep = object().set("anyOf", array(object().set("type", str("array")).set("items", deep), object().set("type", str("null"))))
		}
		put(schema, "properties", object().set("d", deep))
		remove(schema, "required")
	case 12:
		put(target, "enum", array(oneOf(g, str("a"), number("1"), null(), boolean(true)), oneOf(g, number("1.0"), str("b"), object())))
		remove(target, "default")
		remove(target, "const")
	case 13:
		put(schema, oneOf(g, "$schema", "type"), oneOf(g, str("http://json-schema.org/draft-07/schema#"), array(str("null"), str("object"))))
	}
}

// scalar2 draws a string, number or boolean for the schema: mostly one of
// its type (fits), else a near-miss.
func (g *gen) scalar2(s *schema2, fits bool) *node {
	if !fits && (g.p(0.3) || s.typ == "boolean") {
		return g.wrongType(s.typ)
	}
	switch s.typ {
	case "string":
		switch {
		case !fits && s.maxLen >= 0:
			return g.text(s.maxLen + 1 + g.n(2))
		case !fits && s.minLen > 0:
			return g.text(s.minLen - 1)
		case !fits:
			return g.wrongType("string")
		}
		n := g.n(5)
		if fits && s.maxLen >= 0 && n > s.maxLen {
			n = s.maxLen
		}
		if fits && n < s.minLen {
			n = s.minLen
		}
		return g.text(n)
	case "integer", "number":
		lit := oneOf(g, numberPool2...)
		if len(s.bounds) >= 2 && g.p(0.5) {
			lit = s.bounds[1]
			if g.p(0.6) {
				lit = hair(lit, g.p(0.5))
			}
		}
		switch {
		case s.typ == "integer" && fits && strings.ContainsAny(lit, ".eE"):
			lit = oneOf(g, "0", "7", "-1", "9007199254740993")
		case s.typ == "integer" && !fits && len(s.bounds) == 0:
			lit = oneOf(g, "1.0", "1e2", "-0.0", "1E0")
		}
		return number(lit)
	}
	return boolean(g.p(0.5))
}

// value2 draws a value for the schema: one that mostly fits when fits,
// else a near-miss (null, another type, a value off its enum or bounds, an
// unknown key, a missing required property).
func (g *gen) value2(s *schema2, fits bool, depth int) *node {
	if s.nullable && (g.p(0.1) || len(s.enum) > 0 && g.p(0.3)) || !fits && depth > 1 && g.p(0.05) {
		return null()
	}
	if s.constant != nil && (fits || g.p(0.5)) {
		if fits {
			return s.constant.clone()
		}
		return g.scalar2(s, true)
	}
	if len(s.enum) > 0 && (fits || g.p(0.5)) {
		v := s.enum[g.n(len(s.enum))].clone()
		if !fits && v.kind == kNumber {
			// The same value written as the other kind: 1 and 1.0.
			if strings.ContainsAny(v.lit, ".eE") {
				if d := integral(v.lit); d != "" {
					v = number(d)
				}
			} else {
				v = number(v.lit + ".0")
			}
		}
		return v
	}
	switch s.typ {
	case "array":
		if !fits && g.p(0.2) {
			return g.wrongType("array")
		}
		n := g.n(3)
		if s.maxLen >= 0 && fits && n > s.maxLen {
			n = s.maxLen
		}
		if s.minLen > n && fits {
			n = s.minLen
		}
		if !fits && s.maxLen >= 0 && g.p(0.5) {
			n = s.maxLen + 1 // too many, and an element may be wrong too
		}
		a := array()
		for range n {
			a.items = append(a.items, g.value2(s.items, fits || g.p(0.5), depth+1))
		}
		return a
	case "object":
		if !fits && depth > 1 && g.p(0.2) {
			return g.wrongType("object")
		}
		// One near-miss: a property's value, an unknown key, or a
		// required property left out; the rest fits.
		bad, bad2 := -1, -1
		if !fits {
			bad = g.n(len(s.props) + 2)
			if g.p(0.4) && len(s.props) > 1 {
				bad, bad2 = g.n(len(s.props)), g.n(len(s.props))
			}
		}
		if bad2 >= 0 && bad != bad2 && g.p(0.5) {
			// Two wrong values, written in the reverse of the schema's
			// order: the first in the schema's order decides.
			o := object()
			for i := len(s.props) - 1; i >= 0; i-- {
				p := s.props[i]
				switch {
				case (i == bad || i == bad2) && p.schema.typ == "object" && !p.schema.nullable:
					// An unknown key: INVALID_ARGUMENT_KEYS, beside the
					// other's INVALID_ARGUMENT_VALUE.
					o.set(p.name, object().set(oneOf(g, builtinKeys...), number("1")))
				case i == bad || i == bad2:
					o.set(p.name, g.wrongType(p.schema.typ))
				case p.required:
					o.set(p.name, g.value2(p.schema, true, depth+1))
				}
			}
			g.drew("format 2 two wrong values")
			return o
		}
		o := object()
		for i, p := range s.props {
			include := p.required || g.p(0.5)
			if bad == len(s.props)+1 && p.required {
				include = false
			}
			if i == bad || i == bad2 {
				include = true
			}
			if include {
				o.set(p.name, g.value2(p.schema, i != bad && i != bad2, depth+1))
			}
		}
		if bad == len(s.props) || bad == len(s.props)+1 && len(o.keys) == len(s.props) {
			key := oneOf(g, builtinKeys...)
			if g.p(0.3) {
				key = strings.ToUpper(oneOf(g, propPool2...))
			}
			if o.get(key) == nil {
				o.set(key, number("1"))
			}
		}
		if g.p(0.3) || bad2 >= 0 && g.p(0.7) {
			g.shuffleMembers(o)
		}
		return o
	}
	return g.scalar2(s, fits)
}
