package fuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/conformance"
)

// A bugTarget is the reference with one bug: it rewrites the reference's
// outcome. It is cheap and deterministic, for the tests of the run itself.
type bugTarget struct {
	conformance.Target
	bug func(out []byte) []byte
}

func (b bugTarget) Call(call []byte) ([]byte, error) {
	out, err := b.Target.Call(call)
	return b.bug(out), err
}

func (bugTarget) Close() error { return nil }

// keysAsValues answers INVALID_ARGUMENT_VALUE where the contract says
// INVALID_ARGUMENT_KEYS, and lists no tools for an unknown family.
func keysAsValues() Target {
	return bugTarget{Reference("test"), func(out []byte) []byte {
		out = bytes.ReplaceAll(out, []byte(`"INVALID_ARGUMENT_KEYS"`), []byte(`"INVALID_ARGUMENT_VALUE"`))
		if bytes.Contains(out, []byte(`"UNKNOWN_FAMILY"`)) {
			return []byte(`{"result":[]}`)
		}
		return out
	}}
}

// TestCallIsDeterministic checks that a call depends only on the seed and
// its number.
func TestCallIsDeterministic(t *testing.T) {
	same := 0
	for i := range 300 {
		a, b := Call(7, i), Call(7, i)
		if !bytes.Equal(a, b) {
			t.Fatalf("Call(7, %d) differs between two calls:\n%s\n%s", i, a, b)
		}
		if bytes.Equal(a, Call(8, i)) {
			same++
		}
	}
	if same > 3 {
		t.Errorf("%d of 300 calls are the same with seeds 7 and 8, want almost none", same)
	}
}

// TestGrammarCovers checks that a few thousand calls reach every outcome
// of the contract and every corner the grammar promises.
func TestGrammarCovers(t *testing.T) {
	ref := Reference("test")
	kinds := map[string]int{}
	corners := map[string]int{}
	for i := range 4000 {
		call := Call(1, i)
		kinds[callTarget(ref, call).kind()]++
		smp := generate(1, i)
		if smp.line != nil {
			corners["a line-level mutation"]++
		}
		n := smp.call
		if op := n.get("op"); op != nil && op.plain() == "mutate_and_repeat" && n.get("call") != nil {
			corners["mutate_and_repeat"]++
			n = n.get("call")
		}
		if cat := n.get("catalog"); cat != nil && cat.kind == kArray && len(cat.items) >= 1000 {
			corners["1000 tools or more"]++
		}
		for _, c := range []struct{ name, text string }{
			{"a field at the 30-field limit or over", `"f29":`},
			{"a built-in property name", `"constructor"`},
			{"an explicit null name", `"name":null`},
			{"a surrogate-pair escape", `\ud83d\ude`},
			{"2^53+1", "9007199254740993"},
			{"-0", ":-0"},
			{"1e2", "1e2"},
			{"a 40-digit integer", strings.Repeat("9", 40)},
		} {
			if bytes.Contains(call, []byte(c.text)) {
				corners[c.name]++
			}
		}
		if bytes.ContainsFunc(call, func(r rune) bool { return 0xAC00 <= r && r <= 0xD7A3 }) {
			corners["Hangul"]++
		}
		if !n.validUTF8() {
			corners["invalid UTF-8"]++
		}
		if n.depth()+1 >= catalog.MaxDepth {
			corners["nesting at the limit of the line"]++
		}
	}
	for _, code := range catalog.Codes {
		if kinds["error "+string(code)] == 0 {
			t.Errorf("no call of 4000 yields %s; outcomes: %v", code, kinds)
		}
	}
	if kinds["a result"] < 800 {
		t.Errorf("%d of 4000 calls succeed, want at least 800 (mostly valid catalogs); outcomes: %v", kinds["a result"], kinds)
	}
	for _, c := range []string{"mutate_and_repeat", "1000 tools or more", "a field at the 30-field limit or over", "a built-in property name",
		"an explicit null name", "a surrogate-pair escape", "Hangul", "2^53+1", "-0", "1e2", "a 40-digit integer", "invalid UTF-8",
		"nesting at the limit of the line", "a line-level mutation"} {
		if corners[c] == 0 {
			t.Errorf("no call of 4000 has %s", c)
		}
	}
}

