package zipdiff

import (
	"fmt"
	"io"
)

// WriteText writes the report for a person: the two archives, one line per
// difference (a line diff indented under a content difference), and the
// first differing byte.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "A: %s: %d bytes, %d entries\n", r.A.Name, r.A.Size, r.A.Entries)
	fmt.Fprintf(w, "B: %s: %d bytes, %d entries\n", r.B.Name, r.B.Size, r.B.Entries)
	if r.Identical {
		fmt.Fprintf(w, "identical: the two files have the same bytes\n")
		return
	}
	for _, d := range r.Differences {
		switch d.Kind {
		case KindRemoved:
			fmt.Fprintf(w, "removed:    %s (only in A)\n", d.Entry)
		case KindAdded:
			fmt.Fprintf(w, "added:      %s (only in B)\n", d.Entry)
		case KindArchive:
			fmt.Fprintf(w, "archive:    %s: %s -> %s\n", d.Field, d.A, d.B)
		case KindOrder:
			fmt.Fprintf(w, "order:      %s: %s in A, %s in B\n", d.Field, d.A, d.B)
		case KindHeader:
			fmt.Fprintf(w, "header:     %s: %s: %s -> %s\n", d.Entry, d.Field, d.A, d.B)
		default:
			fmt.Fprintf(w, "%-11s %s: %s -> %s\n", string(d.Kind)+":", d.Entry, d.A, d.B)
		}
		for _, l := range d.Diff {
			fmt.Fprintf(w, "            %s\n", l)
		}
	}
	if len(r.Differences) == 0 {
		fmt.Fprintf(w, "no entry or field differs, yet the bytes do\n")
	}
	fmt.Fprintf(w, "first differing byte: offset %d (%#x), in %s\n", r.FirstDiff, r.FirstDiff, r.FirstDiffIn)
}
