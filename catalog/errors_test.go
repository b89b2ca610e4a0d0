package catalog

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestQuoteShort checks that a message quotes a long user string cut, with
// its length, and a short one whole.
func TestQuoteShort(t *testing.T) {
	long := strings.Repeat("é", 60) // 120 bytes
	for _, tt := range []struct{ in, want, reason string }{
		{"page.read", `"page.read"`, "a short string is quoted whole"},
		{long, strconv.Quote(strings.Repeat("é", 50)) + "… (120 bytes)", "a long one is cut at a character boundary, with its length"},
	} {
		if got := quoteShort(tt.in); got != tt.want {
			t.Errorf("quoteShort(%.20q…) = %s, want %s (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
	_, err := ValidateArguments(mustJSON(t, `[]`), mustJSON(t, `"`+strings.Repeat("A", 1<<20)+`"`), Value{})
	if err == nil || len(err.Error()) > 400 {
		t.Errorf("a 1 MiB name gives an error of %d bytes, want a short one: %.200v", len(fmt.Sprint(err)), err)
	}
}
