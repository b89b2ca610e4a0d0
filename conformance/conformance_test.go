package conformance

import (
	"strings"
	"testing"
)

// TestConformance runs the 21 cases against the built-in Go implementation,
// one subtest per case, named by its id.
func TestConformance(t *testing.T) {
	cases, err := Cases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 21 {
		t.Fatalf("Cases() returned %d cases, want 21", len(cases))
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			rep := (&Runner{Target: GoTarget("test")}).RunCases([]*Case{c})
			if len(rep.Cases) != 1 {
				t.Fatalf("report has %d cases, want 1", len(rep.Cases))
			}
			if res := rep.Cases[0]; res.Status != Pass {
				t.Errorf("%s %s: %s\n%s", res.Status, c.ID, res.Message, checkFailures(res))
			}
		})
	}
}

// TestFormat2Level runs the format 2 level against the Go implementation,
// both forms (the function-level calls and the compiled catalog), one
// subtest per case.
func TestFormat2Level(t *testing.T) {
	cases, err := Format2Cases()
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []Target{GoTarget("test"), CompiledGoTarget("test")} {
		for _, c := range cases {
			t.Run(target.Info().Name+"/"+c.ID, func(t *testing.T) {
				rep := &Report{}
				(&Runner{Target: target}).RunFormat2(rep, []*Case{c})
				if rep.Format2 == nil || len(rep.Format2.Cases) != 1 {
					t.Fatalf("the format 2 level's report is %+v, want 1 case", rep.Format2)
				}
				if res := rep.Format2.Cases[0]; res.Status != Pass {
					t.Errorf("%s %s: %s\n%s", res.Status, c.ID, res.Message, checkFailures(res))
				}
			})
		}
	}
}

// checkFailures renders the checks of a case that did not pass.
func checkFailures(res *CaseResult) string {
	var b strings.Builder
	for _, chk := range res.Checks {
		if chk.Status == Pass {
			continue
		}
		b.WriteString("check " + string(chk.Call) + "\n")
		if chk.Diff != "" {
			b.WriteString("(-want +got):\n" + chk.Diff)
		} else {
			b.WriteString(chk.Message + "\n")
		}
	}
	return b.String()
}
