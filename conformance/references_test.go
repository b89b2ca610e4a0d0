package conformance_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// referenceExempt lists files the reference check skips, with the reason.
var referenceExempt = map[string]string{
	"conformance/spec_test.go":                  "holds bad citations on purpose, to prove that the resolver refuses them",
	"conformance/references_test.go":            "holds bad references on purpose, to prove that this check finds them",
	"internal/release/verify/corpus_test.go":    "builds hostile archives whose names climb out on purpose (path traversal)",
	"conformance/internal/levelgen/text.go":     "its tables hold the spec citations of the case files it writes, relative to conformance/ as theirs are",
	"conformance/internal/levelgen/protocol.go": "its tables hold the spec citations of the case files it writes, relative to conformance/ as theirs are",
	"conformance/internal/levelgen/format2.go":  "its tables hold the spec citations of the case files it writes, relative to conformance/ as theirs are",
}

// repoFiles returns the slash-separated paths, relative to root, of the
// files of the repository: the files git tracks in a checkout, or every file
// of an extracted release (which has no .git), less dot-folders and build
// outputs.
func repoFiles(t *testing.T, root string) []string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
		if out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output(); err == nil {
			var files []string
			for _, f := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
				if _, err := os.Stat(filepath.Join(root, f)); err == nil {
					files = append(files, f) // a tracked file deleted in the work tree is not read
				}
			}
			return files
		}
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	// climbing matches a relative path that goes up: one that climbs above
	// the repository's root points outside it.
	climbing    = regexp.MustCompile(`(?:\.\./)+[A-Za-z0-9_.-]+`)
	specMention = regexp.MustCompile(`([A-Za-z0-9_./-]*)SPEC\.md(?:\s?§\s?([0-9]+(?:\.[0-9]+)*)|\s+section\s+([0-9]+(?:\.[0-9]+)*))?`)
	bareSpec    = regexp.MustCompile(`\bSPEC(?:\s?§|\s+section\s+[0-9])`)
	mdLink      = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// caseSpecField matches the text before a case's spec field, whose
	// paths are relative to the conformance folder wherever it is quoted
	// (a report, a test).
	caseSpecField = regexp.MustCompile(`"spec":\s*"$`)
)

// TestNoOutsideReferences fails if a file of the repository points outside
// it: a relative path that climbs above the root, a SPEC.md that does not
// resolve (relative to the file's folder, to the root for a path starting
// with conformance/, and to the conformance folder in a case file or a case's
// spec field quoted elsewhere) or a
// section of it that does not exist, a bare "SPEC §", or a relative Markdown
// link to a file or heading that does not exist.
func TestNoOutsideReferences(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	d := readSpec(t)
	files := repoFiles(t, root)
	if len(files) < 50 {
		t.Fatalf("found %d files under %s, want the whole repository", len(files), root)
	}
	anchors := map[string]map[string]bool{} // Markdown file → its heading anchors
	for _, name := range files {
		if _, ok := referenceExempt[name]; ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(data, 0) >= 0 {
			continue // binary
		}
		for _, p := range referenceProblems(root, name, string(data), d, anchors) {
			t.Errorf("%s", p)
		}
	}
}

