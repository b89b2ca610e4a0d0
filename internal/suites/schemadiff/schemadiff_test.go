// Package schemadiff checks format 2's validate_arguments against software
// we did not write: an independent JSON Schema 2020-12 validator
// (github.com/santhosh-tekuri/jsonschema/v6), over generated schemas of the
// subset and generated arguments, and over the real servers' schemas. The
// two must agree on every call, but for the divergences conformance/SPEC.md §12.5 lists,
// which the generators do not produce and TestListedDivergences shows one
// by one. It has no API; its tests are the package.
package schemadiff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/conformance"
)

// ours returns format 2's verdict on args for a tool with the schema.
func ours(t *testing.T, schema, args string) (bool, error) {
	t.Helper()
	cat := `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"","inputSchema":` + schema + `}]}`
	c, err := catalog.Parse([]byte(cat))
	if err != nil {
		return false, fmt.Errorf("the catalog is refused: %v", err)
	}
	v, err := catalog.ParseJSON([]byte(args))
	if err != nil {
		t.Fatalf("arguments %s: %v", args, err)
	}
	_, err = c.ValidateArguments("t", v)
	return err == nil, nil
}

// theirs returns the independent validator's verdict.
func theirs(t *testing.T, schema, args string) bool {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		t.Fatalf("the independent validator refuses schema %s: %v", schema, err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(inst) == nil
}

// gen generates schemas of the subset and arguments for them. Numbers are
// written canonically (an integer with no fraction or exponent, a fraction
// with a non-zero last digit), so that the kind rules of §12.5 never apply.
type gen struct{ r *rand.Rand }

func (g gen) pick(n int) int { return g.r.IntN(n) }

var words = []string{"", "a", "é", "😀", "ab", "abc", "naïve", "𝄞𝄞", "xyzzy", "null", "1"}

// number returns a canonical number literal, an integer when integer.
func (g gen) number(integer bool) string {
	n := g.pick(11) - 5
	if integer || g.pick(2) == 0 {
		return strconv.Itoa(n)
	}
	return strconv.Itoa(n) + "." + strconv.Itoa(1+g.pick(9))
}

// schema returns a schema of the subset, depth levels deep at most, and
// whether it is an object schema.
func (g gen) schema(depth int) string {
	types := []string{"string", "integer", "number", "boolean", "array", "object"}
	if depth <= 1 {
		types = types[:4]
	}
	typ := types[g.pick(len(types))]
	var kw []string
	switch typ {
	case "string":
		if g.pick(3) == 0 {
			kw = append(kw, `"enum":[`+strconv.Quote(words[g.pick(len(words))])+`,`+strconv.Quote(words[1+g.pick(len(words)-1)]+"x")+`]`)
		} else {
			lo := g.pick(3)
			if g.pick(2) == 0 {
				kw = append(kw, `"minLength":`+strconv.Itoa(lo))
			}
			if g.pick(2) == 0 {
				kw = append(kw, `"maxLength":`+strconv.Itoa(lo+g.pick(4)))
			}
		}
	case "integer", "number":
		if g.pick(4) == 0 {
			kw = append(kw, `"enum":[`+g.number(typ == "integer")+`,`+strconv.Itoa(7+g.pick(3))+`]`)
			break
		}
		lo := g.pick(11) - 5
		for i, b := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"} {
			if g.pick(3) != 0 {
				continue
			}
			v := lo
			if i >= 2 {
				v = lo + 2 + g.pick(4)
			}
			lit := strconv.Itoa(v)
			if typ == "number" && g.pick(2) == 0 {
				lit += ".5"
			}
			kw = append(kw, strconv.Quote(b)+":"+lit)
		}
	case "boolean":
		if g.pick(4) == 0 {
			kw = append(kw, `"const":true`)
		}
	case "array":
		kw = append(kw, `"items":`+g.schema(depth-1))
		lo := g.pick(3)
		if g.pick(2) == 0 {
			kw = append(kw, `"minItems":`+strconv.Itoa(lo))
		}
		if g.pick(2) == 0 {
			kw = append(kw, `"maxItems":`+strconv.Itoa(lo+g.pick(3)))
		}
	case "object":
		return g.object(depth - 1)
	}
	body := strings.Join(append([]string{`"type":"` + typ + `"`}, kw...), ",")
	switch g.pick(6) {
	case 0:
		body = strings.Replace(body, `"type":"`+typ+`"`, `"type":["`+typ+`","null"]`, 1)
	case 1:
		return `{"anyOf":[{` + body + `},{"type":"null"}],"description":"nullable"}`
	}
	return "{" + body + "}"
}

