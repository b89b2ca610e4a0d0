package zipdiff

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

// minGroup is the fewest entries whose difference of one kind, field and
// values WriteText prints as one line.
const minGroup = 4

// WriteText writes the report for a person: the two archives, one line per
// difference (a note and a line diff indented under it), and the first
// differing byte. A difference that many entries share (the same field,
// changed the same way) is one line that counts them; the JSON report lists
// each. Every string an archive controls is escaped by
// [termsafe.Printable], so that no control character, bidirectional
// formatting character or invalid UTF-8 reaches the terminal. Its error is
// the first that writing to w returned.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	r.writeText(bw)
	return bw.Flush()
}

func (r *Report) writeText(w io.Writer) {
	p := termsafe.Printable
	fmt.Fprintf(w, "A: %s: %d bytes, %d entries\n", p(r.A.Name), r.A.Size, r.A.Entries)
	fmt.Fprintf(w, "B: %s: %d bytes, %d entries\n", p(r.B.Name), r.B.Size, r.B.Entries)
	if r.Identical {
		fmt.Fprintf(w, "identical: the two files have the same bytes\n")
		return
	}
	groups := map[groupKey][]int{}
	for i, d := range r.Differences {
		if k, ok := keyOf(d); ok {
			groups[k] = append(groups[k], i)
		}
	}
	for i, d := range r.Differences {
		k, ok := keyOf(d)
		if g := groups[k]; ok && len(g) >= minGroup {
			if g[0] == i {
				r.writeGroup(w, d, g)
			}
			continue
		}
		entry := p(d.Entry)
		if d.Occurrence > 0 {
			entry += fmt.Sprintf(" (occurrence %d)", d.Occurrence)
		}
		switch d.Kind {
		case KindRemoved:
			fmt.Fprintf(w, "removed:    %s (only in A)\n", entry)
		case KindAdded:
			fmt.Fprintf(w, "added:      %s (only in B)\n", entry)
		case KindDuplicate:
			fmt.Fprintf(w, "duplicate:  %s: the name of %s in A, of %s in B\n", entry, p(d.A), p(d.B))
		case KindArchive:
			fmt.Fprintf(w, "archive:    %s: %s -> %s\n", p(d.Field), p(d.A), p(d.B))
		case KindOrder:
			fmt.Fprintf(w, "order:      %s: %s in A, %s in B\n", p(d.Field), p(d.A), p(d.B))
		case KindHeader:
			fmt.Fprintf(w, "header:     %s: %s: %s -> %s\n", entry, p(d.Field), p(d.A), p(d.B))
		default:
			fmt.Fprintf(w, "%-11s %s: %s -> %s\n", string(d.Kind)+":", entry, p(d.A), p(d.B))
		}
		if d.Note != "" {
			fmt.Fprintf(w, "            %s\n", p(d.Note))
		}
		for _, l := range d.Diff {
			fmt.Fprintf(w, "            %s\n", termsafe.PrintableLines(l))
		}
	}
	if r.Omitted > 0 {
		fmt.Fprintf(w, "… and %d more differences, not listed or counted above (a report lists at most %d)\n", r.Omitted, maxDifferences)
	}
	if len(r.Differences) == 0 {
		fmt.Fprintf(w, "no entry or field differs, yet the bytes do\n")
	}
	fmt.Fprintf(w, "first differing byte: offset %d (%#x), in %s\n", r.FirstDiff, r.FirstDiff, p(r.FirstDiffIn))
}

// A groupKey is what the differences WriteText prints as one line share.
type groupKey struct {
	kind             Kind
	field, a, b, not string
}

func keyOf(d Difference) (groupKey, bool) {
	switch d.Kind {
	case KindHeader, KindMode, KindUnreadable, KindData:
		return groupKey{d.Kind, d.Field, d.A, d.B, d.Note}, true
	case KindRemoved, KindAdded:
		return groupKey{kind: d.Kind}, true
	case KindCompressed:
		// The sizes and hashes are the entry's own; whose compressor
		// made them is shared.
		return groupKey{kind: d.Kind, not: d.Note}, true
	}
	return groupKey{}, false
}

// writeGroup writes the differences at indexes g, which d begins, as one.
func (r *Report) writeGroup(w io.Writer, d Difference, g []int) {
	p := termsafe.Printable
	n := fmt.Sprintf("%d entries", len(g))
	if len(g) == r.common {
		n = "all " + n
	}
	kind := fmt.Sprintf("%-11s", string(d.Kind)+":")
	switch d.Kind {
	case KindHeader:
		fmt.Fprintf(w, "%s %s: %s: %s -> %s\n", kind, n, p(d.Field), p(d.A), p(d.B))
	case KindCompressed:
		fmt.Fprintf(w, "%s %s: the same content, other compressed bytes\n", kind, n)
	case KindRemoved:
		fmt.Fprintf(w, "%s %s (only in A)\n", kind, n)
	case KindAdded:
		fmt.Fprintf(w, "%s %s (only in B)\n", kind, n)
	default:
		fmt.Fprintf(w, "%s %s: %s -> %s\n", kind, n, p(d.A), p(d.B))
	}
	if d.Note != "" {
		fmt.Fprintf(w, "            %s\n", p(d.Note))
	}
	if len(g) == r.common {
		return
	}
	var names []string
	for _, i := range g[:min(3, len(g))] {
		e := r.Differences[i]
		s := p(e.Entry)
		if e.Occurrence > 0 {
			s += fmt.Sprintf(" (occurrence %d)", e.Occurrence)
		}
		names = append(names, s)
	}
	list := strings.Join(names, ", ")
	if len(g) > 3 {
		list += fmt.Sprintf(", and %d more", len(g)-3)
	}
	fmt.Fprintf(w, "            %s\n", list)
}

// WriteJSON writes the report as indented JSON. Beyond what encoding/json
// escapes, it writes C1 control characters, DEL and bidirectional
// formatting characters as \u escapes, so that the JSON too is safe to
// print on a terminal.
func (r *Report) WriteJSON(w io.Writer) error {
	return termsafe.WriteJSON(w, r)
}

// displayName returns name as a report shows it: as is if it is UTF-8,
// else with each invalid byte written as \xff.
func displayName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == utf8.RuneError && size <= 1 {
			fmt.Fprintf(&b, `\x%02x`, name[i])
		} else {
			b.WriteString(name[i : i+size])
		}
		i += size
	}
	return b.String()
}
