package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
)

// bugTarget is the Go implementation with one deliberate bug, made by
// rewriting the call before it or the outcome after it.
type bugTarget struct {
	call    func(call *node) *node          // nil: unchanged
	outcome func(call, outcome *node) *node // nil: unchanged
}

func (b bugTarget) Info() PortInfo { return PortInfo{Name: "bug", Language: "Go", Version: "0"} }

func (b bugTarget) Call(call []byte) ([]byte, error) {
	c, err := parseJSON(call)
	if err != nil {
		return nil, err
	}
	if b.call != nil {
		c = b.call(c.clone())
	}
	out, err := GoTarget("bug").Call(c.appendJSON(nil))
	if err != nil || b.outcome == nil {
		return out, err
	}
	o, err := parseJSON(out)
	if err != nil {
		return nil, err
	}
	return b.outcome(c, o).appendJSON(nil), nil
}

func mustParse(s string) *node {
	n, err := parseJSON([]byte(s))
	if err != nil {
		panic(err)
	}
	return n
}

func opOf(call *node) string {
	op, _ := call.lookup("op")
	return op.str
}

func errorCode(outcome *node) string {
	e, _ := outcome.lookup("error")
	if e == nil {
		return ""
	}
	return e.str
}

// echo is the result of validate_arguments for the call, as if it passed.
func echo(call *node) *node {
	name, _ := call.lookup("name")
	args, _ := call.lookup("arguments")
	return mustParse(fmt.Sprintf(`{"result":{"name":%s,"arguments":%s,"shape_valid":true,"authorized":false,"executed":false}}`, name, args))
}

// enableAll marks every tool of the call's catalog enabled.
func enableAll(call *node) *node {
	cat, _ := call.lookup("catalog")
	if cat.kind == kArray {
		for _, tool := range cat.items {
			if e, ok := tool.lookup("enabled"); ok && e.kind == kBool {
				tool.set("enabled", &node{kind: kBool, lit: "true"})
			}
		}
	}
	return call
}

// sortProperties sorts the members of every object under a "properties" key,
// as an implementation that keeps fields in a hash map would.
func sortProperties(n *node) {
	switch n.kind {
	case kArray:
		for _, it := range n.items {
			sortProperties(it)
		}
	case kObject:
		for i, k := range n.keys {
			v := n.vals[i]
			if k == "properties" && v.kind == kObject {
				idx := make([]int, len(v.keys))
				for j := range idx {
					idx[j] = j
				}
				slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(v.keys[a], v.keys[b]) })
				keys, vals := make([]string, len(idx)), make([]*node, len(idx))
				for j, x := range idx {
					keys[j], vals[j] = v.keys[x], v.vals[x]
				}
				v.keys, v.vals = keys, vals
			}
			sortProperties(v)
		}
	}
}

