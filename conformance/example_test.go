package conformance_test

import (
	"fmt"
	"os"
	"regexp"

	"github.com/catalogkit/catalogkit/conformance"
)

// Run the cases about strings against the built-in Go implementation. To run
// them against a port instead, use a *conformance.Port as the Target:
//
//	&conformance.Port{Command: []string{"python3", "conformance/ports/python/catalog_port.py"}}
func ExampleRunner() {
	cases, err := conformance.Cases()
	if err != nil {
		fmt.Println(err)
		return
	}
	runner := &conformance.Runner{
		Target: conformance.GoTarget("example"),
		Run:    regexp.MustCompile(`^validate\.string\.`),
	}
	report := runner.RunCases(cases)
	report.WriteText(os.Stdout)
	// Output:
	// port: catalogkit example (Go)
	// PASS    validate.string.astral
	// PASS    validate.string.multibyte
	// 2 passed, 0 failed
}
