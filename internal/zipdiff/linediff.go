package zipdiff

import (
	"fmt"
	"strings"
)

// Bounds of a line diff, so that two large texts cost little.
const (
	diffContext  = 2       // unchanged lines shown around a change
	maxDiffCells = 4 << 20 // LCS table cells (lines of A × lines of B, after trimming)
	maxDiffLines = 80      // output lines per entry
)

// lineDiff returns a unified diff of two texts ("@@ -a,n +b,m @@" hunks,
// lines prefixed with ' ', '-' or '+'), cut after maxDiffLines lines.
func lineDiff(a, b []byte) []string {
	la, lb := splitLines(string(a)), splitLines(string(b))
	// Trim the common prefix and suffix: most changes are small.
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	ma, mb := la[pre:len(la)-suf], lb[pre:len(lb)-suf]
	if (len(ma)+1)*(len(mb)+1) > maxDiffCells {
		return []string{fmt.Sprintf("(the changed region is %d and %d lines: too large for a line diff)", len(ma), len(mb))}
	}
	// ops over the whole texts: ' ' kept, '-' from A, '+' from B.
	type op struct {
		kind byte
		line string
	}
	var ops []op
	for _, l := range la[:pre] {
		ops = append(ops, op{' ', l})
	}
	// LCS lengths of suffixes: t[i][j] for ma[i:], mb[j:].
	w := len(mb) + 1
	t := make([]int32, (len(ma)+1)*w)
	for i := len(ma) - 1; i >= 0; i-- {
		for j := len(mb) - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(ma) || j < len(mb) {
		switch {
		case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
			ops = append(ops, op{' ', ma[i]})
			i, j = i+1, j+1
		case i < len(ma) && (j == len(mb) || t[(i+1)*w+j] >= t[i*w+j+1]):
			ops = append(ops, op{'-', ma[i]})
			i++
		default:
			ops = append(ops, op{'+', mb[j]})
			j++
		}
	}
	for _, l := range la[len(la)-suf:] {
		ops = append(ops, op{' ', l})
	}

	// Group changes into hunks with diffContext lines around them.
	var out []string
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		start := max(0, k-diffContext)
		end := k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*diffContext || run == len(ops) {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		// Line numbers of the hunk's first line in A and B.
		aLine, bLine := 1, 1
		for _, o := range ops[:start] {
			if o.kind != '+' {
				aLine++
			}
			if o.kind != '-' {
				bLine++
			}
		}
		aN, bN := 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				aN++
			}
			if o.kind != '-' {
				bN++
			}
		}
		out = append(out, fmt.Sprintf("@@ -%d,%d +%d,%d @@", aLine, aN, bLine, bN))
		for _, o := range ops[start:end] {
			out = append(out, string(o.kind)+o.line)
		}
		k = end
	}
	if len(out) > maxDiffLines {
		more := len(out) - maxDiffLines
		out = append(out[:maxDiffLines], fmt.Sprintf("… (%d more lines of diff)", more))
	}
	return out
}

// splitLines splits text into lines; a missing final newline is shown.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if strings.HasSuffix(l, "\n") {
			lines[i] = strings.TrimSuffix(l, "\n")
		} else {
			lines[i] = l + " ⏎ (no newline at end of file)"
		}
	}
	return lines
}