// TestWrongImplementationsFail proves the suite catches bugs: each target
// below has one deliberate bug, and exactly the cases listed must FAIL (the
// others PASS).
func TestWrongImplementationsFail(t *testing.T) {
	cases := mustCases(t)
	tests := []struct {
		name     string
		target   bugTarget
		wantFail []string
		reason   string
	}{
		{
			name: "accepts unknown and missing keys",
			target: bugTarget{outcome: func(call, o *node) *node {
				if errorCode(o) == "INVALID_ARGUMENT_KEYS" {
					return echo(call)
				}
				return o
			}},
			wantFail: []string{"validate.keys.missing", "validate.keys.unknown"},
			reason:   "every INVALID_ARGUMENT_KEYS check turns into a shape-valid result",
		},
		{
			name: "lists disabled tools",
			target: bugTarget{call: func(c *node) *node {
				if opOf(c) == "discover" {
					return enableAll(c)
				}
				return c
			}},
			wantFail: []string{"discover.all.excludes-disabled", "discover.family.filters", "discover.name.disabled"},
			reason:   "discovery that ignores enabled lists page.screenshot, file.upload and cookie.clear",
		},
		{
			name: "falls back to the first tool",
			target: bugTarget{call: func(c *node) *node {
				if name, _ := c.lookup("name"); opOf(c) == "validate_arguments" && name != nil && labelRE.MatchString(name.str) {
					// Every tool name that a validate_arguments check's catalog defines: only a
					// name no tool has falls back.
					if !slices.Contains([]string{"page.read", "page.find", "tab.select", "form.fill", "key.press", "cookie.clear", "page.screenshot", "file.upload", "page.read-all", "constructor"}, name.str) {
						c.set("name", newString("page.read"))
					}
				}
				return c
			}},
			wantFail: []string{"discover.name.unknown"},
			reason:   "validating an unknown name against page.read must not pass",
		},
		{
			name: "answers the second error",
			target: bugTarget{outcome: func(call, o *node) *node {
				if errorCode(o) == "INVALID_METADATA" {
					return mustParse(`{"error":"INVALID_SPEC"}`)
				}
				return o
			}},
			wantFail: []string{"catalog.duplicate-name", "catalog.polluted.metadata"},
			reason:   "a wrong code for a catalog error is a FAIL, however close",
		},
		{
			name: "results share state",
			target: bugTarget{outcome: func(call, o *node) *node {
				if opOf(call) != "mutate_and_repeat" {
					return o
				}
				res, _ := o.lookup("result")
				second, _ := res.lookup("second")
				mutate(second) // as if the mutation had reached the catalog
				return o
			}},
			wantFail: []string{"isolation.mutate-and-repeat"},
			reason:   "a second result that shows the first one's mutation fails",
		},
		{
			name: "sorts properties by name",
			target: bugTarget{outcome: func(call, o *node) *node {
				sortProperties(o)
				return o
			}},
			wantFail: []string{"discover.all.excludes-disabled", "discover.family.filters", "discover.input-schema.shape", "discover.name.exact", "isolation.mutate-and-repeat"},
			reason:   "an input schema's properties keep the fields' order (SPEC.md §8.3), even though other member order is irrelevant",
		},
		{
			name: "writes a big integer with an exponent",
			target: bugTarget{outcome: func(call, o *node) *node {
				return mustParse(strings.ReplaceAll(o.String(), "10000000000000000000000000000000000000000", "1e40"))
			}},
			wantFail: []string{"validate.shape-valid"},
			reason:   "1e40 is the same value but not an integer literal: an echoed integer must stay one (SPEC.md §8.3)",
		},
		{
			name: "off by one in a big integer",
			target: bugTarget{outcome: func(call, o *node) *node {
				return mustParse(strings.ReplaceAll(o.String(), "10000000000000000000000000000000000000000", "10000000000000000000000000000000000000001"))
			}},
			wantFail: []string{"validate.shape-valid"},
			reason:   "float64 cannot tell these apart; the runner must",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := (&Runner{Target: tt.target}).RunCases(cases)
			var failed []string
			for _, res := range rep.Cases {
				switch res.Status {
				case Pass:
				case Fail:
					failed = append(failed, res.ID)
					for _, chk := range res.Checks {
						if chk.Status == Fail && chk.Diff == "" {
							t.Errorf("case %s check %d: FAIL without a diff", res.ID, chk.Index)
						}
					}
				default:
					t.Errorf("case %s: %s %s, want PASS or FAIL", res.ID, res.Status, res.Message)
				}
			}
			if !slices.Equal(failed, tt.wantFail) {
				t.Errorf("failed cases = %q, want %q (%s)", failed, tt.wantFail, tt.reason)
			}
			if got, want := rep.OK(), len(tt.wantFail) == 0; got != want {
				t.Errorf("OK() = %v, want %v", got, want)
			}
		})
	}
}

// panicTarget panics on every call.
type panicTarget struct{}

func (panicTarget) Info() PortInfo              { return PortInfo{Name: "panic"} }
func (panicTarget) Call([]byte) ([]byte, error) { panic("index out of range") }