// referenceProblems returns what is wrong with the references of one file.
func referenceProblems(root, name, text string, d *specDoc, anchors map[string]map[string]bool) []string {
	var problems []string
	lineOf := func(off int) int { return strings.Count(text[:off], "\n") + 1 }
	for _, m := range climbing.FindAllStringIndex(text, -1) {
		if p := path.Join(path.Dir(name), text[m[0]:m[1]]); strings.HasPrefix(p, "../") || p == ".." {
			problems = append(problems, fmt.Sprintf("%s:%d: %q climbs out of the repository", name, lineOf(m[0]), text[m[0]:m[1]]))
		}
	}
	if loc := bareSpec.FindStringIndex(text); loc != nil {
		problems = append(problems, fmt.Sprintf("%s:%d: %q names no file: cite conformance/SPEC.md", name, lineOf(loc[0]), text[loc[0]:loc[1]]))
	}
	dir := path.Dir(name)
	if strings.HasPrefix(name, "conformance/cases/") {
		dir = "conformance" // a case file's paths are relative to the conformance folder
	}
	for _, m := range specMention.FindAllStringSubmatchIndex(text, -1) {
		prefix := text[m[2]:m[3]]
		if strings.HasPrefix(prefix, "//") {
			continue // part of a URL
		}
		target := path.Join(dir, prefix+"SPEC.md")
		switch {
		case strings.HasPrefix(prefix, "conformance/"):
			target = prefix + "SPEC.md"
		case caseSpecField.MatchString(text[:m[0]]):
			target = path.Join("conformance", prefix+"SPEC.md") // a case's spec field, quoted elsewhere
		case strings.HasPrefix(text[m[1]:], "]("):
			target = "conformance/SPEC.md" // the text of a Markdown link, whose target is checked below
		}
		if target != "conformance/SPEC.md" {
			problems = append(problems, fmt.Sprintf("%s:%d: %q resolves to %s, not to conformance/SPEC.md", name, lineOf(m[0]), text[m[0]:m[1]], target))
			continue
		}
		for _, g := range []int{4, 6} {
			if m[g] >= 0 && !d.sections[text[m[g]:m[g+1]]] {
				problems = append(problems, fmt.Sprintf("%s:%d: %q: conformance/SPEC.md has no section %s", name, lineOf(m[0]), text[m[0]:m[1]], text[m[g]:m[g+1]]))
			}
		}
	}
	if !strings.HasSuffix(name, ".md") {
		return problems
	}
	for _, m := range mdLink.FindAllStringSubmatchIndex(text, -1) {
		link := text[m[2]:m[3]]
		if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(link, "#")
		target := name
		if file != "" {
			target = path.Join(path.Dir(name), file)
		}
		if target == ".." || strings.HasPrefix(target, "../") {
			problems = append(problems, fmt.Sprintf("%s:%d: link %q leaves the repository", name, lineOf(m[0]), link))
			continue
		}
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(target)))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: link %q: %s does not exist", name, lineOf(m[0]), link, target))
			continue
		}
		if anchor == "" || info.IsDir() || !strings.HasSuffix(target, ".md") {
			continue
		}
		if anchors[target] == nil {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(target)))
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			anchors[target] = headingAnchors(string(data))
		}
		if !anchors[target][anchor] {
			problems = append(problems, fmt.Sprintf("%s:%d: link %q: %s has no heading with anchor #%s", name, lineOf(m[0]), link, target, anchor))
		}
	}
	return problems
}

// headingAnchors returns the anchors a Markdown renderer gives the headings
// of a document: lowercase, punctuation other than '-' and '_' dropped,
// spaces as '-', a repeated anchor suffixed with -1, -2, ...
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#"))) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestReferenceProblemsCanFail proves the reference check finds each kind of
// bad reference, and passes good ones.
func TestReferenceProblemsCanFail(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	d := readSpec(t)
	tests := []struct {
		name, text string
		ok         bool
		reason     string
	}{
		{"catalog/doc.go", "// see conformance/SPEC.md §7 and SPEC.md", false, "a bare SPEC.md outside conformance/ does not resolve"},
		{"catalog/doc.go", "// see conformance/SPEC.md §7 (V5)", true, "a path from the root"},
		{"catalog/doc.go", "// see conformance/SPEC.md §42", false, "no such section"},
		{"conformance/runner.go", "// SPEC.md §8.3", true, "relative to the file's folder"},
		{"conformance/cases/x.json", `"spec": "SPEC.md §5 C4"`, true, "a case file's paths are relative to the conformance folder"},
		{"records/FORMAT.md", "as [SPEC.md §8](../conformance/SPEC.md#8-results) says", true, "a relative link with an anchor"},
		{"records/FORMAT.md", "as [SPEC.md](../conformance/SPEC.md#9-nothing) says", false, "no such anchor"},
		{"records/FORMAT.md", "see [the spec](../../elsewhere/SPEC.md)", false, "a link outside the repository"},
		{"records/FORMAT.md", "see ../conformance/SPEC.md", true, "a relative path that stays inside"},
		{"README.md", "see [the spec](conformance/NOSUCH.md)", false, "a link to a missing file"},
		{"internal/release/verify/verify.go", "// (SPEC §4)", false, "a bare SPEC § names no file"},
		{"internal/release/verify/verify.go", "// read ../../../../x", false, "a path beside the checkout"},
		{"README.md", "[SPEC](https://example.com/SPEC.md)", true, "URLs are not checked"},
	}
	for _, tt := range tests {
		problems := referenceProblems(root, tt.name, tt.text, d, map[string]map[string]bool{})
		if (len(problems) == 0) != tt.ok {
			t.Errorf("%s: %q: problems %q, want ok=%v (%s)", tt.name, tt.text, problems, tt.ok, tt.reason)
		}
	}
}
