package schemacheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Load compiles the JSON Schema files at paths with one compiler, each
// added under the URL base followed by its file name (so that one may
// refer to another), formats asserted; it returns them in the order named
// and fails tb if a file cannot be read or compiled. It is what every test
// that checks a document against a schema of the project starts with.
func Load(tb testing.TB, base string, paths ...string) []*jsonschema.Schema {
	tb.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	urls := make([]string, len(paths))
	for i, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			tb.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		urls[i] = base + filepath.Base(path)
		if err := c.AddResource(urls[i], doc); err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
	}
	schemas := make([]*jsonschema.Schema, len(paths))
	for i, url := range urls {
		sch, err := c.Compile(url)
		if err != nil {
			tb.Fatalf("%s: %v", paths[i], err)
		}
		schemas[i] = sch
	}
	return schemas
}

// An Edit breaks one rule in a document that follows its schema: Old,
// which must be in it, replaced once by New. Reason names the rule.
type Edit struct{ Old, New, Reason string }

// Rejects shows that sch can fail: it accepts base, and refuses base with
// each of edits made, one at a time.
func Rejects(tb testing.TB, sch *jsonschema.Schema, base string, edits []Edit) {
	tb.Helper()
	validate := func(doc string) error {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			tb.Fatalf("%v in %.80s", err, doc)
		}
		return sch.Validate(v)
	}
	if err := validate(base); err != nil {
		tb.Fatalf("the unchanged document does not validate: %v", err)
	}
	for _, e := range edits {
		if !strings.Contains(base, e.Old) {
			tb.Fatalf("the document no longer contains %q", e.Old)
		}
		if validate(strings.Replace(base, e.Old, e.New, 1)) == nil {
			tb.Errorf("%s instead of %s still validates, want an error (%s)", e.New, e.Old, e.Reason)
		}
	}
}
