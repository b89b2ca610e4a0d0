package zipdiff

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/catalogkit/catalogkit/internal/shared/linediff"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

// Bounds of the line diffs: the lines shown for one entry, the bytes shown
// of one line, the changed part of each text that is diffed (after the
// common first and last lines are set aside, which costs no memory), and,
// for the whole report, the entries given a line diff and the lines kept.
const (
	maxDiffLines     = 80
	maxLineBytes     = 240
	maxChangedBytes  = 32 << 10
	maxChangedLines  = 400
	maxReportDiffs   = 200
	maxReportLines   = 4000
	diffContextLines = 2 // linediff's context
)

// lineDiff returns the unified diff of two texts as lines, cut after
// maxDiffLines lines with a note of how many more there were. It copies
// what it keeps: nothing of a or b, or of the diff's work, stays reachable.
func lineDiff(a, b []byte) []string {
	a, b, skipped := trimCommon(a, b)
	// Cut the changed part: the diff shows the beginning of it anyway.
	cut := false
	changedA, changedB := countLines(a), countLines(b)
	ca, cb := cutText(a), cutText(b)
	if len(ca) < len(a) || len(cb) < len(b) {
		cut = true
		a, b = ca, cb
	}
	unified := linediff.Unified(a, b)
	var out []string
	total := 0
	for line := range strings.Lines(unified) {
		line = strings.TrimSuffix(line, "\n")
		total++
		if len(out) == maxDiffLines {
			continue
		}
		if strings.HasPrefix(line, "@@ ") {
			line = shiftHunk(line, skipped)
		}
		out = append(out, strings.Clone(cutLine(line)))
	}
	switch {
	case cut:
		out = append(out, fmt.Sprintf("… (the diff is cut: it covers the first %d KiB or %d lines of the changed part, which has %d lines in A and %d in B)", maxChangedBytes>>10, maxChangedLines, changedA, changedB))
	case total > maxDiffLines:
		out = append(out, fmt.Sprintf("… (%d more lines of diff)", total-maxDiffLines))
	}
	return out
}

var nl = []byte{'\n'}

// countLines counts the lines of t, the last one with or without a newline.
func countLines(t []byte) int {
	n := bytes.Count(t, nl)
	if len(t) > 0 && t[len(t)-1] != '\n' {
		n++
	}
	return n
}

// trimCommon sets aside the whole lines a and b begin with and then those
// they end with (as package linediff does, in lines), but for
// diffContextLines lines of context on each side, so that diffing what is
// left gives the same hunks, their line numbers less skipped.
func trimCommon(a, b []byte) (ta, tb []byte, skipped int) {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	// The common lines end where the line holding the first difference
	// starts (or at the end of a text that is all common).
	pre := bytes.LastIndexByte(a[:n], '\n') + 1
	if n == len(a) && n == len(b) {
		pre = n
	}
	// The common last lines, after the common first ones.
	ra, rb := a[pre:], b[pre:]
	m := 0
	for m < len(ra) && m < len(rb) && ra[len(ra)-1-m] == rb[len(rb)-1-m] {
		m++
	}
	lineStart := func(t []byte, i int) bool { return i == 0 || t[i-1] == '\n' }
	suf := m
	if !lineStart(ra, len(ra)-m) || !lineStart(rb, len(rb)-m) {
		i := bytes.IndexByte(ra[len(ra)-m:], '\n')
		if i < 0 {
			suf = 0
		} else {
			suf = m - (i + 1)
		}
	}
	// Keep the context.
	start := pre
	for k := 0; k < diffContextLines && start > 0; k++ {
		start = bytes.LastIndexByte(a[:start-1], '\n') + 1
	}
	rest := ra[len(ra)-suf:]
	for k := 0; k < diffContextLines && len(rest) > 0; k++ {
		j := bytes.IndexByte(rest, '\n')
		if j < 0 {
			j = len(rest) - 1
		}
		rest = rest[j+1:]
	}
	return a[start : len(a)-len(rest)], b[start : len(b)-len(rest)], bytes.Count(a[:start], nl)
}

// cutText returns the beginning of t, at most maxChangedBytes and
// maxChangedLines lines, cut after a newline.
func cutText(t []byte) []byte {
	if len(t) > maxChangedBytes {
		t = t[:maxChangedBytes]
		if i := bytes.LastIndexByte(t, '\n'); i >= 0 {
			t = t[:i+1]
		}
	}
	lines, i := 0, 0
	for lines < maxChangedLines {
		j := bytes.IndexByte(t[i:], '\n')
		if j < 0 {
			return t
		}
		i += j + 1
		lines++
	}
	return t[:i]
}

// cutLine shortens a diff line to maxLineBytes, at a character boundary.
func cutLine(l string) string {
	if len(l) <= maxLineBytes {
		return l
	}
	head := termsafe.Cut(l, maxLineBytes)
	return fmt.Sprintf("%s… (%d more bytes)", head, len(l)-len(head))
}

// shiftHunk adds skipped to both line numbers of a hunk header
// "@@ -a,b +c,d @@".
func shiftHunk(h string, skipped int) string {
	if skipped == 0 {
		return h
	}
	f := strings.Fields(h)
	if len(f) < 4 {
		return h
	}
	for i, sign := range []string{"-", "+"} {
		num, rest, _ := strings.Cut(strings.TrimPrefix(f[1+i], sign), ",")
		n, err := strconv.Atoi(num)
		if err != nil {
			return h
		}
		f[1+i] = sign + strconv.Itoa(n+skipped) + "," + rest
	}
	return strings.Join(f, " ")
}