// TestShrink shrinks a generated call while the reference's outcome stays
// INVALID_ARGUMENT_KEYS: what is left is one tool, no field, one argument
// (a few bytes besides the tool's name);
// for a call on a format-2 catalog, one tool with the members format 2
// requires and an input schema with no property (242 bytes with effect
// "change", which the shrinker does not turn into "read").
func TestShrink(t *testing.T) {
	for _, tc := range []struct {
		format2 bool
		most    int
	}{{false, 180}, {true, 242}} {
		testShrink(t, tc.format2, tc.most)
	}
}

func testShrink(t *testing.T, format2 bool, most int) {
	ref := Reference("test")
	want := "error INVALID_ARGUMENT_KEYS"
	for i := range 2000 {
		if isFormat2Turn(turnOf(3, i)) != format2 {
			continue
		}
		n := generate(3, i).call
		if callTarget(ref, n.appendJSON(nil)).kind() != want || len(n.String()) < 400 {
			continue
		}
		keep := func(c *node) bool { return callTarget(ref, c.appendJSON(nil)).kind() == want }
		got, tries := shrink(n, keep, 5000)
		if !keep(got) {
			t.Fatalf("the shrunk call %s does not keep the outcome", got)
		}
		if tries >= 5000 {
			t.Errorf("shrinking used its whole budget")
		}
		// The tool's name, written twice, cannot shrink: the call names
		// the tool it found.
		if size := len(got.String()) - 2*len(got.get("name").plain()); size > most {
			t.Errorf("call %d shrank from %d to %d bytes (%d besides the tool's name), want at most %d: %s", i, len(n.String()), len(got.String()), size, most, got)
		}
		if again, _ := shrink(n, keep, 5000); again.String() != got.String() {
			t.Errorf("shrinking twice gave two calls:\n%s\n%s", got, again)
		}
		return
	}
	t.Fatal("no call of 2000 yields INVALID_ARGUMENT_KEYS")
}

