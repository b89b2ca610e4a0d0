package conformance_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/conformance"
)

// specDoc is what the tests need of SPEC.md: its sections, its steps (with
// the section that defines each and the codes each names, in order) and the
// table of codes of §9.
type specDoc struct {
	sections map[string]bool     // "2", "3.1", "8.3"
	stepSec  map[string]string   // "C4" → "5"
	steps    []string            // every step id, in document order
	codes    map[string][]string // "C4" → ["DUPLICATE_TOOL"]
	table    []string            // the codes of the table of §9, in order
}

var (
	specHeading = regexp.MustCompile(`^#{2,3} ([1-9][0-9]*(?:\.[1-9][0-9]*)?)\.? \S`)
	specStep    = regexp.MustCompile(`^- \*\*([A-Z][1-9][0-9]*)\.`)
	backticked  = regexp.MustCompile("`([A-Z][A-Z_]+)`")
	tableCode   = regexp.MustCompile("^\\| `([A-Z][A-Z_]+)` \\|")
)

func isCode(s string) bool { return slices.Contains(catalog.Codes, catalog.Code(s)) }

// readSpec parses SPEC.md. A step runs from its list item to the next step,
// heading or blank line; the codes it names are the backticked codes there.
func readSpec(t *testing.T) *specDoc {
	t.Helper()
	data, err := os.ReadFile("SPEC.md")
	if err != nil {
		t.Fatal(err)
	}
	d := &specDoc{sections: map[string]bool{}, stepSec: map[string]string{}, codes: map[string][]string{}}
	section, step := "", ""
	for i, line := range strings.Split(string(data), "\n") {
		if m := specHeading.FindStringSubmatch(line); m != nil {
			if d.sections[m[1]] {
				t.Errorf("SPEC.md:%d: section %s is defined twice", i+1, m[1])
			}
			d.sections[m[1]], section, step = true, m[1], ""
			continue
		}
		if m := specStep.FindStringSubmatch(line); m != nil {
			step = m[1]
			if _, dup := d.stepSec[step]; dup {
				t.Errorf("SPEC.md:%d: step %s is defined twice", i+1, step)
			}
			top, _, _ := strings.Cut(section, ".")
			d.stepSec[step] = top
			d.steps = append(d.steps, step)
		} else if strings.TrimSpace(line) == "" {
			step = ""
		}
		if step != "" {
			for _, m := range backticked.FindAllStringSubmatch(line, -1) {
				if isCode(m[1]) {
					d.codes[step] = append(d.codes[step], m[1])
				}
			}
		}
		if m := tableCode.FindStringSubmatch(line); m != nil && section == "9" {
			d.table = append(d.table, m[1])
		}
	}
	return d
}

// protocolHeadings returns the headings of PROTOCOL.md, without backticks.
func protocolHeadings(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile("PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	h := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			h[strings.ReplaceAll(strings.TrimSpace(strings.TrimLeft(line, "#")), "`", "")] = true
		}
	}
	return h
}

var (
	citedSection = regexp.MustCompile(`^§([1-9][0-9]*(?:\.[1-9][0-9]*)?)`)
	citedStep    = regexp.MustCompile(`\b([A-Z])([1-9][0-9]*)(?:-([A-Z])([1-9][0-9]*))?\b`)
	citedHeading = regexp.MustCompile(`^PROTOCOL\.md "([^"]+)"`)
)

