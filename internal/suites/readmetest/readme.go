// Package readmetest checks that every command of the repository's
// documents runs as printed: README.md, docs/*.md and the conformance
// suite's README. It has no API; its tests are the package.
//
// The documents' rule (stated at the top of each) is that every shell
// block runs on its own, from the repository root, with catalogkit on
// PATH: no block depends on another. The tests read each document's fenced
// blocks:
//
//   - a block marked sh, shell or bash holds commands: each line is one
//     command (a line ending in a backslash continues on the next), and each
//     must exit 0; the lines of one block run in one shell, in order; a
//     block whose info string also says "example" (```sh example) holds
//     placeholders for the reader's own commands and is not run;
//   - an unmarked block whose first line starts with "$ " is a transcript:
//     the command after "$ " must print exactly the lines that follow it;
//   - every other block (go, json, an unmarked block of sample output) is
//     not run.
//
// TestStatic always runs and checks, without running anything, what can be
// checked by reading: every "make" target is in the Makefile, a document
// that runs a bare "catalogkit" says how to put it on PATH, no document
// names a version that is not a tag. TestCommands runs every block, each in
// a fresh shell, in a copy of the checkout (its tracked and untracked, not
// ignored, files) in a temporary folder where catalogkit has been built,
// when CATALOGKIT_README=run ('make readme'; .ci/run does it); otherwise it
// skips and says so. A few commands that .ci/run itself runs are replaced by
// what they must leave behind, each with its reason (see [ciExercised]).
package readmetest

import (
	"bufio"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A block is one fenced code block of a document.
type block struct {
	file  string // the document, relative to the repository root
	line  int    // line number of the opening fence
	info  string // the info string: "sh", "go", "" ...
	lines []string
}

// example reports whether a block holds placeholders, not commands to run.
func (b block) example() bool { return slices.Contains(strings.Fields(b.info), "example") }

// A step is one command of a document, with what it must do.
type step struct {
	file    string // the document
	block   int    // the index of its block among the document's blocks
	line    int    // README line where the command starts
	command string // the command, continuation lines joined
	// transcript is true for a "$ " command of a transcript block, whose
	// output must be want.
	transcript bool
	want       string
}

func (s step) String() string { return fmt.Sprintf("%s:%d: %s", s.file, s.line, s.command) }

// blocks returns the fenced code blocks of a Markdown text. An unclosed
// block is an error: everything after it would silently not be checked.
func blocks(file, text string) ([]block, error) {
	var out []block
	var cur *block
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fence := strings.HasPrefix(line, "```")
		switch {
		case cur == nil && fence:
			cur = &block{file: file, line: n, info: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: the code block never ends", file, cur.line)
	}
	return out, sc.Err()
}

// shellInfo reports whether a block's info string marks shell commands.
func shellInfo(info string) bool {
	switch strings.Fields(info + " x")[0] {
	case "sh", "shell", "bash":
		return true
	}
	return false
}

// steps returns a document's commands, in order.
func steps(bs []block) ([]step, error) {
	var out []step
	for bi, b := range bs {
		switch {
		case b.example():
		case shellInfo(b.info):
			for i := 0; i < len(b.lines); i++ {
				start := i
				cmd := b.lines[i]
				for strings.HasSuffix(cmd, `\`) && i+1 < len(b.lines) {
					i++
					cmd = strings.TrimSuffix(cmd, `\`) + " " + strings.TrimSpace(b.lines[i])
				}
				if strings.HasSuffix(cmd, `\`) {
					return nil, fmt.Errorf("%s:%d: the command ends in a backslash with nothing after it", b.file, b.line+1+start)
				}
				if c := strings.TrimSpace(cmd); c != "" && !strings.HasPrefix(c, "#") {
					out = append(out, step{file: b.file, block: bi, line: b.line + 1 + start, command: c})
				}
			}
		case b.info == "" && len(b.lines) > 0 && strings.HasPrefix(b.lines[0], "$ "):
			for i := 0; i < len(b.lines); {
				if !strings.HasPrefix(b.lines[i], "$ ") {
					return nil, fmt.Errorf("%s:%d: a transcript line that is neither a command nor its output", b.file, b.line+1+i)
				}
				s := step{file: b.file, block: bi, line: b.line + 1 + i, command: strings.TrimPrefix(b.lines[i], "$ "), transcript: true}
				var want []string
				for i++; i < len(b.lines) && !strings.HasPrefix(b.lines[i], "$ "); i++ {
					want = append(want, b.lines[i])
				}
				if len(want) > 0 {
					s.want = strings.Join(want, "\n") + "\n"
				}
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// ciExercised lists the commands that TestCommands does not run as printed
// because .ci/run runs them itself, each with what runs instead and why.
var ciExercised = map[string]struct {
	instead string
	why     string
}{
	"make test": {
		instead: "",
		why:     ".ci/run runs 'make test' itself, before this test (and this test is part of it when run by go test ./...)",
	},
	"make release": {
		instead: "go run ./cmd/catalogkit records --check && go run ./cmd/catalogkit pack --out dist",
		why:     ".ci/run runs the tests (make test) and the rest of 'make release' (make dist: records check, pack, verify); here the records check and the pack",
	},
}

// bareCommand is the first word of a command (after an optional cd ... &&),
// to tell "catalogkit ..." from "bin/catalogkit ...".
var firstWord = regexp.MustCompile(`^\s*(?:\(?\s*cd\s+\S+\s*&&\s*)?([^\s;&|()]+)`)

// commandName returns the program a command runs first.
func commandName(cmd string) string {
	m := firstWord.FindStringSubmatch(cmd)
	if m == nil {
		return ""
	}
	return m[1]
}

// comment strips a trailing shell comment ("  # ...") for comparisons.
func withoutComment(cmd string) string {
	if i := strings.Index(cmd, " #"); i >= 0 {
		return strings.TrimSpace(cmd[:i])
	}
	return strings.TrimSpace(cmd)
}
