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
