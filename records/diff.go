package records

import "github.com/catalogkit/catalogkit/internal/shared/linediff"

// lineDiff returns a unified diff of want and got by lines (see package
// linediff).
func lineDiff(want, got []byte) string { return linediff.Unified(want, got) }
