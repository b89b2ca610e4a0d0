package fuzzgate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/conformance"
	"github.com/catalogkit/catalogkit/conformance/fuzz"
	"github.com/catalogkit/catalogkit/internal/testlib/skipreport"
)

// The gates of conform --fuzz: it finds and shrinks every broken port, and
// finds nothing in our own ports. Their budgets are fixed: about 75 s of CPU
// in all, most of it starting Python (four to five starts a broken port, at
// about 0.5 s of CPU each).
const (
	gateSeed         = 1
	brokenPortBudget = 4000 // calls to find a broken port's bug
	ownPortBudget    = 3000 // calls that must find nothing
	gateShrinkBudget = 3000
	// A sequence's shrink starts a port for every try: a Python start costs
	// about 0.1 s of CPU, far more on a loaded machine.
	gateSequenceBudget = 40
	maxSequenceSteps   = 3
)

var (
	brokenDir  = filepath.Join("..", "..", "..", "conformance", "testdata", "broken-ports")
	pythonPort = filepath.Join("..", "..", "..", "conformance", "ports", "python", "catalog_port.py")
)

// python3 returns the path of python3, or skips the test loudly (in the
// skip report); under CI=true a missing python3 fails the test.
func python3(t *testing.T) string {
	return skipreport.Tool(t, "python3", "internal/suites/fuzzgate: python3 is not installed, so the Python ports were NOT fuzzed; install it: sudo apt-get install python3")
}

func pythonTarget(t *testing.T, py, script string) func() fuzz.Target {
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	// A loaded CI machine may take seconds to start Python.
	return func() fuzz.Target {
		return &conformance.Port{Command: []string{py, abs}, Env: env, StartupTimeout: time.Minute, CallTimeout: 30 * time.Second}
	}
}

