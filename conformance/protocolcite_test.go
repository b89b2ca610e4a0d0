package conformance_test

import (
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/conformance"
)

// TestProtocolCitations resolves the spec field of every protocol case
// against the headings of PROTOCOL.md.
func TestProtocolCitations(t *testing.T) {
	headings := protocolHeadings(t)
	cases, err := conformance.ProtocolCases()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		for _, ref := range strings.Split(c.Spec, "; ") {
			m := citedHeading.FindStringSubmatch(ref)
			if m == nil || !headings[m[1]] {
				t.Errorf("%s: %q is not PROTOCOL.md \"a heading of PROTOCOL.md\"", c.ID, ref)
			}
		}
	}
}