// TestRunIsDeterministic runs the same seed with 1 and 3 jobs against a
// buggy target: the same disagreements, shrunk to the same calls.
func TestRunIsDeterministic(t *testing.T) {
	run := func(jobs int) *Result {
		res, err := Run(context.Background(), Options{Calls: 1500, Seed: 11, Jobs: jobs, NewTarget: keysAsValues})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	one, three := run(1), run(3)
	if one.Disagreements == 0 || len(one.Counterexamples) < 2 {
		t.Fatalf("found %d disagreements, %d counterexamples; want both bugs found", one.Disagreements, len(one.Counterexamples))
	}
	summary := func(r *Result) []string {
		var s []string
		for _, cx := range r.Counterexamples {
			s = append(s, fmt.Sprintf("%s %s %s", cx.ID, cx.Kind, cx.Call))
		}
		return append(s, fmt.Sprint(r.Calls, r.Disagreements, r.Skipped))
	}
	if a, b := summary(one), summary(three); !slices.Equal(a, b) {
		t.Errorf("1 job and 3 jobs differ:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// TestStopAtFirst checks that a run that stops at its first disagreement
// reports the lowest call number whatever the number of jobs.
func TestStopAtFirst(t *testing.T) {
	var ids []string
	for _, jobs := range []int{1, 2, 4} {
		res, err := Run(context.Background(), Options{Calls: 3000, Seed: 5, Jobs: jobs, StopAtFirst: true, NewTarget: keysAsValues})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Counterexamples) != 1 || res.Calls != res.Counterexamples[0].Index+1 {
			t.Fatalf("jobs %d: %d counterexamples after %d calls, want 1, at the last call", jobs, len(res.Counterexamples), res.Calls)
		}
		ids = append(ids, res.Counterexamples[0].ID+" "+string(res.Counterexamples[0].Call))
	}
	if ids[0] != ids[1] || ids[0] != ids[2] {
		t.Errorf("the first disagreement depends on the number of jobs: %q", ids)
	}
}

// TestCaseFiles writes the counterexamples of a buggy target, text cases
// among them, and checks that the contract cases load with the suite's own
// loader (internal/suites/fuzzgate validates them against case.schema.json), and
// that the folder, run with --cases' code, passes against the reference and
// fails every case against the buggy target.
func TestCaseFiles(t *testing.T) {
	res, err := Run(context.Background(), Options{Calls: 1500, Seed: 11, NewTarget: keysAsValues})
	if err != nil {
		t.Fatal(err)
	}
	cxs := append(res.Counterexamples,
		&Counterexample{ID: "fuzz.text.duplicate", Kind: "test", Want: invalidJSON,
			Call: []byte(`{"op":"discover","catalog":[],"family":"a","\u0066amily":"b"}`)},
		&Counterexample{ID: "fuzz.text.utf8", Kind: "test", Want: invalidJSON,
			Call: []byte("{\"op\":\"discover\",\"catalog\":[],\"family\":\"a\xff\"}")},
	)
	dir := t.TempDir()
	paths, err := WriteCases(dir, PortInfo{Name: "buggy"}, cxs)
	if err != nil {
		t.Fatal(err)
	}
	texts := 0
	for i := range paths {
		_, text, err := cxs[i].CaseFile(PortInfo{Name: "buggy"})
		if err != nil {
			t.Fatal(err)
		}
		if text {
			texts++
		}
	}
	if texts != 2 {
		t.Errorf("%d text cases, want the 2 whose text is broken", texts)
	}
	suite, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(suite.Cases) + len(suite.Text) + len(suite.Sequences); got != len(cxs) {
		t.Fatalf("LoadDir read %d cases, want %d", got, len(cxs))
	}
	if rep := RunSuite(func() conformance.Target { return Reference("test") }, suite, nil); rep.Passed != len(cxs)-2 || rep.Text == nil || rep.Text.Passed != 2 || !rep.OK() {
		var b strings.Builder
		rep.WriteText(&b)
		t.Errorf("against the reference: %s, want all passed\n%s", rep.Summary(), b.String())
	}
	if rep := RunSuite(func() conformance.Target { return keysAsValues() }, suite, nil); rep.Failed != len(res.Counterexamples) {
		t.Errorf("against the buggy target: %s, want its %d cases failed", rep.Summary(), len(res.Counterexamples))
	}
}

// TestLoadDirErrors checks that a bad folder or case file is refused with
// an error naming it.
func TestLoadDirErrors(t *testing.T) {
	good, _, err := (&Counterexample{ID: "fuzz.a.b", Kind: "k", Want: []byte(`{"error":"INVALID_LABEL"}`),
		Call: []byte(`{"op":"discover","catalog":[],"family":""}`)}).CaseFile(PortInfo{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		files  map[string]string
		want   string
		reason string
	}{
		{"empty", map[string]string{}, "holds no case files", "a folder without cases is a mistake, not a pass"},
		{"not an object", map[string]string{"x.y.json": `[1]`}, "x.y.json: not a JSON object", "the file is named"},
		{"id mismatch", map[string]string{"fuzz.a.c.json": string(good)}, `id "fuzz.a.b" does not match the file name`, "ids are file names"},
		{"bad case", map[string]string{"fuzz.a.b.json": strings.Replace(string(good), `"title"`, `"titel"`, 1)}, "fuzz.a.b.json: case lacks \"title\"", "the suite's own loader checks the case"},
		{"neither", map[string]string{"x.y.json": `{"id":"x.y"}`}, "x.y.json is not a case file", "a file of no kind is named, with the three formats"},
		{"both", map[string]string{"x.y.json": `{"id":"x.y","checks":[],"line":[]}`}, "x.y.json is not a case file", "a file cannot be both kinds"},
		{"text case without seq", map[string]string{"text.t.a.json": `{"id":"text.t.a","title":"t","spec":"SPEC.md §2","line":["{}"],"expect":{"error":"INVALID_JSON"}}`},
			`text.t.a.json: "line" has 0 {"seq": true} pieces`, "the text level's loader checks the text case"},
		{"text case line break", map[string]string{"text.t.a.json": `{"id":"text.t.a","title":"t","spec":"SPEC.md §2","line":["{}\n",{"seq":true}],"expect":{"error":"INVALID_JSON"}}`},
			"newline", "a line is one protocol line"},
		{"text case bad expect", map[string]string{"text.t.a.json": `{"id":"text.t.a","title":"t","spec":"SPEC.md §2","line":[{"seq":true}],"expect":{"not_implemented":"x"}}`},
			`"expect" is not`, "a case expects a result or an error"},
		{"text id mismatch", map[string]string{"text.t.b.json": `{"id":"text.t.a","title":"t","spec":"SPEC.md §2","line":[{"seq":true}],"expect":{"error":"INVALID_JSON"}}`},
			`does not match the file name`, "ids are file names"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tc.files {
				os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
			}
			_, err := LoadDir(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("LoadDir: %v, want an error containing %q (%s)", err, tc.want, tc.reason)
			}
		})
	}
	if _, err := LoadDir(filepath.Join(t.TempDir(), "missing")); !os.IsNotExist(err) {
		t.Errorf("LoadDir of a missing folder: %v, want a not-exist error", err)
	}

}

// TestCompareRefusedLine checks the protocol's allowance: a line the
// port's strict reader refuses may be answered with an error line, but
// only when the contract says INVALID_JSON.
func TestCompareRefusedLine(t *testing.T) {
	errorLine := outcome{err: &conformance.TransportError{Status: conformance.Error, Message: "port answered an error line: duplicate key"}}
	crash := outcome{err: &conformance.TransportError{Status: conformance.Crash, Message: "port exited"}}
	for _, tc := range []struct {
		name   string
		want   []byte
		got    outcome
		v      verdict
		reason string
	}{
		{"refused line", invalidJSON, errorLine, agree, "PROTOCOL.md allows an error line for a refused line"},
		{"valid line", []byte(`{"result":[]}`), errorLine, disagree, "an error line for a valid call is wrong"},
		{"crash", invalidJSON, crash, disagree, "a crash is never an answer"},
		{"same code, other detail", []byte(`{"error":"INVALID_LABEL","detail":"a"}`), outcome{text: []byte(`{"error":"INVALID_LABEL","detail":"b"}`)}, agree, "details are never compared"},
		{"numbers by value", []byte(`{"result":{"n":1.0}}`), outcome{text: []byte(`{"result":{"n":1e0}}`)}, agree, "the runner compares numbers by value"},
		{"integer kept", []byte(`{"result":{"n":1}}`), outcome{text: []byte(`{"result":{"n":1.0}}`)}, disagree, "an integer literal equals only an integer literal (conformance/SPEC.md §8.3)"},
		{"not implemented", []byte(`{"result":[]}`), outcome{text: []byte(`{"not_implemented":"no"}`)}, skip, "not_implemented is a SKIP"},
	} {
		if v, _ := compare(outcome{text: tc.want}, tc.got, nil); v != tc.v {
			t.Errorf("%s: verdict %d, want %d (%s)", tc.name, v, tc.v, tc.reason)
		}
	}
}

// TestReferenceDepth checks that the reference counts nesting over the
// whole protocol line, the message being depth 1: a call whose own depth is
// 63 is at the limit, 64 is over it.
func TestReferenceDepth(t *testing.T) {
	nested := func(callDepth int) []byte {
		// The call object is depth 1 of the call, arguments 2, then arrays.
		arrays := callDepth - 2
		v := strings.Repeat("[", arrays) + "1" + strings.Repeat("]", arrays)
		return []byte(`{"op":"validate_arguments","catalog":[],"name":"a","arguments":{"x":` + v + `}}`)
	}
	for _, tc := range []struct {
		callDepth int
		want      string
		reason    string
	}{
		{63, "error TOOL_NOT_AVAILABLE_IN_FAMILY", "line depth 64: at the limit, read, then the contract decides"},
		{64, "error INVALID_JSON", "line depth 65: over the limit"},
		{70, "error INVALID_JSON", "far over the limit"},
	} {
		call := nested(tc.callDepth)
		if got := depth(call); got != tc.callDepth {
			t.Fatalf("depth of the test call = %d, want %d", got, tc.callDepth)
		}
		if got := callTarget(Reference("test"), call).kind(); got != tc.want {
			t.Errorf("call depth %d: %s, want %s (%s)", tc.callDepth, got, tc.want, tc.reason)
		}
	}
	if got := depth([]byte(`{"a":"[[[{{"}`)); got != 1 {
		t.Errorf(`depth of {"a":"[[[{{"} = %d, want 1: brackets in strings do not count`, got)
	}
}

// TestCitationsResolve checks that every section a counterexample cites is
// a heading of conformance/SPEC.md ("## 6. discover", "### 8.4 Fresh
// values"), so that a written case cites what exists.
func TestCitationsResolve(t *testing.T) {
	data, err := os.ReadFile("../SPEC.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		call, want string
		reason     string
	}{
		{`{"op":"discover"}`, "6", "discover"},
		{`{"op":"validate_arguments"}`, "7", "validate_arguments"},
		{`{"op":"mutate_and_repeat"}`, "8.4", "mutate_and_repeat checks fresh values"},
		{`{"op":1}`, "9", "a call without a known op gets an error"},
		{`{}`, "9", "no op at all"},
		{"", textSection, "a text case checks the JSON text layer"},
	} {
		got := textSection
		if tc.call != "" {
			got = specSection([]byte(tc.call))
		}
		if got != tc.want {
			t.Errorf("specSection(%s) = %s, want %s (%s)", tc.call, got, tc.want, tc.reason)
		}
		heading := regexp.MustCompile(`(?m)^#{2,3} ` + regexp.QuoteMeta(got) + `\.? `)
		if !heading.Match(data) {
			t.Errorf("%s: section %s is not a heading of conformance/SPEC.md (%s)", conformance.Cite(got), got, tc.reason)
		}
	}
}

// gateCalls is the budget of the gate (internal/suites/fuzzgate) for a broken
// port, with its seed 1.
const gateCalls = 4000

// TestGrammarReachesEveryBreak checks that the calls of seed 1 within the
// gate's budget draw every break of the grammar the generator knows (each
// near miss of the number grammar, each string escape and character, each
// white space, each broken literal and structure, each protocol corner,
// each change a twin makes), a tool of family "all" and a mutate_and_repeat
// of discover carrying arguments, each a few times: what lets the gate find the broken ports
// aimed at them.
func TestGrammarReachesEveryBreak(t *testing.T) {
	drawn := map[string]int{}
	for i := range gateCalls {
		for _, b := range generate(1, i).breaks {
			drawn[b]++
		}
	}
	var want []string
	for _, b := range grammarBreaks {
		want = append(want, b.kind+" "+b.text)
	}
	for _, c := range corners {
		want = append(want, "corner "+c.name)
	}
	for _, c := range twinChanges {
		want = append(want, "twin "+c.name)
	}
	for _, p := range probes2 {
		want = append(want, "format 2 probe "+p.name)
	}
	want = append(want, "family all", "mutate_and_repeat of discover with arguments", "format 2", "format 2 catalog miss", "format 2 duplicate tool",
		"format 2 bad tool name", "format 2 tool members", "format 2 title at the limit", "format 2 bad origin")
	for i := range 14 {
		want = append(want, "format 2 schema miss "+itoa(i))
	}
	for _, w := range want {
		if drawn[w] < 3 {
			t.Errorf("%d calls of %d draw %q, want at least 3", drawn[w], gateCalls, w)
		}
	}
}

// TestCompareReplies checks how the outcomes of protocol corners compare:
// an error line must keep its seq, a reply must echo the line's seq
// exactly, and a refused line may be answered with an error line with seq
// null or the line's.
func TestCompareReplies(t *testing.T) {
	errLine := func(seq string) outcome {
		return outcome{err: &conformance.TransportError{Status: conformance.Error, Message: "port answered an error line: x"}, seq: seq}
	}
	reply := func(text, seq string) outcome { return outcome{text: []byte(text), seq: seq} }
	for _, tc := range []struct {
		name      string
		want, got outcome
		v         verdict
		reason    string
	}{
		{"error line null", errLine("null"), errLine("null"), agree, "the message is never compared"},
		{"error line seq", errLine("null"), errLine("runner"), disagree, "rule 8: a bad seq gets an error line with seq null"},
		{"error line for a reply", reply(`{"result":[]}`, "runner"), errLine("runner"), disagree, "a line that must be read is answered"},
		{"reply for an error line", errLine("runner"), reply(`{"result":[]}`, "runner"), disagree, "a nested mutate_and_repeat gets an error line"},
		{"big seq", reply(`{"result":[]}`, "9007199254740993"), reply(`{"result":[]}`, "9007199254740992"), disagree, "a seq passed through a float is wrong"},
		{"big seq exact", reply(`{"result":[]}`, "9007199254740993"), reply(`{"result":[]}`, "9007199254740993"), agree, "the seq echoed exactly"},
		{"refused, error line null", reply(`{"error":"INVALID_JSON"}`, "runner"), errLine("null"), agree, "rule 2 allows an error line"},
		{"refused, error line seq", reply(`{"error":"INVALID_JSON"}`, "runner"), errLine("runner"), agree, "with the line's seq too"},
		{"not implemented", reply(`{"not_implemented":"x"}`, "runner"), reply(`{"result":[]}`, "runner"), disagree, "an unknown op inside mutate_and_repeat"},
		{"not implemented both", reply(`{"not_implemented":"x"}`, "runner"), reply(`{"not_implemented":"y"}`, "runner"), agree, "reasons are not compared"},
	} {
		if v, _ := compare(tc.want, tc.got, nil); v != tc.v {
			t.Errorf("%s: verdict %d, want %d (%s)", tc.name, v, tc.v, tc.reason)
		}
	}
}

// stickyTarget is a target with state between calls: once it has answered
// DUPLICATE_TOOL, it answers INVALID_CATALOG where a result is due.
type stickyTarget struct {
	conformance.Target
	seen bool
}

func (s *stickyTarget) Call(call []byte) ([]byte, error) {
	out, err := s.Target.Call(call)
	if s.seen && bytes.HasPrefix(out, []byte(`{"result"`)) {
		return []byte(`{"error":"INVALID_CATALOG"}`), err
	}
	s.seen = s.seen || bytes.Contains(out, []byte(`"DUPLICATE_TOOL"`))
	return out, err
}

func (*stickyTarget) Close() error { return nil }

// TestSequenceCase fuzzes a target with state between calls: the run finds
// disagreements no call shows alone, shrinks the first to a sequence of
// two calls (the one that leaves the state, the one that shows it), and
// the sequence case written for it loads, passes against the reference
// and fails against a fresh such target.
func TestSequenceCase(t *testing.T) {
	newSticky := func() Target { return &stickyTarget{Target: Reference("test")} }
	res, err := Run(context.Background(), Options{Calls: 300, Seed: 1, NewTarget: newSticky, MaxCounterexamples: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Disagreements == 0 || len(res.Counterexamples) != 1 || res.Stateful == 0 {
		t.Fatalf("%d disagreements, %d counterexamples, %d stateful; want some, 1 and at least 1", res.Disagreements, len(res.Counterexamples), res.Stateful)
	}
	cx := res.Counterexamples[0]
	if steps := cx.Steps(); len(steps) != 2 {
		t.Errorf("the sequence has %d steps, want 2:\n%s", len(steps), bytes.Join(steps, []byte("\n")))
	}
	dir := t.TempDir()
	paths, err := WriteCases(dir, PortInfo{Name: "sticky"}, res.Counterexamples)
	if err != nil {
		t.Fatal(err)
	}
	suite, err := LoadDir(paths[0]) // one file
	if err != nil {
		t.Fatal(err)
	}
	if len(suite.Sequences) != 1 {
		t.Fatalf("LoadDir read %d sequence cases, want 1", len(suite.Sequences))
	}
	if rep := RunSuite(func() conformance.Target { return Reference("test") }, suite, nil); rep.Passed != 1 || !rep.OK() {
		t.Errorf("against the reference: %s, want 1 passed", rep.Summary())
	}
	if rep := RunSuite(func() conformance.Target { return newSticky() }, suite, nil); rep.Failed != 1 {
		t.Errorf("against the sticky target: %s, want 1 failed", rep.Summary())
	}
}

// TestQuickKind checks that the fast path of an outcome's kind says what
// decoding it says, and leaves to decoding what it cannot tell.
func TestQuickKind(t *testing.T) {
	texts := []string{
		`{"result":[]}`, `{"result":{"name":"a"}}`, `{"not_implemented":"no"}`,
		`{"error":"INVALID_JSON"}`, `{"error":"INVALID_LABEL","detail":"x"}`,
		`{"error":"invalid_label"}`, `{"error":"A\u0042"}`, `{"error":""}`, `{ "result":[]}`,
		`{"detail":"x","error":"INVALID_SPEC"}`, `{"error":"INVALID_SPEC" }`,
	}
	quick := 0
	for _, text := range texts {
		slow := outcome{text: []byte(" " + text)}.baseKind() // a leading space: decoded
		if k := quickKind([]byte(text)); k != "" {
			quick++
			if k != slow {
				t.Errorf("quickKind(%s) = %q, decoding says %q", text, k, slow)
			}
		}
		if got := (outcome{text: []byte(text)}).baseKind(); got != slow {
			t.Errorf("baseKind(%s) = %q, decoding says %q", text, got, slow)
		}
	}
	if quick != 5 {
		t.Errorf("the fast path answered %d of the texts, want the 5 written compactly with a plain code first", quick)
	}
}

// recordingTarget is the reference, noting the calls its process is sent.
type recordingTarget struct {
	conformance.Target
	mu    *sync.Mutex
	calls *[][]string
	own   int
}

func (r recordingTarget) Call(call []byte) ([]byte, error) {
	r.mu.Lock()
	(*r.calls)[r.own] = append((*r.calls)[r.own], string(call))
	r.mu.Unlock()
	return r.Target.Call(call)
}

func (recordingTarget) Close() error { return nil }

// TestTwinFollowsItsBase checks, with three jobs, that every twin is sent
// to the process its base went to, right after it: what lets a twin find
// a port that answers it from what it kept of the base.
func TestTwinFollowsItsBase(t *testing.T) {
	const seed, calls = 7, 600
	var mu sync.Mutex
	var sent [][]string
	newTarget := func() Target {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, nil)
		return recordingTarget{Target: Reference("test"), mu: &mu, calls: &sent, own: len(sent) - 1}
	}
	if _, err := Run(context.Background(), Options{Calls: calls, Seed: seed, Jobs: 3, NewTarget: newTarget}); err != nil {
		t.Fatal(err)
	}
	twins := 0
	for i := 1; i < calls; i++ {
		if !isTwinBase(seed, i-1) {
			continue
		}
		base, twin := string(Call(seed, i-1)), string(Call(seed, i))
		found := false
		for _, process := range sent {
			for k := 1; k < len(process); k++ {
				found = found || process[k] == twin && process[k-1] == base
			}
		}
		if !found {
			t.Errorf("call %d, the twin of call %d, was not sent right after it to one process", i, i-1)
		}
		twins++
	}
	if twins < calls/cornerEvery-1 {
		t.Errorf("%d twins in %d calls, want about %d", twins, calls, calls/cornerEvery)
	}
}

// TestFormat2Grammar checks that the format-2 calls of seed 1 within the
// gate's budget reach every outcome of conformance/SPEC.md §12 on the built-in
// implementation, each a few times: results of discover and of
// validate_arguments, and each error code a format-2 call can get.
func TestFormat2Grammar(t *testing.T) {
	target := conformance.GoTarget("test")
	got := map[string]int{}
	calls := 0
	for i := range gateCalls {
		if !isFormat2Turn(turnOf(1, i)) {
			continue
		}
		calls++
		s := generate(1, i)
		out, err := target.Call(s.call.appendJSON(nil))
		if err != nil {
			t.Fatal(err)
		}
		var o struct {
			Result json.RawMessage `json:"result"`
			Error  string          `json:"error"`
		}
		if err := json.Unmarshal(out, &o); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		key := o.Error
		if key == "" {
			key = "result of " + s.call.get("op").plain()
		}
		got[key]++
	}
	want := []string{"result of discover", "result of validate_arguments", "result of mutate_and_repeat", "INVALID_CATALOG", "INVALID_FIELDS",
		"INVALID_LABEL", "DUPLICATE_TOOL", "INVALID_METADATA", "INVALID_SPEC", "UNKNOWN_FAMILY", "TOOL_NOT_AVAILABLE_IN_FAMILY",
		"INVALID_ARGUMENT_KEYS", "INVALID_ARGUMENT_VALUE", "INVALID_JSON"}
	for _, w := range want {
		if got[w] < 3 {
			t.Errorf("%d of %d format-2 calls end in %s, want at least 3 (all: %v)", got[w], calls, w, got)
		}
	}
	t.Logf("%d format-2 calls: %v", calls, got)
}

// TestLimitsChangeAtTheLimit: every limit of the specification in the
// table is where the reference's outcome changes, from the value at the
// limit to the one past it (one over refused for an upper limit, one under
// for a lower one, "the least"); the sizes only a port's number types have
// change nothing in the reference. A limit written one off would
// send calls that test nothing.
func TestLimitsChangeAtTheLimit(t *testing.T) {
	ref := Reference("test")
	g := &gen{r: rand.New(rand.NewPCG(1, 0))}
	portSizes := []string{"n tools listed", "an integer of ", "an exponent of "}
	for _, l := range limits {
		kind := func(n int) string { return callTarget(ref, l.call(g, n).appendJSON(nil)).kind() }
		under, at, over := kind(l.at-1), kind(l.at), kind(l.at+1)
		portSize := slices.ContainsFunc(portSizes, func(p string) bool { return strings.HasPrefix(l.name, p) })
		lower := strings.Contains(l.name, "the least")
		switch {
		case portSize && (under != at || at != over):
			t.Errorf("%s (size %d): one under %s, at %s, one over %s; a port's size changes nothing in the reference", l.name, l.at, under, at, over)
		case portSize:
		case lower && (under == at || at != over):
			t.Errorf("%s (lower limit %d): one under %s, at %s, one over %s; want one under alone refused", l.name, l.at, under, at, over)
		case !lower && (under != at || at == over):
			t.Errorf("%s (limit %d): one under %s, at %s, one over %s; want one over alone refused", l.name, l.at, under, at, over)
		}
	}
}
