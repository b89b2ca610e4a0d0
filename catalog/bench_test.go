package catalog

import (
	"fmt"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/benchdata"
)

// The benchmarks measure the catalogs of internal/testlib/benchdata, shared with
// cmd/catalogkit's benchmarks and pinned by testdata/bench/SHA256SUMS:
// 1000 tools of 30 fields (the contract's maxima), field types cycling
// string, integer, boolean, every other field required.

// BenchmarkValidateArgumentsFunction is the function-level form on the
// largest catalog: it validates all 1000 tools of 30 fields on every call,
// then checks 30 arguments for the last tool.
func BenchmarkValidateArgumentsFunction(b *testing.B) {
	cat := mustJSON(b, string(benchdata.MustCatalog(benchdata.Max)))
	name := mustJSON(b, `"tool.0999"`)
	args := mustJSON(b, string(benchdata.Arguments()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ValidateArguments(cat, name, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateArgumentsCompiled checks 30 arguments against a compiled
// catalog of 1000 tools: one allocation, the returned result.
func BenchmarkValidateArgumentsCompiled(b *testing.B) {
	c, err := Parse(benchdata.MustCatalog(benchdata.Max))
	if err != nil {
		b.Fatal(err)
	}
	args := mustJSON(b, string(benchdata.Arguments()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.ValidateArguments("tool.0999", args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDiscoverCompiled lists one family of 10 tools from catalogs of 100
// and of 1000 tools: the cost follows the tools returned, not the catalog.
func BenchmarkDiscoverCompiled(b *testing.B) {
	for _, n := range []int{100, MaxTools} {
		c, err := Parse(benchdata.MustCatalog(fmt.Sprintf("tools-%d-family-10", n)))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("family/tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ds, err := c.Discover("family.005"); err != nil || len(ds) != 10 {
					b.Fatal(err, len(ds))
				}
			}
		})
		b.Run(fmt.Sprintf("name/tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.DiscoverTool("family.005", "tool.0055"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParse reads and compiles the largest catalog from JSON text.
func BenchmarkParse(b *testing.B) {
	text := benchdata.MustCatalog(benchdata.Max)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseEnum measures Parse of a format-2 tool whose one property
// has an enum of MaxEnum (256) integers: the duplicate check reads each
// value once (a key per value), where comparing every pair took 32,640
// exact decimal comparisons.
func BenchmarkParseEnum(b *testing.B) {
	vals := make([]byte, 0, 2048)
	for i := range MaxEnum {
		if i > 0 {
			vals = append(vals, ',')
		}
		vals = fmt.Appendf(vals, "%d", i)
	}
	data := fmt.Appendf(nil, `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"","inputSchema":{"type":"object","properties":{"a":{"type":"integer","enum":[%s]}},"additionalProperties":false}}]}`, vals)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
