package zipdiff

import (
	"fmt"
	"strings"

	"github.com/catalogkit/catalogkit/internal/linediff"
)

// maxDiffLines bounds the line diff shown for one entry.
const maxDiffLines = 80

// lineDiff returns the unified diff of two texts as lines, cut after
// maxDiffLines lines with a note of how many more there were.
func lineDiff(a, b []byte) []string {
	out := strings.Split(strings.TrimSuffix(linediff.Unified(a, b), "\n"), "\n")
	if len(out) > maxDiffLines {
		more := len(out) - maxDiffLines
		out = append(out[:maxDiffLines], fmt.Sprintf("… (%d more lines of diff)", more))
	}
	return out
}