// object returns an object schema whose properties are depth deep at most.
func (g gen) object(depth int) string {
	n := g.pick(4)
	var props, req []string
	for i := range n {
		name := fmt.Sprintf("p%d", i)
		props = append(props, strconv.Quote(name)+":"+g.schema(depth))
		if g.pick(2) == 0 {
			req = append(req, strconv.Quote(name))
		}
	}
	s := `{"type":"object","properties":{` + strings.Join(props, ",") + `}`
	if len(req) > 0 {
		s += `,"required":[` + strings.Join(req, ",") + `]`
	}
	return s + `,"additionalProperties":false}`
}

// value returns a JSON value, often of the kind the schema wants, often not.
func (g gen) value(depth int) string {
	switch g.pick(8) {
	case 0:
		return "null"
	case 1:
		return []string{"true", "false"}[g.pick(2)]
	case 2, 3:
		return g.number(g.pick(2) == 0)
	case 4, 5:
		return strconv.Quote(words[g.pick(len(words))] + words[g.pick(len(words))])
	case 6:
		if depth > 0 {
			var items []string
			for range g.pick(4) {
				items = append(items, g.value(depth-1))
			}
			return "[" + strings.Join(items, ",") + "]"
		}
		return "[]"
	}
	if depth <= 0 {
		return "{}"
	}
	return g.objectValue(depth - 1)
}

// objectValue returns an object whose keys are mostly the generated
// properties' names, sometimes another.
func (g gen) objectValue(depth int) string {
	return g.objectOf(depth, []string{"p0", "p1", "p2", "p3", "p4"})
}

// objectOf returns an object whose keys are mostly among names.
func (g gen) objectOf(depth int, names []string) string {
	var members []string
	for range g.pick(len(names) + 1) {
		name := names[g.pick(len(names))]
		if g.pick(8) == 0 {
			name = "q"
		}
		members = append(members, strconv.Quote(name)+":"+g.value(depth))
	}
	// Keys are unique: drop a repeated one.
	seen := map[string]bool{}
	var out []string
	for _, m := range members {
		k, _, _ := strings.Cut(m, ":")
		if !seen[k] {
			seen[k] = true
			out = append(out, m)
		}
	}
	return "{" + strings.Join(out, ",") + "}"
}

// TestDifferential: generated schemas and arguments, both verdicts, zero
// disagreements.
func TestDifferential(t *testing.T) {
	schemas, calls := 2000, 20
	if testing.Short() {
		schemas = 200
	}
	g := gen{rand.New(rand.NewPCG(1, 2))}
	valid, checked, disagree := 0, 0, 0
	for range schemas {
		schema := g.object(3)
		for range calls {
			args := g.objectValue(3)
			got, err := ours(t, schema, args)
			if err != nil {
				t.Fatalf("schema %s: %v", schema, err)
			}
			want := theirs(t, schema, args)
			checked++
			if got {
				valid++
			}
			if got != want {
				disagree++
				if disagree <= 10 {
					t.Errorf("disagreement: ours %v, theirs %v\nschema %s\narguments %s", got, want, schema, args)
				}
			}
		}
	}
	t.Logf("%d calls on %d generated schemas, %d valid shapes: %d disagreements", checked, schemas, valid, disagree)
	if valid < checked/20 || valid == checked {
		t.Errorf("%d valid of %d: the generator does not reach both verdicts often enough", valid, checked)
	}
}

// TestRealSchemas: the schemas of the real servers' tools that import
// exactly, and arguments generated for them, checked both ways.
func TestRealSchemas(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "mcpimport", "testdata", "servers", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no servers (%v)", err)
	}
	g := gen{rand.New(rand.NewPCG(3, 4))}
	tools, checked, validTotal := 0, 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		list, err := catalog.ParseJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		all, _ := list.Lookup("tools")
		for i := range all.Len() {
			schema, _ := all.Index(i).Lookup("inputSchema")
			text := schema.String()
			if _, err := ours(t, text, "{}"); err != nil {
				continue // not in the subset as the server writes it (the import report says what it changes)
			}
			tools++
			props, _ := schema.Lookup("properties")
			names := []string{"q"}
			for j := range props.Len() {
				names = append(names, props.Key(j))
			}
			valid := 0
			for range 200 {
				args := g.objectOf(2, names)
				got, _ := ours(t, text, args)
				if want := theirs(t, text, args); got != want {
					t.Errorf("%s: disagreement: ours %v, theirs %v\nschema %s\narguments %s", filepath.Base(f), got, want, text, args)
				}
				checked++
				if got {
					valid++
				}
			}
			validTotal += valid
		}
	}
	t.Logf("%d calls on the %d real schemas in the subset as written, %d valid shapes: no disagreement", checked, tools, validTotal)
}

