package jsonbench

import (
	stdjson "encoding/json"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/testlib/jsonshapes"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// parsers are the contenders: ours first, then the anchors.
var parsers = []struct {
	name  string
	parse func([]byte) error
}{
	{"catalog.Parse", func(b []byte) error { _, err := catalog.Parse(b); return err }},
	{"catalog.ParseJSON", func(b []byte) error { _, err := catalog.ParseJSON(b); return err }},
	{"encoding-json-any", func(b []byte) error { var v any; return stdjson.Unmarshal(b, &v) }},
	{"json-v2-any", func(b []byte) error { var v any; return jsonv2.Unmarshal(b, &v) }},
	{"jsontext-IsValid", func(b []byte) error {
		if !jsontext.Value(b).IsValid() {
			return errInvalid
		}
		return nil
	}},
}

type invalidError struct{}

func (invalidError) Error() string { return "invalid JSON" }

var errInvalid error = invalidError{}

// BenchmarkCatalog parses the 1000-tool benchmark catalog (3 MB) with each
// contender: catalog.Parse reads and compiles it (strict JSON, every catalog
// rule), the others only read it.
func BenchmarkCatalog(b *testing.B) {
	text := jsonshapes.Catalog(catalog.MaxTools, 50)
	for _, p := range parsers {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if err := p.parse(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkShapes parses each shape of jsonshapes at 4 MiB with ParseJSON
// and the anchors that build a value (catalog.Parse rejects them all).
func BenchmarkShapes(b *testing.B) {
	for _, s := range jsonshapes.Shapes {
		text := s.Generate(4 << 20)
		for _, p := range parsers[1:4] {
			b.Run("shape="+s.Name+"/"+p.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					if err := p.parse(text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
