// Package linediff shows how two texts differ, line by line: in
// unified-diff hunks, the diff behind a stale record (package records) and
// behind a text entry that differs between two archives (package zipdiff);
// in full, the diff of a failed conformance check (package conformance).
package linediff

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 2

// maxDiffCells bounds the work of the line diff (lines × lines, after the
// common beginning and end are set aside); beyond it, the changed middle is
// shown as all removed, then all added.
const maxDiffCells = 1 << 22

type diffOp struct {
	kind byte // ' ', '-' or '+'
	line string
}

// Unified returns a diff of want and got by lines, in unified-diff hunks:
// "-" marks lines only in want, "+" lines only in got, " " lines in both. A
// line without a final newline is followed by "\ No newline at end of file";
// a carriage return is shown as \r so that line-end changes are visible.
func Unified(want, got []byte) string {
	ops := diffLines(splitLines(string(want)), splitLines(string(got)))
	var b strings.Builder
	for start := 0; start < len(ops); {
		// Find the next change, and the end of the hunk around it: the
		// hunk ends where more than 2*diffContext unchanged lines follow.
		first := start
		for first < len(ops) && ops[first].kind == ' ' {
			first++
		}
		if first == len(ops) {
			break
		}
		end := first
		for i := first; i < len(ops); i++ {
			if ops[i].kind != ' ' {
				end = i + 1
			} else if i-end >= 2*diffContext {
				break
			}
		}
		lo := max(first-diffContext, start)
		hi := min(end+diffContext, len(ops))
		writeHunk(&b, ops, lo, hi)
		start = hi
	}
	return b.String()
}

func writeHunk(b *strings.Builder, ops []diffOp, lo, hi int) {
	// Line numbers: count the lines of each side before lo.
	aLine, bLine := 1, 1
	for _, op := range ops[:lo] {
		if op.kind != '+' {
			aLine++
		}
		if op.kind != '-' {
			bLine++
		}
	}
	aLen, bLen := 0, 0
	for _, op := range ops[lo:hi] {
		if op.kind != '+' {
			aLen++
		}
		if op.kind != '-' {
			bLen++
		}
	}
	if aLen == 0 {
		aLine--
	}
	if bLen == 0 {
		bLine--
	}
	fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@\n", aLine, aLen, bLine, bLen)
	for _, op := range ops[lo:hi] {
		text, newline := strings.CutSuffix(op.line, "\n")
		b.WriteByte(op.kind)
		b.WriteString(strings.ReplaceAll(text, "\r", `\r`))
		b.WriteByte('\n')
		if !newline {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
}

// Full returns every line of a and b in the order of a shortest edit
// script, each marked and ended with a newline: "  " for a line of both, "- "
// for a line only in a, "+ " for a line only in b. The lines carry no
// newline of their own.
func Full(a, b []string) string {
	var out strings.Builder
	for _, op := range diffLines(a, b) {
		out.WriteByte(op.kind)
		out.WriteByte(' ')
		out.WriteString(op.line)
		out.WriteByte('\n')
	}
	return out.String()
}

// splitLines splits s after each newline; the last line has none if s does
// not end with one.
func splitLines(s string) []string {
	var lines []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// diffLines returns the edit script from a to b through a longest common
// subsequence of lines: within each changed block, removals come before
// additions.
func diffLines(a, b []string) []diffOp {
	// Set aside the common beginning and end.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]diffOp, 0, len(a)+len(b))
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{' ', l})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	if n*m > maxDiffCells {
		for _, l := range ma {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, diffOp{'+', l})
		}
	} else {
		// lcs[i*(m+1)+j] is the length of a longest common subsequence of
		// ma[i:] and mb[j:].
		lcs := make([]int32, (n+1)*(m+1))
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i*(m+1)+j] = lcs[(i+1)*(m+1)+j+1] + 1
				} else {
					lcs[i*(m+1)+j] = max(lcs[(i+1)*(m+1)+j], lcs[i*(m+1)+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, diffOp{' ', ma[i]})
				i++
				j++
			case j == m || (i < n && lcs[(i+1)*(m+1)+j] >= lcs[i*(m+1)+j+1]):
				ops = append(ops, diffOp{'-', ma[i]})
				i++
			default:
				ops = append(ops, diffOp{'+', mb[j]})
				j++
			}
		}
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}
