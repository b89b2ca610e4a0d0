package codes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// A decl is one declared code: its value and where it is declared.
type decl struct{ value, where string }

// releaseCodes reads every constant of type Code (archive.Code, sign.Code,
// codes.Code) declared in the non-test Go files of the release side.
func releaseCodes(t *testing.T) []decl {
	t.Helper()
	var out []decl
	fset := token.NewFileSet()
	root := filepath.Join("..", "..", "..")
	for _, dir := range []string{"internal/release/archive", "internal/release/sign", "internal/release/provenance", "internal/release/verify", "internal/release/zipdiff", "internal/release/codes"} {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					if !isCodeType(vs.Type) {
						continue
					}
					for i, v := range vs.Values {
						lit, ok := v.(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							t.Errorf("%s: code %s is not a string literal", fset.Position(v.Pos()), vs.Names[i])
							continue
						}
						val, _ := strconv.Unquote(lit.Value)
						out = append(out, decl{val, dir + "." + vs.Names[i].Name})
					}
				}
			}
		}
	}
	if len(out) < 50 {
		t.Fatalf("found %d codes: the declarations were not read", len(out))
	}
	return out
}

func isCodeType(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name == "Code"
	case *ast.SelectorExpr:
		return x.Sel.Name == "Code"
	}
	return false
}

// TestOneCodePerCondition checks the code space: each code is declared
// once, with no second spelling of it (not_zip and NOT_ZIP were one
// condition under two codes), and each follows its family's spelling.
func TestOneCodePerCondition(t *testing.T) {
	seen := map[string]string{}
	lower := regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`)
	upper := regexp.MustCompile(`^[A-Z0-9]+(_[A-Z0-9]+)*$`)
	for _, d := range releaseCodes(t) {
		key := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(d.value))
		if other, dup := seen[key]; dup {
			t.Errorf("%s = %q and %s spell one code twice", d.where, d.value, other)
		}
		seen[key] = d.where + " = " + strconv.Quote(d.value)
		trust := strings.HasPrefix(d.where, "internal/release/sign.") || strings.HasPrefix(d.where, "internal/release/provenance.")
		switch {
		case trust && !upper.MatchString(d.value):
			t.Errorf("%s = %q: a trust code is upper case", d.where, d.value)
		case !trust && !lower.MatchString(d.value) && !upper.MatchString(d.value):
			t.Errorf("%s = %q is neither lower_case nor UPPER_CASE", d.where, d.value)
		}
	}
}

// TestSigningTableMatchesCodes checks dist/SIGNING.md's refusals against
// the declarations: every code its table and the paragraphs after it name
// is declared, and every upper-case trust code (signatures, provenance,
// what verify adds to them) is named there.
func TestSigningTableMatchesCodes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "dist", "SIGNING.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, "\n## Refusals\n")
	if start < 0 {
		t.Fatal("dist/SIGNING.md has no Refusals section")
	}
	section := doc[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	declared := map[string]string{}
	for _, d := range releaseCodes(t) {
		declared[d.value] = d.where
	}
	token := regexp.MustCompile("`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*|[a-z0-9]+(?:_[a-z0-9]+)+)`")
	named := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		for _, m := range token.FindAllStringSubmatch(line, -1) {
			code := m[1]
			if _, ok := declared[code]; !ok && !strings.Contains(code, "_") {
				continue // a word such as SHA256SUMS, not a code
			} else if !ok {
				t.Errorf("dist/SIGNING.md names %q, which no package declares", code)
			}
			named[code] = true
		}
	}
	var missing []string
	for value, where := range declared {
		if value == strings.ToUpper(value) && !named[value] {
			missing = append(missing, value+" ("+where+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("dist/SIGNING.md's refusals do not name %s", m)
	}
}
