package fuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/conformance"
)

// The gates of conform --fuzz: it finds and shrinks every broken port, and
// finds nothing in our own ports. Their budgets are fixed, so they stay
// seconds to a minute on two cores.
const (
	gateSeed         = 1
	brokenPortBudget = 3000 // calls to find a broken port's bug
	ownPortBudget    = 3000 // calls that must find nothing
	gateShrinkBudget = 3000
)

var (
	brokenDir  = filepath.Join("..", "ports", "broken")
	pythonPort = filepath.Join("..", "ports", "python", "catalog_port.py")
)

// python3 returns the path of python3, or skips the test loudly; under
// CI=true a missing python3 is a broken CI image, so the test fails.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err == nil {
		return p
	}
	msg := fmt.Sprintf("python3 not found (%v): the Python ports were NOT fuzzed", err)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	fmt.Fprintf(os.Stderr, "WARNING: %s: %s\n", t.Name(), msg)
	t.Skip(msg)
	return ""
}

func pythonTarget(t *testing.T, py, script string) func() Target {
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	return func() Target { return &conformance.Port{Command: []string{py, abs}, Env: env} }
}

// TestFuzzFindsBrokenPorts fuzzes every port in ports/broken (whatever is
// there: ports added later are covered too). Each must disagree within the
// budget; its first disagreement must shrink to at most 2 tools and 3
// fields (a bug that shows only over the 30-field limit keeps its one wide
// tool), and the case file written for it must fail against the port and
// pass against the built-in implementation.
func TestFuzzFindsBrokenPorts(t *testing.T) {
	py := python3(t)
	scripts, err := filepath.Glob(filepath.Join(brokenDir, "*.py"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) == 0 {
		t.Fatalf("no broken ports in %s", brokenDir)
	}
	for _, script := range scripts {
		name := strings.TrimSuffix(filepath.Base(script), ".py")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			newTarget := pythonTarget(t, py, script)
			res, err := Run(context.Background(), Options{
				Calls: brokenPortBudget, Seed: gateSeed, StopAtFirst: true, ShrinkBudget: gateShrinkBudget, NewTarget: newTarget,
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
			if tools > 2 || fields > 3 && !overLimit {
				// Some bugs need more (three tools to interleave two
				// families): then no tool can go.
				if needed := toolsNeeded(t, newTarget, cx); needed != tools {
					t.Errorf("%s (%s) shrank to %d tools and %d fields, want at most 2 and 3 (only %d tools are needed): %s", cx.ID, cx.Kind, tools, fields, needed, cx.Call)
				}
				t.Logf("%s needs all %d tools of its catalog", cx.ID, tools)
			}
			dir := t.TempDir()
			if _, err := WriteCases(dir, res.Port, res.Counterexamples); err != nil {
				t.Fatal(err)
			}
			suite, err := LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			port := newTarget()
			defer port.Close()
			if rep := RunSuite(port, suite, nil); rep.Failed != 1 {
				t.Errorf("the written case against the port: %s, want 1 failed", rep.Summary())
			}
			if rep := RunSuite(Reference("test"), suite, nil); rep.Passed != 1 {
				t.Errorf("the written case against the built-in implementation: %s, want 1 passed", rep.Summary())
			}
			t.Logf("call %d: %s; shrunk in %d calls to %s", cx.Index, cx.Kind, cx.Tries, cx.Call)
		})
	}
}

// TestFuzzOwnPorts fuzzes catalogkit port and the Python port with a fixed
// budget: neither may disagree with the built-in implementation.
func TestFuzzOwnPorts(t *testing.T) {
	for _, p := range []struct {
		name      string
		newTarget func(t *testing.T) func() Target
	}{
		{"go", func(t *testing.T) func() Target { return goPort(t) }},
		{"python", func(t *testing.T) func() Target { return pythonTarget(t, python3(t), pythonPort) }},
	} {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			res, err := Run(context.Background(), Options{Calls: ownPortBudget, Seed: gateSeed, Jobs: 2, NewTarget: p.newTarget(t)})
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
func toolsNeeded(t *testing.T, newTarget func() Target, cx *Counterexample) int {
	n, err := parse(cx.Call)
	if err != nil {
		t.Fatal(err)
	}
	inner := n
	if c := n.get("call"); c != nil {
		inner = c
	}
	cat := inner.get("catalog")
	port := newTarget()
	defer port.Close()
	needed := 0
	for i := range cat.items {
		all := cat.items
		cat.items = append(all[:i:i], all[i+1:]...)
		call := n.appendJSON(nil)
		cat.items = all
		want, got := callTarget(Reference("test"), call), callTarget(port, call)
		if v, _ := compare(want.text, got, nil); v != disagree || kindOf(want, got) != cx.Kind {
			needed++
		}
	}
	return needed
}

// parse reads JSON text into a node, for tests: strings are re-escaped,
// numbers keep their literals, members their order.
func parse(text []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var value func() (*node, error)
	value = func() (*node, error) {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch v := tok.(type) {
		case json.Delim:
			n := array()
			if v == '{' {
				n = object()
			}
			for dec.More() {
				if v == '{' {
					k, err := dec.Token()
					if err != nil {
						return nil, err
					}
					val, err := value()
					if err != nil {
						return nil, err
					}
					n.set(k.(string), val)
					continue
				}
				it, err := value()
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, it)
			}
			_, err := dec.Token() // the closing delimiter
			return n, err
		case string:
			return str(v), nil
		case json.Number:
			return number(string(v)), nil
		case bool:
			return boolean(v), nil
		}
		return null(), nil
	}
	return value()
}