// TestListedDivergences shows each divergence of conformance/SPEC.md §12.5, and that it
// is the only difference on its call.
func TestListedDivergences(t *testing.T) {
	tests := []struct {
		schema, args string
		why          string
	}{
		{`{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false}`, `{"n":1.0}`, "1.0 is not an integer literal"},
		{`{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false}`, `{"n":1e2}`, "nor is 1e2"},
		{`{"type":"object","properties":{"n":{"type":"number","enum":[1,2.5]}},"additionalProperties":false}`, `{"n":1.0}`, "enum compares by kind: 1.0 is not 1"},
	}
	for _, tt := range tests {
		got, err := ours(t, tt.schema, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		if want := theirs(t, tt.schema, tt.args); got || !want {
			t.Errorf("%s: ours %v, JSON Schema %v; want refused here, accepted there", tt.why, got, want)
		}
		canonical := strings.NewReplacer("1.0", "1", "1e2", "100").Replace(tt.args)
		if got, _ := ours(t, tt.schema, canonical); !got || !theirs(t, tt.schema, canonical) {
			t.Errorf("%s: %s, written canonically, is not accepted by both", tt.why, canonical)
		}
	}
}

// TestFormat2Level: every check of the conformance suite's format 2 level
// that validates arguments against a valid catalog, checked with the
// independent validator. Its verdict must be the level's expectation,
// written by hand, but on the checks below, where the two differ as §12.5
// says, or where the number is past what the validator can hold.
func TestFormat2Level(t *testing.T) {
	diverge := map[string]string{
		"format2.validate.types: 1.0 is not an integer":                                             "§12.5: an integer is an integer literal",
		"format2.validate.types: 1e2 is not an integer":                                             "§12.5: an integer is an integer literal",
		"format2.validate.types: 1E0 is not an integer":                                             "§12.5: an integer is an integer literal",
		"format2.validate.enum: 1.0 is not the integer 1":                                           "§12.5: enum compares numbers by kind",
		"format2.validate.enum: 1 is not 1.0":                                                       "§12.5: enum compares numbers by kind",
		"format2.validate.numbers: an exponent of a billion over a maximum":                         "the validator's big.Rat would need 10^1000000000",
		"format2.validate.numbers: an integer with an exponent of a billion and a number beside it": "the validator's big.Rat would need 10^1000000000",
	}
	cases, err := conformance.Format2Cases()
	if err != nil {
		t.Fatal(err)
	}
	compared, seen := 0, map[string]bool{}
	for _, c := range cases {
		for i, chk := range c.Checks {
			key := c.ID + ": " + chk.Note
			call, err := catalog.ParseJSON(chk.Call())
			if err != nil {
				t.Fatal(err)
			}
			expect, err := catalog.ParseJSON(chk.Expect())
			if err != nil {
				t.Fatal(err)
			}
			op, _ := call.Lookup("op")
			code, isErr := expect.Lookup("error")
			codeText, _ := code.Str()
			if s, _ := op.Str(); s != "validate_arguments" || isErr && !strings.HasPrefix(codeText, "INVALID_ARGUMENT_") {
				continue // a check of the catalog or the name
			}
			cat, _ := call.Lookup("catalog")
			name, _ := call.Lookup("name")
			args, _ := call.Lookup("arguments")
			tools, _ := cat.Lookup("tools")
			var schema string
			for j := range tools.Len() {
				if n, _ := tools.Index(j).Lookup("name"); n.String() == name.String() {
					s, _ := tools.Index(j).Lookup("inputSchema")
					schema = s.String()
				}
			}
			if why, listed := diverge[key]; listed {
				seen[key] = true
				if strings.Contains(why, "10^") {
					continue
				}
				if theirs(t, schema, args.String()) == !isErr {
					t.Errorf("%s (check %d): listed as a divergence (%s), but the validator agrees", key, i, why)
				}
				continue
			}
			compared++
			if got := theirs(t, schema, args.String()); got != !isErr {
				t.Errorf("%s (check %d): the level expects %s, the independent validator says valid=%v\nschema %s\narguments %s", key, i, chk.Expect(), got, schema, args)
			}
		}
	}
	for key := range diverge {
		if !seen[key] {
			t.Errorf("%q is listed as a divergence but is no check of the level", key)
		}
	}
	if compared < 100 {
		t.Errorf("only %d checks compared", compared)
	}
	t.Logf("%d checks of the format 2 level agree with the independent validator; %d listed divergences", compared, len(diverge))
}