// TestImplementationPanics checks that a panicking in-process
// implementation is an ERROR for every case, in the runner and in Serve.
func TestImplementationPanics(t *testing.T) {
	rep := (&Runner{Target: panicTarget{}}).RunCases(mustCases(t))
	if rep.Failed != 21 || rep.Passed != 0 {
		t.Errorf("summary %q, want 0 passed, 21 failed", rep.Summary())
	}
	if c := rep.Cases[0]; c.Status != Error || !strings.Contains(c.Message, "implementation panicked: index out of range") {
		t.Errorf("first case: %s %q, want ERROR implementation panicked", c.Status, c.Message)
	}
	var out bytes.Buffer
	in := `{"type":"hello","protocol":"catalogkit-conformance/1"}` + "\n" + `{"type":"call","seq":1,"call":{"op":"discover"}}` + "\n"
	if err := Serve(strings.NewReader(in), &out, panicTarget{}, PortInfo{}); err != nil {
		t.Fatal(err)
	}
	want := `{"type":"error","seq":1,"message":"implementation panicked: index out of range"}` + "\n"
	if _, second, _ := strings.Cut(out.String(), "\n"); second != want {
		t.Errorf("Serve wrote %q, want the hello and then %q", out.String(), want)
	}
}

// TestCompiledAgrees runs every check against the compiled form too: the
// function-level and compiled APIs must give the same outcome codes and
// results, and the compiled form must pass every case (mutate_and_repeat on
// a compiled catalog really calls it twice).
func TestCompiledAgrees(t *testing.T) {
	cases := mustCases(t)
	fn, compiled := GoTarget("t"), CompiledGoTarget("t")
	for _, c := range cases {
		for i, chk := range c.Checks {
			a, err1 := fn.Call(chk.Call())
			b, err2 := compiled.Call(chk.Call())
			if err1 != nil || err2 != nil {
				t.Fatalf("%s check %d: errors %v, %v", c.ID, i, err1, err2)
			}
			an, bn := mustParse(string(a)), mustParse(string(b))
			if errorCode(an) != errorCode(bn) || !equalJSON(withoutDetail(an), withoutDetail(bn)) {
				t.Errorf("%s check %d: function-level %s, compiled %s", c.ID, i, a, b)
			}
		}
	}
	rep := (&Runner{Target: compiled}).RunCases(cases)
	if !rep.OK() || rep.Passed != len(cases) {
		t.Errorf("compiled form: %s", rep.Summary())
	}
}

func withoutDetail(o *node) *node {
	out := newObject()
	for i, k := range o.keys {
		if k != "detail" {
			out.set(k, o.vals[i])
		}
	}
	return out
}

// TestGoMutation checks that the Go mutate_and_repeat really mutates what
// it got: run on a target whose results share memory, it must see the
// mutation.
func TestGoMutation(t *testing.T) {
	type inner struct {
		Name  string
		Items []string
	}
	shared := &inner{Name: "a", Items: make([]string, 1, 4)}
	shared.Items[0] = "x"
	view := *shared // shares the backing array of Items
	mutateGo(reflect.ValueOf(&view))
	if view.Name != "MUTATED" || len(view.Items) != 2 || view.Items[0] != "MUTATED" {
		t.Errorf("mutateGo left %+v, want Name and Items[0] MUTATED and one more item", view)
	}
	if shared.Items[0] != "MUTATED" {
		t.Errorf("shared backing array holds %q, want MUTATED: the mutation must act in place", shared.Items[0])
	}
}