// notFuzzed are the broken ports only a case catches, and why the fuzzer
// cannot: each must still be in testdata/broken-ports.
var notFuzzed = map[string]string{
	"hello_reply_seq":              "its bug is in the answer to a first hello carrying a seq, and the fuzzer's hello never carries one (protocol.hello.first-with-seq catches it)",
	"catalog_cache_hashcode":       "its bug needs two catalogs whose texts have the same Java hashCode, which drawn catalogs almost never have (protocol.state.hash-collision catches it)",
	"hello_mismatch_not_greeted":   "its bug follows a hello asking for another protocol version, and the fuzzer's hello always asks for the runner's own (protocol.hello.other-version-then-hello catches it)",
	"exit_after_mismatch":          "its bug follows a hello asking for another protocol version, and the fuzzer's hello always asks for the runner's own (protocol.hello.other-version-then-hello catches it)",
	"hello_lenient_parse":          "its bug is in a hello line the text layer refuses, and the fuzzer's hello is always valid (protocol.hello.refused catches it)",
	"greeting_checked_at_dispatch": "its bug needs a call before the hello, and the fuzzer always says hello first (protocol.hello.unknown-op-before catches it)",
	"validate_memo_swift_string":   "its bug needs two calls whose strings differ but are canonically equivalent, and a twin changes no string (protocol.state.canonical-equivalence catches it)",
	"retransmit_same_seq":          "its bug needs two calls with the same seq, and the fuzzer numbers its lines 1, 2, 3, ... (protocol.seq.repeated catches it)",
	"long_line_chunked":            "its bug shows only in a line over 32 MiB + 2 bytes, and the fuzzer's lines stay small (protocol.line-limit.over-by-mib catches it)",
	"replies_as_completed":         "its bug depends on thread timing: the fuzzer finds disagreements (320 in seed 1's 3000 calls by hand), but none happens again on a fresh port, so none shrinks to a case (protocol.line-limit.pipelined catches it)",
	"empty_string_unset":           `its bug needs "" as the one bad value of a call that is valid but for it, for an integer or boolean field; seed 1's 4000 calls hold empty strings, but for string fields or beside another error with the same code (text.string.empty-for-integer.arguments catches it)`,
	"optional_null_absent":         "its bug needs null as the one bad value of a call that is valid but for it, for an optional field; seed 1's 4000 calls do not happen to draw one (validate.values.integer-and-boolean catches it)",
	"type_in_prototype":            `its bug needs a field type that is a built-in property name, and the fuzzer's bad types are near-misses of the three ("str", "String", "number", ...) (text.catalog.type-constructor catches it)`,
	"c_escape_table":               "its bug needs a string holding U+0007 or U+000B in a place the reply echoes (an argument of a shape-valid call); the fuzzer writes both as breaks of strings, but in seed 1's 4000 calls none lands where it is echoed (text.echo.controls-low.arguments catches it)",
	"result_escapes_apostrophe":    "its bug needs a string holding an apostrophe in a place the reply echoes; the fuzzer writes one as a break of strings, but in seed 1's 4000 calls none lands where it is echoed (text.echo.punctuation.arguments catches it)",
	"detail_utf16_cut_64":          "its bug needs a bad name over 64 UTF-16 units with an emoji across the 64th, and the fuzzer's long labels are ASCII (text.name.astral-run-odd.validate catches it)",
	"line_limit_chars":             "its bug shows only in a line of over 32 MiB, and the fuzzer's lines stay small so that a run of thousands of calls takes seconds (protocol.line-limit.over-multibyte catches it)",
	"exit_status_last_error":       "its bug is in its exit status, and the fuzzer never ends a session on a line it chooses (protocol.last-line.error-line catches it)",
	"eof_blank_tail_dropped":       "its bug is in the last line of a session, and the fuzzer never ends a session on a line it chooses (protocol.last-line.blank-no-newline catches it)",
	"hello_echoes_protocol":        "its bug is in the answer to a hello asking for another protocol version, and the fuzzer's hello always asks for the runner's own (protocol.hello.other-version catches it)",
	"validate_uses_family":         "its bug needs a family member in a validate_arguments call, which the fuzzer never writes (text.member.family-in-validate catches it)",
	"key_trimmed":                  "its bug needs an argument key that is a field's name with white space around it, which the fuzzer does not write (text.distinct-key.trailing-space.arguments catches it)",
	"tool_keys_trimmed":            "its bug needs a tool or field spec key with white space around it in place of the key itself, which the fuzzer does not write (catalog.polluted.extra-key#21,22 catches it)",
	"keys_nfkc":                    "its bug needs an argument key that is a compatibility form of a field's name (full-width letters, a ligature), which the fuzzer does not write (validate.keys.unknown#19 catches it)",
	"inner_op_loose_null":          "its bug needs a mutate_and_repeat whose inner op is a number or a boolean, and the fuzzer's mutate_and_repeat corners hold an inner call, an unknown op or a non-object (protocol.mutate-and-repeat.inner-op-number catches it)",
	"spec_null_zero":               "its bug needs a field spec that is null in a call that meets it first; seed 1 drew one on a turn that now carries a format-2 call, and its 4000 calls draw no other (text.null.spec.catalog catches it)",
	"hello_needs_protocol":         "its bug is in the first line of a session, and every session the fuzzer starts begins with the runner's own hello; a second hello of any shape gets the same error line from it as from a correct port (protocol.hello.first-no-protocol catches it)",
	"refusal_seq_int64":            "its corner, a refused line with a 30-digit seq, is one of the 40 the fuzzer draws for 3 calls in 100, and seed 1's 4000 calls do not happen to send it (protocol.refused.seq-readable-huge catches it)",
}