// checkCitation resolves a case's spec field: every section of SPEC.md, every
// step id (which must belong to the section it is cited under), every step
// of a range, and every heading of PROTOCOL.md. It returns the problems.
func checkCitation(d *specDoc, protocol map[string]bool, spec string) []string {
	var problems []string
	rest, ok := strings.CutPrefix(spec, "SPEC.md ")
	if !ok {
		return []string{"does not start with \"SPEC.md \""}
	}
	for _, ref := range strings.Split(rest, "; ") {
		if m := citedHeading.FindStringSubmatch(ref); m != nil {
			if !protocol[m[1]] {
				problems = append(problems, fmt.Sprintf("PROTOCOL.md has no heading %q", m[1]))
			}
			continue
		}
		m := citedSection.FindStringSubmatch(ref)
		if m == nil {
			problems = append(problems, fmt.Sprintf("%q cites no section", ref))
			continue
		}
		sec := m[1]
		if !d.sections[sec] {
			problems = append(problems, fmt.Sprintf("SPEC.md has no section §%s", sec))
			continue
		}
		top, _, _ := strings.Cut(sec, ".")
		for _, s := range citedStep.FindAllStringSubmatch(ref[len(m[0]):], -1) {
			ids := []string{s[1] + s[2]}
			if s[3] != "" {
				lo, _ := strconv.Atoi(s[2])
				hi, _ := strconv.Atoi(s[4])
				if s[3] != s[1] || hi <= lo {
					problems = append(problems, fmt.Sprintf("%s is not a range of steps", s[0]))
					continue
				}
				for n := lo + 1; n <= hi; n++ {
					ids = append(ids, s[1]+strconv.Itoa(n))
				}
			}
			for _, id := range ids {
				switch got, ok := d.stepSec[id]; {
				case !ok:
					problems = append(problems, fmt.Sprintf("SPEC.md has no step %s", id))
				case got != top:
					problems = append(problems, fmt.Sprintf("step %s is in §%s, cited under §%s", id, got, sec))
				}
			}
		}
	}
	return problems
}

// TestSpecCitations resolves the spec field of every case against SPEC.md
// and PROTOCOL.md, and checks it against the pattern of case.schema.json.
func TestSpecCitations(t *testing.T) {
	d, protocol := readSpec(t), protocolHeadings(t)
	pattern := schemaSpecPattern(t)
	cases, err := conformance.Cases()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !pattern.MatchString(c.Spec) {
			t.Errorf("case %s: spec %q does not match the pattern of case.schema.json", c.ID, c.Spec)
		}
		for _, p := range checkCitation(d, protocol, c.Spec) {
			t.Errorf("case %s: spec %q: %s", c.ID, c.Spec, p)
		}
	}
	// Case files of the text level, if any, cite SPEC.md the same way.
	files, _ := filepath.Glob(filepath.Join("text", "*.json"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Spec *string `json:"spec"`
		}
		if json.Unmarshal(data, &c) != nil || c.Spec == nil {
			continue
		}
		for _, p := range checkCitation(d, protocol, *c.Spec) {
			t.Errorf("%s: spec %q: %s", name, *c.Spec, p)
		}
	}
}

// TestSpecCitationsCanFail proves the resolver rejects bad citations.
func TestSpecCitationsCanFail(t *testing.T) {
	d, protocol := readSpec(t), protocolHeadings(t)
	pattern := schemaSpecPattern(t)
	tests := []struct {
		spec   string
		ok     bool
		reason string
	}{
		{`SPEC.md §5 C4; §6 D1-D3 (a note); §8.3; PROTOCOL.md "Calls"`, true, "a good citation"},
		{`SPEC.md §99`, false, "no such section"},
		{`SPEC.md §8.9`, false, "no such subsection"},
		{`SPEC.md §5 C8`, false, "no such step"},
		{`SPEC.md §6 C4`, false, "a step of §5 cited under §6"},
		{`SPEC.md §6 D1-D9`, false, "a range that runs past the last step"},
		{`SPEC.md §6 D3-D1`, false, "a range backwards"},
		{`SPEC.md §7 V5 (after V9)`, false, "a step in a note is resolved too"},
		{`SPEC.md §7; PROTOCOL.md "No such heading"`, false, "no such heading in PROTOCOL.md"},
		{`SPEC.md §7; section 8`, false, "a citation without §"},
	}
	for _, tt := range tests {
		problems := checkCitation(d, protocol, tt.spec)
		if (len(problems) == 0) != tt.ok {
			t.Errorf("checkCitation(%q) = %q, want ok=%v (%s)", tt.spec, problems, tt.ok, tt.reason)
		}
	}
	if !pattern.MatchString(tests[0].spec) {
		t.Errorf("the schema pattern refuses the good citation %q", tests[0].spec)
	}
}