// TestGoMutateAndRepeat checks that the Go mutate_and_repeat exposes an
// implementation that hands out the same slices twice (a cache, say), and
// not one that returns fresh copies.
func TestGoMutateAndRepeat(t *testing.T) {
	cat, err := catalog.ParseJSON([]byte(miniCatalog))
	if err != nil {
		t.Fatal(err)
	}
	descs, err := catalog.Discover(cat, mustValue(t, `"f"`), catalog.Value{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		do        func() (any, error)
		wantEqual bool
		reason    string
	}{
		{"fresh", func() (any, error) { return catalog.Discover(cat, mustValue(t, `"f"`), catalog.Value{}) }, true, "fresh results are unaffected"},
		{"cached", func() (any, error) { return descs, nil }, false, "a cached slice shows the mutation on the second call"},
	}
	for _, tt := range tests {
		out, err := mutateAndRepeat(tt.do, cat, catalog.Value{})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := mustParse(string(out)).lookup("result")
		first, _ := res.lookup("first")
		second, _ := res.lookup("second")
		if got := equalJSON(first, second); got != tt.wantEqual {
			t.Errorf("%s: first == second is %v, want %v (%s)\nfirst  %s\nsecond %s", tt.name, got, tt.wantEqual, tt.reason, first, second)
		}
		if args, _ := res.lookup("arguments"); args.kind != kNull {
			t.Errorf("%s: arguments = %s, want null for discover", tt.name, args)
		}
	}
}

func mustValue(t *testing.T, s string) catalog.Value {
	t.Helper()
	v, err := catalog.ParseJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEqualJSON checks the comparison: JSON values, not texts.
func TestEqualJSON(t *testing.T) {
	tests := []struct {
		a, b   string
		want   bool
		reason string
	}{
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true, "object member order is irrelevant"},
		{`[1,2]`, `[2,1]`, false, "array order is significant"},
		{`1`, `1.0`, false, "an integer literal equals only an integer literal (3 echoed as 3.0 is no longer an integer)"},
		{`100`, `1e2`, false, "1e2 is not an integer literal"},
		{`1.0`, `1e0`, true, "numbers that are not integer literals compare by value"},
		{`100.0`, `1e2`, true, "an exponent is a way to write a value"},
		{`0`, `-0`, true, "-0 is 0"},
		{`0.5`, `5e-1`, true, "fractions compare by value too"},
		{`10000000000000000000000000000000000000000`, `10000000000000000000000000000000000000001`, false, "big integers are compared exactly, never as float64"},
		{`123456789012345678901234567890`, `123456789012345678901234567890`, true, "big integers equal"},
		{`1e999999999`, `1e999999998`, false, "huge exponents are compared without expanding them"},
		{`"\u00e9"`, `"é"`, true, "strings compare by content, not escapes"},
		{`"\ud83d\ude00"`, `"😀"`, true, "a surrogate-pair escape is the astral character"},
		{`"a"`, `"A"`, false, "strings are case-sensitive"},
		{`true`, `1`, false, "a boolean is not a number"},
		{`null`, `{}`, false, "null is not an empty object"},
		{`{"a":1}`, `{"a":1,"b":null}`, false, "an extra member differs, even null"},
		{`[]`, `{}`, false, "an empty array is not an empty object"},
		{`{"inputSchema":{"properties":{"a":{"type":"integer"},"b":{"type":"boolean"}}}}`, `{"inputSchema":{"properties":{"b":{"type":"boolean"},"a":{"type":"integer"}}}}`, false, "an input schema's properties keep the fields' order"},
		{`{"inputSchema":{"properties":{"a":1,"b":2},"required":[]}}`, `{"inputSchema":{"required":[],"properties":{"a":1,"b":2}}}`, true, "only the properties' own members are ordered"},
		{`{"inputSchema":{"properties":{"a":{"x":1,"y":2}}}}`, `{"inputSchema":{"properties":{"a":{"y":2,"x":1}}}}`, true, "a property's own members are not ordered"},
		{`{"properties":{"a":1,"b":2}}`, `{"properties":{"b":2,"a":1}}`, true, "an object under properties outside an input schema is a set (an argument, a field, named properties)"},
		{`{"inputSchema":{"properties":{"properties":{"type":"string","maxLength":3}}}}`, `{"inputSchema":{"properties":{"properties":{"maxLength":3,"type":"string"}}}}`, true, "the spec of a field named properties is not ordered"},
		{`{"catalog":[{"name":"t","fields":{"a":1,"b":2}}]}`, `{"catalog":[{"name":"t","fields":{"b":2,"a":1}}]}`, false, "a tool's fields in a catalog keep their order"},
		{`{"catalog":[{"name":"t","fields":{"a":1}}]}`, `{"catalog":[{"fields":{"a":1},"name":"t"}]}`, true, "a tool's own members are not ordered"},
		{`{"arguments":{"fields":{"a":1,"b":2}}}`, `{"arguments":{"fields":{"b":2,"a":1}}}`, true, "fields outside a catalog is a set"},
	}
	for _, tt := range tests {
		if got := equalJSON(mustParse(tt.a), mustParse(tt.b)); got != tt.want {
			t.Errorf("equalJSON(%s, %s) = %v, want %v (%s)", tt.a, tt.b, got, tt.want, tt.reason)
		}
	}
}

// TestParseJSON checks what the runner refuses to read.
func TestParseJSON(t *testing.T) {
	tests := []struct {
		in, wantErr string
		reason      string
	}{
		{`{"a":1,"a":2}`, "duplicate object key", "a second key could hide a value"},
		{"\"\xff\"", "invalid UTF-8", "invalid UTF-8"},
		{`"\ud800"`, "lone surrogate", "a lone surrogate is no character"},
		{`"\udc00\ud800"`, "lone surrogate", "a reversed pair is two lone surrogates"},
		{`[1,]`, "invalid character", "a trailing comma"},
		{`01`, "leading zero", "a leading zero"},
		{`1.`, "invalid number", "a fraction needs digits"},
		{`{} {}`, "unexpected data", "trailing data"},
		{strings.Repeat("[", 65) + strings.Repeat("]", 65), "nesting deeper", "nesting is bounded"},
		{`[tru]`, "invalid character", "a broken literal"},
	}
	for _, tt := range tests {
		_, err := parseJSON([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("parseJSON(%q) error = %v, want %q (%s)", tt.in, err, tt.wantErr, tt.reason)
		}
	}
	// Literals survive exactly.
	in := `{"q":"\ud83d\ude00 \u00e9","n":-0.50e+3,"big":10000000000000000000000000000000000000000}`
	if got := mustParse(in).String(); got != in {
		t.Errorf("round trip = %s, want %s", got, in)
	}
}

// TestDecimalString checks how numbers show in diffs.
func TestDecimalString(t *testing.T) {
	tests := []struct{ in, want, reason string }{
		{"3", "3", "an integer"},
		{"-0", "0", "zero has no sign"},
		{"1e2", "100", "small exponents are written out"},
		{"-0.250", "-0.25", "trailing zeros go"},
		{"5e-3", "0.005", "small fractions are written out"},
		{"1e999999999", "1e999999999", "huge exponents stay exponents"},
		{"10000000000000000000000000000000000000000", "10000000000000000000000000000000000000000", "big integers stay exact"},
	}
	for _, tt := range tests {
		if got := decimalOf(tt.in).String(); got != tt.want {
			t.Errorf("decimalOf(%q).String() = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
}

// TestLineDiff checks the standard-library diff.
func TestLineDiff(t *testing.T) {
	want := map[string]any{"error": "INVALID_LABEL"}
	got := map[string]any{"error": "UNKNOWN_FAMILY"}
	d := LineDiff(want, got)
	if !strings.Contains(d, `-   "error": "INVALID_LABEL"`) || !strings.Contains(d, `+   "error": "UNKNOWN_FAMILY"`) {
		t.Errorf("LineDiff = %q, want a - line for want and a + line for got", d)
	}
	if d := LineDiff(want, map[string]any{"error": "INVALID_LABEL"}); d != "" {
		t.Errorf("LineDiff of equal values = %q, want empty", d)
	}
	// A DiffFunc that sees nothing must not hide a FAIL.
	rep := (&Runner{Target: bugTarget{outcome: func(call, o *node) *node { return mustParse(`{"result":null}`) }},
		Diff: func(want, got any) string { return "" }, Run: mustRegexp(t, `^labels\.invalid$`)}).RunCases(mustCases(t))
	if rep.Cases[0].Status != Fail || rep.Cases[0].Checks[0].Diff == "" {
		t.Errorf("case with an empty diff: %s with diff %q, want FAIL with both values", rep.Cases[0].Status, rep.Cases[0].Checks[0].Diff)
	}
}

// TestCaseMessage checks that a case's header names every check that did
// not pass, grouped by what happened, in check order.
func TestCaseMessage(t *testing.T) {
	checks := []*CheckResult{
		{Index: 0, Status: Fail}, {Index: 1, Status: Pass}, {Index: 2, Status: Skip, Message: "no families"},
		{Index: 3, Status: Fail}, {Index: 4, Status: Fail, secondPass: true}, {Index: 5, Status: Error, Message: "timed out"},
	}
	want := "checks 0, 3: outcome differs; check 2: not implemented: no families; check 4: the second pass disagrees with the first; check 5: timed out"
	if got := caseMessage(checks); got != want {
		t.Errorf("caseMessage = %q\nwant %q", got, want)
	}
	if got := caseMessage(checks[1:2]); got != "" {
		t.Errorf("caseMessage of a passing check = %q, want \"\"", got)
	}
}

// TestReportFormats checks that every format reports every case and the
// counts.
func TestReportFormats(t *testing.T) {
	rep := (&Runner{Target: bugTarget{outcome: func(call, o *node) *node {
		if errorCode(o) == "UNKNOWN_FAMILY" {
			return mustParse(`{"not_implemented":"no families here"}`)
		}
		if errorCode(o) == "INVALID_ARGUMENT_KEYS" {
			return echo(call)
		}
		return o
	}}}).RunCases(mustCases(t))
	if rep.Summary() != "17 passed, 2 failed, 2 skipped" {
		t.Fatalf("Summary() = %q, want 17 passed, 2 failed, 2 skipped", rep.Summary())
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"port: bug 0 (Go)\n", "FAIL    validate.keys.missing: checks 0, 1, 2, 3, 4, 5, 7: outcome differs\n", "(-want +got):\n",
		"SKIP    discover.family.unknown: checks 0, 1, 4, 5, 6, 9, 10, 11, 12, 13: not implemented: no families here\n", "\n17 passed, 2 failed, 2 skipped\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Cases []struct {
			ID, Status string
			Checks     []struct{ Call, Want json.RawMessage }
		}
		Passed, Failed, Skipped int
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil {
		t.Fatal(err)
	}
	if len(decoded.Cases) != 21 || decoded.Passed != 17 || decoded.Failed != 2 || decoded.Skipped != 2 || len(decoded.Cases[0].Checks[0].Want) == 0 {
		t.Errorf("JSON report: %d cases, %d/%d/%d, want 21 cases, 17/2/2 with calls and expectations", len(decoded.Cases), decoded.Passed, decoded.Failed, decoded.Skipped)
	}
	var junit bytes.Buffer
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Cases    []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
		} `xml:"testcase"`
	}
	if err := xml.Unmarshal(junit.Bytes(), &suite); err != nil {
		t.Fatal(err)
	}
	failures := 0
	for _, c := range suite.Cases {
		if c.Failure != nil {
			failures++
		}
	}
	if suite.Tests != 21 || suite.Failures != 2 || suite.Skipped != 2 || failures != 2 {
		t.Errorf("JUnit: tests=%d failures=%d (%d elements) skipped=%d, want 21, 2, 2", suite.Tests, suite.Failures, failures, suite.Skipped)
	}
}

var labelRE = regexp.MustCompile(`^[a-z][a-z0-9._-]{0,79}$`)

// mutate is PROTOCOL.md's mutation procedure on a node.
func mutate(n *node) {
	switch n.kind {
	case kObject:
		for i := range n.keys {
			if v := n.vals[i]; v.kind == kObject || v.kind == kArray {
				mutate(v)
			} else {
				n.vals[i] = newString("MUTATED")
			}
		}
		n.set("__mutated__", &node{kind: kBool, lit: "true"})
	case kArray:
		for i, v := range n.items {
			if v.kind == kObject || v.kind == kArray {
				mutate(v)
			} else {
				n.items[i] = newString("MUTATED")
			}
		}
		n.items = append(n.items, newString("MUTATED"))
	}
}
