// Package benchdata holds what the benchmarks of more than one package
// share, so that they all measure the same bytes the same way: the large
// catalogs (catalog's benchmarks, cmd/catalogkit's BenchmarkCLIMaxCatalog),
// a release-shaped [Tree] (archive's and verify's) and [LiveBytes], the heap
// a loaded value keeps.
//
// The catalogs are generated, not committed (the largest is about 3 MB):
// [Catalog] renders one by name, deterministically, and
// testdata/bench/SHA256SUMS at the repository root pins the SHA-256 of every
// rendered file, checked by TestPinned. A port in another language can
// write the same files with 'go test ./internal/testlib/benchdata -write DIR' and
// check them with 'sha256sum -c'.
//
// The package imports only the standard library, so that the packages an
// extracted release re-runs offline may use it in their tests.
package benchdata

import (
	"fmt"
	"strings"
)

// Fields is the number of fields of every generated tool: the contract's
// maximum.
const Fields = 30

// A Spec describes one generated catalog.
type Spec struct {
	// Name is the catalog's name; its file is Name + ".json".
	Name string
	// Tools is the number of tools, named "tool.0000", "tool.0001", ...
	Tools int
	// FamilySize is the number of consecutive tools in one family:
	// tool i is in "family.%03d" of i / FamilySize.
	FamilySize int
}

// Specs lists the generated catalogs. Every tool has [Fields] fields named
// field_00 to field_29 whose types cycle string, integer, boolean; every
// other field (even numbers) is required; max_length is 64.
var Specs = []Spec{
	// The contract's maxima: 1000 tools of 30 fields in 20 families.
	{Name: "tools-1000-family-50", Tools: 1000, FamilySize: 50},
	// Families of 10 over 100 and 1000 tools: discovery's cost should follow
	// the tools returned, not the catalog.
	{Name: "tools-100-family-10", Tools: 100, FamilySize: 10},
	{Name: "tools-1000-family-10", Tools: 1000, FamilySize: 10},
}

// Max is the name of the catalog at the contract's maxima.
const Max = "tools-1000-family-50"

// ArgumentsName is the name of the generated arguments file.
const ArgumentsName = "arguments-30"

// Catalog returns the JSON text of the named catalog of [Specs].
func Catalog(name string) ([]byte, error) {
	for _, s := range Specs {
		if s.Name == name {
			return render(s), nil
		}
	}
	return nil, fmt.Errorf("benchdata: no catalog named %q", name)
}

// MustCatalog is [Catalog] for a name known to exist; it panics otherwise.
func MustCatalog(name string) []byte {
	b, err := Catalog(name)
	if err != nil {
		panic(err)
	}
	return b
}

func render(s Spec) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range s.Tools {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"tool.%04d","family":"family.%03d","effect":"read","enabled":true,"fields":{`, i, i/s.FamilySize)
		for j := range Fields {
			if j > 0 {
				b.WriteString(",")
			}
			typ := [...]string{"string", "integer", "boolean"}[j%3]
			fmt.Fprintf(&b, `"field_%02d":{"type":%q,"required":%v,"max_length":%d}`, j, typ, j%2 == 0, 64)
		}
		b.WriteString("}}")
	}
	b.WriteString("]\n")
	return []byte(b.String())
}

// Arguments returns a JSON object of 30 valid arguments for any generated
// tool: multi-byte and astral strings, an integer beyond 64 bits, true.
func Arguments() []byte {
	parts := make([]string, Fields)
	for j := range parts {
		val := [...]string{`"héllo wörld 😀 ünïcode text"`, `123456789012345678901234567890`, `true`}[j%3]
		parts[j] = fmt.Sprintf(`"field_%02d":%s`, j, val)
	}
	return []byte("{" + strings.Join(parts, ",") + "}\n")
}

// Files returns every generated file by name ("NAME.json"), in the order of
// [Specs], then the arguments.
func Files() []File {
	var fs []File
	for _, s := range Specs {
		fs = append(fs, File{s.Name + ".json", render(s)})
	}
	return append(fs, File{ArgumentsName + ".json", Arguments()})
}

// A File is one generated file.
type File struct {
	Name string
	Data []byte
}
