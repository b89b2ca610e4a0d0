package linediff

import (
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	tests := []struct {
		name      string
		want, got string
		diff      string
		reason    string
	}{
		{
			name:   "equal",
			want:   lines("a", "b"),
			got:    lines("a", "b"),
			diff:   "",
			reason: "no hunks",
		},
		{
			name: "one line changed",
			want: lines("1", "2", "3", "4", "5", "6", "7"),
			got:  lines("1", "2", "3", "x", "5", "6", "7"),
			diff: lines(
				"@@ -2,5 +2,5 @@",
				" 2", " 3", "-4", "+x", " 5", " 6"),
			reason: "two lines of context each side; removals before additions",
		},
		{
			name: "two changes close together share a hunk",
			want: lines("1", "2", "3", "4", "5", "6", "7", "8"),
			got:  lines("x", "2", "3", "4", "5", "y", "7", "8"),
			diff: lines(
				"@@ -1,8 +1,8 @@",
				"-1", "+x", " 2", " 3", " 4", " 5", "-6", "+y", " 7", " 8"),
			reason: "at most 2×2 unchanged lines between changes keep one hunk",
		},
		{
			name: "two changes far apart",
			want: lines("1", "2", "3", "4", "5", "6", "7", "8", "9"),
			got:  lines("x", "2", "3", "4", "5", "6", "7", "8", "y"),
			diff: lines(
				"@@ -1,3 +1,3 @@",
				"-1", "+x", " 2", " 3",
				"@@ -7,3 +7,3 @@",
				" 7", " 8", "-9", "+y"),
			reason: "more than four unchanged lines between changes split the hunks",
		},
		{
			name:   "lines added to an empty file",
			want:   "",
			got:    lines("a"),
			diff:   lines("@@ -0,0 +1,1 @@", "+a"),
			reason: "an empty side starts at line 0, as in unified diffs",
		},
		{
			name:   "missing final newline",
			want:   lines("a"),
			got:    "a",
			diff:   lines("@@ -1,1 +1,1 @@", "-a", "+a", `\ No newline at end of file`),
			reason: "a change only in the final newline is visible",
		},
		{
			name:   "carriage returns",
			want:   lines("a"),
			got:    "a\r\n",
			diff:   lines("@@ -1,1 +1,1 @@", "-a", `+a\r`),
			reason: "a CRLF line end is visible",
		},
		{
			name: "inserted line",
			want: lines("a", "b", "c"),
			got:  lines("a", "b", "new", "c"),
			diff: lines(
				"@@ -1,3 +1,4 @@",
				" a", " b", "+new", " c"),
			reason: "an insertion keeps the lines around it",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unified([]byte(tt.want), []byte(tt.got)); got != tt.diff {
				t.Errorf("Unified (%s):\n got:\n%s\nwant:\n%s", tt.reason, got, tt.diff)
			}
		})
	}
}

// TestUnifiedLarge: past the work bound, the changed middle is shown whole
// rather than computed slowly.
func TestUnifiedLarge(t *testing.T) {
	var a, b strings.Builder
	for i := range 3000 {
		a.WriteString("a" + strings.Repeat("x", i%7) + "\n")
		b.WriteString("b" + strings.Repeat("x", i%7) + "\n")
	}
	d := Unified([]byte(a.String()), []byte(b.String()))
	if n := strings.Count(d, "\n-"); n != 3000 {
		t.Errorf("got %d removed lines, want 3000", n)
	}
	if i, j := strings.LastIndex(d, "\n-"), strings.Index(d, "\n+"); i > j {
		t.Error("removed and added lines are interleaved, want all removals first")
	}
	if !strings.HasPrefix(d, "@@ -1,3000 +1,3000 @@\n") {
		t.Errorf("diff starts %q", d[:40])
	}
}

func TestFull(t *testing.T) {
	for _, tt := range []struct {
		a, b         []string
		want, reason string
	}{
		{[]string{"x", "y"}, []string{"x", "y"}, "  x\n  y\n", "equal: every line kept"},
		{[]string{"{", `"a": 1`, "}"}, []string{"{", `"a": 2`, "}"}, "  {\n- \"a\": 1\n+ \"a\": 2\n  }\n", "a changed line: removal before addition"},
		{nil, []string{"new"}, "+ new\n", "only added"},
		{[]string{"old"}, nil, "- old\n", "only removed"},
	} {
		if got := Full(tt.a, tt.b); got != tt.want {
			t.Errorf("Full(%q, %q) = %q, want %q (%s)", tt.a, tt.b, got, tt.want, tt.reason)
		}
	}
}

// TestFullBounded: a reply of a million lines against a want of a hundred
// costs no 100-million-cell table: past maxDiffCells the middle is shown
// as removed, then added.
func TestFullBounded(t *testing.T) {
	a := make([]string, 100)
	b := make([]string, 1_000_000)
	for i := range a {
		a[i] = "want"
	}
	for i := range b {
		b[i] = "got"
	}
	got := Full(a, b)
	if want := len(a)*len("- want\n") + len(b)*len("+ got\n"); len(got) != want || !strings.HasPrefix(got, "- want\n") {
		t.Errorf("Full of 100 and 1,000,000 lines: %d bytes starting %q, want %d bytes of removals then additions", len(got), got[:min(len(got), 20)], want)
	}
}