// schemaSpecPattern returns the pattern case.schema.json gives the spec
// field, compiled as a Go regexp.
func schemaSpecPattern(t *testing.T) *regexp.Regexp {
	t.Helper()
	data, err := os.ReadFile("case.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties struct {
			Spec struct {
				Pattern string `json:"pattern"`
			} `json:"spec"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(schema.Properties.Spec.Pattern)
}

var (
	docStep = regexp.MustCompile(`^\s+- ([A-Z][1-9][0-9]*)\. `)
	docLink = regexp.MustCompile(`\[(\w+)\]`)
)

// readCatalogDoc returns the steps of the catalog package documentation, in
// order, with the codes each names ([InvalidLabel] and so on), and every
// code constant the documentation links.
func readCatalogDoc(t *testing.T) (steps []string, codes map[string][]string, linked map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	consts := map[string]string{} // constant name → code
	errs, err := parser.ParseFile(fset, filepath.Join("..", "catalog", "errors.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(errs, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Values) == 1 {
			if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				consts[vs.Names[0].Name] = s
			}
		}
		return true
	})
	f, err := parser.ParseFile(fset, filepath.Join("..", "catalog", "doc.go"), nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	codes, linked = map[string][]string{}, map[string]bool{}
	step := ""
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		if m := docStep.FindStringSubmatch(line); m != nil {
			step = m[1]
			steps = append(steps, step)
		} else if strings.TrimSpace(line) == "" || !strings.HasPrefix(line, "    ") {
			step = ""
		}
		for _, m := range docLink.FindAllStringSubmatch(line, -1) {
			code, ok := consts[m[1]]
			if !ok {
				continue
			}
			linked[code] = true
			if step != "" {
				codes[step] = append(codes[step], code)
			}
		}
	}
	return steps, codes, linked
}

// TestSpecAgreesWithCatalogDoc compares SPEC.md with the catalog package
// documentation: the same steps of catalog validation, discover and
// validate_arguments, in the same order, each naming the same codes in the
// same order; and the same list of codes as the package's Codes.
func TestSpecAgreesWithCatalogDoc(t *testing.T) {
	d := readSpec(t)
	docSteps, docCodes, linked := readCatalogDoc(t)
	for _, op := range []struct{ prefix, name string }{{"C", "catalog validation"}, {"D", "discover"}, {"V", "validate_arguments"},
		{"G", "format 2's catalog validation"}, {"K", "format 2's schema subset"}, {"W", "format 2's validate_arguments"}} {
		var specIDs, docIDs []string
		for _, id := range d.steps {
			if strings.HasPrefix(id, op.prefix) {
				specIDs = append(specIDs, id)
			}
		}
		for _, id := range docSteps {
			if strings.HasPrefix(id, op.prefix) {
				docIDs = append(docIDs, id)
			}
		}
		if len(specIDs) == 0 || !slices.Equal(specIDs, docIDs) {
			t.Errorf("%s: SPEC.md has steps %v, the catalog documentation %v", op.name, specIDs, docIDs)
			continue
		}
		for _, id := range specIDs {
			if !slices.Equal(d.codes[id], docCodes[id]) {
				t.Errorf("%s step %s: SPEC.md names %v, the catalog documentation %v", op.name, id, d.codes[id], docCodes[id])
			}
		}
	}
	var want []string
	for _, c := range catalog.Codes {
		want = append(want, string(c))
		if !linked[string(c)] {
			t.Errorf("the catalog documentation never names %s", c)
		}
	}
	if !slices.Equal(d.table, want) {
		t.Errorf("SPEC.md §9 lists the codes %v, catalog.Codes is %v", d.table, want)
	}
}
