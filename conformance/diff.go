package conformance

import (
	"encoding/json"
	"strings"
)

// LineDiff is the standard-library [DiffFunc]: it writes both values as
// indented JSON (object keys sorted, so their order never shows) and returns
// a line diff, "-" for lines only in want, "+" for lines only in got, " " for
// common lines; "" if the texts are equal.
func LineDiff(want, got any) string {
	a, b := indentLines(want), indentLines(got)
	if strings.Join(a, "\n") == strings.Join(b, "\n") {
		return ""
	}
	// Longest common subsequence, from the end.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString("  " + a[i] + "\n")
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			out.WriteString("- " + a[i] + "\n")
			i++
		default:
			out.WriteString("+ " + b[j] + "\n")
			j++
		}
	}
	return out.String()
}

func indentLines(v any) []string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return []string{"<" + err.Error() + ">"}
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}
