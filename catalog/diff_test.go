package catalog

import (
	"fmt"
	"reflect"
)

// diff returns "" when want and got are deeply equal, and otherwise both
// values as "-want" and "+got" lines, plus the first differing byte for two
// strings. The catalog tests use it instead of go-cmp so that they, like the
// package, need only the standard library: an extracted release re-runs them
// offline with an empty module cache.
func diff(want, got any) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	out := fmt.Sprintf("-%#v\n+%#v\n", want, got)
	if w, ok := want.(string); ok {
		if g, ok := got.(string); ok {
			i := 0
			for i < len(w) && i < len(g) && w[i] == g[i] {
				i++
			}
			out += fmt.Sprintf("first difference at byte %d: want %q, got %q\n", i, w[i:min(len(w), i+20)], g[i:min(len(g), i+20)])
		}
	}
	return out
}
