package catalog

import (
	"fmt"
	"strings"
	"testing"
)

// benchCatalog renders a catalog of n tools of 30 fields each (the contract's
// maxima at n = 1000), spread over families of familySize tools. Field types
// cycle string, integer, boolean; every other field is required.
func benchCatalog(n, familySize int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"tool.%04d","family":"family.%03d","effect":"read","enabled":true,"fields":{`, i, i/familySize)
		for j := range MaxFields {
			if j > 0 {
				b.WriteString(",")
			}
			typ := [...]string{"string", "integer", "boolean"}[j%3]
			fmt.Fprintf(&b, `"field_%02d":{"type":%q,"required":%v,"max_length":%d}`, j, typ, j%2 == 0, 64)
		}
		b.WriteString("}}")
	}
	b.WriteString("]")
	return b.String()
}

// benchArguments renders 30 valid arguments for a tool of benchCatalog.
func benchArguments() string {
	parts := make([]string, MaxFields)
	for j := range parts {
		val := [...]string{`"héllo wörld 😀 ünïcode text"`, `123456789012345678901234567890`, `true`}[j%3]
		parts[j] = fmt.Sprintf(`"field_%02d":%s`, j, val)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// BenchmarkValidateArgumentsFunction is the function-level form on the
// largest catalog: it validates all 1000 tools of 30 fields on every call,
// then checks 30 arguments for the last tool.
func BenchmarkValidateArgumentsFunction(b *testing.B) {
	cat := mustJSON(b, benchCatalog(MaxTools, 50))
	name := mustJSON(b, `"tool.0999"`)
	args := mustJSON(b, benchArguments())
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
	c, err := Parse([]byte(benchCatalog(MaxTools, 50)))
	if err != nil {
		b.Fatal(err)
	}
	args := mustJSON(b, benchArguments())
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
		c, err := Parse([]byte(benchCatalog(n, 10)))
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
	text := []byte(benchCatalog(MaxTools, 50))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}
