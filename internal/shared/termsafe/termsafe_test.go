package termsafe

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrintable(t *testing.T) {
	tests := []struct {
		reason, in, want, wantLines string
	}{
		{"plain text is returned as it is", "catalog/json.go", "catalog/json.go", "catalog/json.go"},
		{"C0 controls and DEL are \\x escapes", "a\x1b[31mb\x7f", `a\x1b[31mb\x7f`, `a\x1b[31mb\x7f`},
		{"newline and tab are kept only in lines", "a\nb\tc", `a\x0ab\x09c`, "a\nb\tc"},
		{"C1 controls are \\u escapes", "a\u0085b\u009b", `a\u0085b\u009b`, `a\u0085b\u009b`},
		{"bidirectional formatting is escaped", "evil\u202etxt.go\u2066", `evil\u202etxt.go\u2066`, `evil\u202etxt.go\u2066`},
		{"each byte of invalid UTF-8 is \\x", "a\xff\xfeb", `a\xff\xfeb`, `a\xff\xfeb`},
		{"other non-ASCII text passes", "café ✓", "café ✓", "café ✓"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Printable(tt.in)); diff != "" {
			t.Errorf("%s: Printable(%q) (-want +got):\n%s", tt.reason, tt.in, diff)
		}
		if diff := cmp.Diff(tt.wantLines, PrintableLines(tt.in)); diff != "" {
			t.Errorf("%s: PrintableLines(%q) (-want +got):\n%s", tt.reason, tt.in, diff)
		}
	}
}

func TestJSON(t *testing.T) {
	in := map[string]string{"entry": "a\u0085b\u202ec\x7fd\x1be"}
	doc, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := JSON(doc)
	for _, r := range string(got) {
		if Unsafe(r) {
			t.Fatalf("JSON(%s) = %s: raw %+q left", doc, got, r)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("JSON output does not decode: %v\n%s", err, got)
	}
	if diff := cmp.Diff(in, back); diff != "" {
		t.Errorf("escaped JSON decodes to other values (-want +got):\n%s", diff)
	}
}

// TestCut: a prefix at a character boundary, never over n bytes, and s
// itself when it fits.
func TestCut(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abc", 5, "abc"},
		{"abc", 2, "ab"},
		{"aé", 2, "a"},  // é is 2 bytes: not cut in half
		{"a😀b", 4, "a"}, // 4-byte emoji at 1..4
		{"a😀b", 5, "a😀"},
		{"😀", 0, ""},
		{"\xff\xfe", 1, "\xff"}, // invalid bytes each start a "character"
	} {
		if got := Cut(tt.s, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
		if got := string(Cut([]byte(tt.s), tt.n)); got != tt.want {
			t.Errorf("Cut([]byte(%q), %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
