package records_test

import (
	"fmt"
	"log"
	"os"

	"github.com/catalogkit/catalogkit/records"
)

// Generate calls the catalog package on the synthetic catalog; each record
// file is the canonical JSON of one call and its outcome.
func ExampleGenerate() {
	catalogJSON, err := os.ReadFile("../conformance/synthetic-catalog.json")
	if err != nil {
		log.Fatal(err)
	}
	set, err := records.Generate(catalogJSON, records.DefaultCatalogPath)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range set.Records {
		outcome := "result"
		if r.Outcome.Error != "" {
			outcome = "error " + string(r.Outcome.Error)
		}
		fmt.Println(r.File, r.Call.Op, outcome)
	}
	fmt.Printf("\n%s", set.Files[3].Data)
	// Output:
	// 01-family-listing.json discover result
	// 02-single-tool.json discover result
	// 03-shape-valid-input.json validate_arguments result
	// 04-disabled-tool-rejected.json discover error TOOL_NOT_AVAILABLE_IN_FAMILY
	// 05-unknown-key-rejected.json validate_arguments error INVALID_ARGUMENT_KEYS
	//
	// {
	//   "call": {
	//     "catalog": {
	//       "path": "conformance/synthetic-catalog.json",
	//       "sha256": "78c6a9a9cc07a8f3a1851382800345a5818b4a125df7d822884cc62fb364dc84"
	//     },
	//     "family": "reading",
	//     "name": "page.screenshot",
	//     "op": "discover"
	//   },
	//   "format": "catalogkit-record/1",
	//   "id": "disabled-tool-rejected",
	//   "outcome": {
	//     "error": "TOOL_NOT_AVAILABLE_IN_FAMILY"
	//   },
	//   "title": "A disabled tool asked for by exact name is rejected, with no fallback to another tool"
	// }
}

// Canonical sorts keys by code point, indents by two spaces, keeps number
// literals exactly, and escapes only what JSON requires.
func ExampleCanonical() {
	out, err := records.Canonical([]byte(`{"name": "a&b <é> 😀", "big": 123456789012345678901234567890, "tab": "\t", "list": [], "obj": {"b": 1, "a": 2}}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
	// {
	//   "big": 123456789012345678901234567890,
	//   "list": [],
	//   "name": "a&b <é> 😀",
	//   "obj": {
	//     "a": 2,
	//     "b": 1
	//   },
	//   "tab": "\t"
	// }
}