// TestFuzzFindsBrokenPorts fuzzes every port in testdata/broken-ports (whatever is
// there: ports added later are covered too) but those of notFuzzed. Each must disagree within the
// budget; its first disagreement must shrink to at most 2 tools and 3
// fields (a bug that shows only over the 30-field limit keeps its one wide
// tool), and the case file written for it must fail against the port and
// pass against the built-in implementation.
func TestFuzzFindsBrokenPorts(t *testing.T) {
	py := python3(t)
	scripts, err := filepath.Glob(filepath.Join(brokenDir, "[^_]*.py"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) == 0 {
		t.Fatalf("no broken ports in %s", brokenDir)
	}
	for name := range notFuzzed {
		if !slices.Contains(scripts, filepath.Join(brokenDir, name+".py")) {
			t.Errorf("notFuzzed names %s, which is not in %s", name, brokenDir)
		}
	}
	for _, script := range scripts {
		name := strings.TrimSuffix(filepath.Base(script), ".py")
		if why, ok := notFuzzed[name]; ok {
			t.Logf("%s: not fuzzed: %s", name, why)
			continue
		}
		if testing.Short() && !shortSample[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			newTarget := pythonTarget(t, py, script)
			res, err := fuzz.Run(context.Background(), fuzz.Options{
				Calls: brokenPortBudget, Seed: gateSeed, StopAtFirst: true, ShrinkBudget: gateShrinkBudget, SequenceBudget: gateSequenceBudget,
				NewTarget: newTarget,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Counterexamples) == 0 {
				t.Fatalf("no disagreement in %d calls of seed %d: fuzzing does not find this port's bug", res.Calls, gateSeed)
			}
			cx := res.Counterexamples[0]
			tools, fields, widest := callShape(t, cx.Call)
			overLimit := tools == 1 && widest == fields && fields > 30
			if steps := cx.Steps(); steps != nil {
				// A port with state between calls: the run of calls must
				// shrink to a few, on one fresh port.
				if len(steps) > maxSequenceSteps {
					t.Errorf("%s (%s) shrank to a sequence of %d calls, want at most %d", cx.ID, cx.Kind, len(steps), maxSequenceSteps)
				}
				t.Logf("sequence of %d calls (from %d, %d port starts)", len(steps), cx.History, cx.Tries)
			} else if tools > 2 || fields > 3 && !overLimit {
				// Some bugs need more (three tools to interleave two
				// families): then no tool can go.
				if needed := toolsNeeded(t, newTarget, cx); needed != tools {
					t.Errorf("%s (%s) shrank to %d tools and %d fields, want at most 2 and 3 (only %d tools are needed): %s", cx.ID, cx.Kind, tools, fields, needed, cx.Call)
				}
				t.Logf("%s needs all %d tools of its catalog", cx.ID, tools)
			}
			dir := t.TempDir()
			if _, err := fuzz.WriteCases(dir, res.Port, res.Counterexamples); err != nil {
				t.Fatal(err)
			}
			data, text, err := cx.CaseFile(res.Port)
			if err != nil {
				t.Fatal(err)
			}
			checkCaseFile(t, cx, data, text)
			suite, err := fuzz.LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if rep := fuzz.RunSuite(func() conformance.Target { return newTarget() }, suite, nil); failed(rep) != 1 {
				t.Errorf("the written case against the port: %s, want 1 failed", rep.Summary())
			}
			if rep := fuzz.RunSuite(func() conformance.Target { return fuzz.Reference("test") }, suite, nil); passed(rep) != 1 || !rep.OK() {
				t.Errorf("the written case against the built-in implementation: %s, want 1 passed", rep.Summary())
			}
			t.Logf("call %d: %s; shrunk in %d calls to %s (text case: %v)", cx.Index, cx.Kind, cx.Tries, cx.Call, text)
		})
	}
}

// shortSample are the broken ports the short tier fuzzes, to show the gate
// at work in a minute's loop (one contract bug, one text bug); make test
// fuzzes them all.
var shortSample = map[string]bool{"int_digits_limit": true, "field_label_64": true}

// TestFuzzOwnPorts fuzzes catalogkit port and the Python port with a fixed
// budget: neither may disagree with the built-in implementation.
func TestFuzzOwnPorts(t *testing.T) {
	for _, p := range []struct {
		name      string
		newTarget func(t *testing.T) func() fuzz.Target
	}{
		{"go", func(t *testing.T) func() fuzz.Target { return goPort(t) }},
		{"python", func(t *testing.T) func() fuzz.Target { return pythonTarget(t, python3(t), pythonPort) }},
	} {
		t.Run(p.name, func(t *testing.T) {
			if testing.Short() && p.name == "python" {
				t.Skip("the Python port under the fuzzer: make test runs it")
			}
			t.Parallel()
			res, err := fuzz.Run(context.Background(), fuzz.Options{Calls: ownPortBudget, Seed: gateSeed, Jobs: 2, NewTarget: p.newTarget(t)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Calls != ownPortBudget || res.Skipped != 0 {
				t.Errorf("%d calls compared, %d skipped; want %d and 0", res.Calls, res.Skipped, ownPortBudget)
			}
			for _, cx := range res.Counterexamples {
				t.Errorf("%s: %s\ncall: %s\n%s%s", cx.ID, cx.Kind, cx.Call, cx.Check.Diff, cx.Check.Message)
			}
		})
	}
}

// toolsNeeded returns how many tools of cx's catalog the disagreement
// needs: those without which the call no longer disagrees in the same way.
func toolsNeeded(t *testing.T, newTarget func() fuzz.Target, cx *fuzz.Counterexample) int {
	port := newTarget()
	defer port.Close()
	needed := 0
	for i := range toolCount(t, cx.Call) {
		if fuzz.Disagreement(fuzz.Reference("test"), port, withoutTool(t, cx.Call, i)) != cx.Kind {
			needed++
		}
	}
	return needed
}

// withoutTool returns call without tool i of its catalog (the inner call's,
// for mutate_and_repeat). Members of the call object may change order, which
// means nothing; everything inside them is kept as written.
func withoutTool(t *testing.T, call []byte, i int) []byte {
	var c map[string]json.RawMessage
	if err := json.Unmarshal(call, &c); err != nil {
		t.Fatal(err)
	}
	if inner, ok := c["call"]; ok {
		c["call"] = withoutTool(t, inner, i)
	} else {
		var cat []json.RawMessage
		if err := json.Unmarshal(c["catalog"], &cat); err != nil {
			t.Fatal(err)
		}
		c["catalog"], _ = json.Marshal(append(cat[:i:i], cat[i+1:]...))
	}
	out, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func toolCount(t *testing.T, call []byte) int {
	tools, _, _ := callShape(t, call)
	return tools
}

// callShape counts the tools and fields of a shrunk call's catalog.
func callShape(t *testing.T, call []byte) (tools, fields, widest int) {
	var c struct {
		Call    json.RawMessage
		Catalog json.RawMessage
	}
	if err := json.Unmarshal(call, &c); err != nil {
		return 0, 0, 0 // a text-level call: its shape is its text
	}
	if c.Call != nil {
		return callShape(t, c.Call)
	}
	var cat []struct {
		Fields      json.RawMessage
		InputSchema struct {
			Properties json.RawMessage
		}
	}
	if json.Unmarshal(c.Catalog, &cat) != nil {
		// Format 2: the tools are a member, a field is a property of an
		// input schema.
		var cat2 struct{ Tools json.RawMessage }
		if json.Unmarshal(c.Catalog, &cat2) != nil || json.Unmarshal(cat2.Tools, &cat) != nil {
			return 0, 0, 0
		}
	}
	for _, tool := range cat {
		var f map[string]json.RawMessage
		json.Unmarshal(tool.Fields, &f)
		if f == nil {
			json.Unmarshal(tool.InputSchema.Properties, &f)
		}
		fields += len(f)
		widest = max(widest, len(f))
	}
	return len(cat), fields, widest
}

// failed and passed count the cases of a report, contract and text cases.
func failed(rep *conformance.Report) int {
	n := rep.Failed
	if rep.Text != nil {
		n += rep.Text.Failed
	}
	return n
}

func passed(rep *conformance.Report) int {
	n := rep.Passed
	if rep.Text != nil {
		n += rep.Text.Passed
	}
	return n
}
