package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// countPhrases are the ways the documents state the size of a level, each
// with the level it counts: every such number, wherever it is written, must
// be the number of files the level holds. The cases are the one place the
// counts live; a document that restates one is held to them here.
var countPhrases = []struct {
	re    *regexp.Regexp
	level string // "contract", "text", "protocol" or "format2"
}{
	{regexp.MustCompile(`\b(\d+) cases, one per rule`), "protocol"},
	{regexp.MustCompile(`(?:^|[^-])\b(\d+) (?:language-neutral )?(?:test )?(?:conformance )?cases\b(?:, one per rule)?`), "contract"},
	{regexp.MustCompile(`\btext level (\d+)/(\d+)`), "text"},
	{regexp.MustCompile(`\b(\d+) raw (?:request )?lines\b`), "text"},
	{regexp.MustCompile(`\bprotocol level (\d+)/(\d+)`), "protocol"},
	{regexp.MustCompile(`\bprotocol level \((\d+) cases`), "protocol"},
	{regexp.MustCompile(`\bformat 2\s+level (\d+)/(\d+)`), "format2"},
	{regexp.MustCompile(`\b(\d+) format-2 cases\b`), "format2"},
}

// TestCountsInDocs finds every statement of a level's size in the
// repository's documents and Go comments and requires it to be the size of
// that level, so that a new case cannot leave a stale count behind.
func TestCountsInDocs(t *testing.T) {
	want := map[string]int{
		"contract": len(mustCases(t)),
		"text":     len(mustTextCases(t)),
		"protocol": len(mustProtocolCases(t)),
		"format2":  len(mustFormat2Cases(t)),
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bin" || d.Name() == "dist" && path != filepath.Join(root, "dist")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(data), "\n") {
			for _, p := range countPhrases {
				for _, m := range p.re.FindAllStringSubmatch(line, -1) {
					if p.level == "contract" && strings.HasSuffix(m[0], ", one per rule") {
						continue // the protocol level's, matched above
					}
					for _, n := range m[1:] {
						checked++
						// A run of --cases on one file of a level is
						// reported as that level of one case.
						if v, _ := strconv.Atoi(n); v != want[p.level] && !(p.level == "text" && m[0] == "text level 1/1") {
							t.Errorf("%s:%d: %q says %d, the %s level has %d cases", rel, i+1, m[0], v, p.level, want[p.level])
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("found %d counts in the documents: is the search broken?", checked)
	}
}
