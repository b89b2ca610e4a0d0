package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// PlanFile is where a release states what the tests step re-runs, relative
// to the tree: the packages, the conformance cases and the test that runs
// them, the tests that must pass, and whether with -short. The verifier
// learns the test set from the archive it checks, never from constants of
// its own; the file is covered by the manifest and the signature like
// every other.
const PlanFile = "testdata/release-tests.json"

// planFile is PlanFile's JSON.
type planFile struct {
	Packages []string `json:"packages"`
	Short    bool     `json:"short"`
	Cases    struct {
		Files   string `json:"files"`
		Package string `json:"package"`
		Test    string `json:"test"`
	} `json:"cases"`
	Required []struct {
		Package string `json:"package"`
		Test    string `json:"test"`
	} `json:"required"`
}

var (
	testName = regexp.MustCompile(`^Test[A-Za-z0-9_]*$`)
	relPath  = regexp.MustCompile(`^[a-z0-9_][a-z0-9_.-]*(/[a-z0-9_][a-z0-9_.-]*)*$`)
)

// LoadPlan reads the tree's PlanFile strictly: every key known, each
// package pattern "./" and a relative path (with "/..." for the packages
// below it), each package a relative path inside the module, each test a
// Go test name, the case files a pattern inside the tree.
func LoadPlan(tree string) (*TestPlan, *archive.Error) {
	data, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(PlanFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errf(CodeCases, PlanFile, "the release states no test plan: it has no %s (a release packed before releases stated one; --no-exec checks everything but the tests)", PlanFile)
	} else if err != nil {
		return nil, ioErr(PlanFile, "reading the test plan", err)
	}
	var f planFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil || dec.More() {
		return nil, errf(CodeCases, PlanFile, "not a test plan: %v", err)
	}
	bad := func(what, v string) *archive.Error {
		return errf(CodeCases, PlanFile, "%s %q is not a path inside the tree", what, v)
	}
	if len(f.Packages) == 0 {
		return nil, errf(CodeCases, PlanFile, "no packages to test")
	}
	p := &TestPlan{Short: f.Short, CasesGlob: f.Cases.Files, CasePackage: f.Cases.Package, CaseTest: f.Cases.Test}
	for _, pat := range f.Packages {
		rel, ok := strings.CutPrefix(pat, "./")
		rel = strings.TrimSuffix(strings.TrimSuffix(rel, "..."), "/")
		if !ok || (rel != "" && !relPath.MatchString(rel)) || strings.Contains(rel, "..") {
			return nil, bad("package pattern", pat)
		}
		p.Patterns = append(p.Patterns, pat)
	}
	if _, err := path.Match(f.Cases.Files, ""); err != nil || f.Cases.Files == "" || strings.Contains(f.Cases.Files, "..") || path.IsAbs(f.Cases.Files) {
		return nil, bad("case files", f.Cases.Files)
	}
	if !relPath.MatchString(f.Cases.Package) {
		return nil, bad("package", f.Cases.Package)
	}
	if !testName.MatchString(f.Cases.Test) {
		return nil, errf(CodeCases, PlanFile, "%q is not a Go test name", f.Cases.Test)
	}
	for _, r := range f.Required {
		if !relPath.MatchString(r.Package) {
			return nil, bad("package", r.Package)
		}
		if !testName.MatchString(r.Test) {
			return nil, errf(CodeCases, PlanFile, "%q is not a Go test name", r.Test)
		}
		p.Required = append(p.Required, TestID{Package: r.Package, Test: r.Test})
	}
	return p, nil
}

// String says what the plan runs, for a report.
func (p *TestPlan) String() string {
	return fmt.Sprintf("%s (cases %s, run by %s)", strings.Join(p.Patterns, " "), p.CasesGlob, p.CaseTest)
}
