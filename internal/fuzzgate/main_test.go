package fuzzgate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogkit/catalogkit/conformance"
	"github.com/catalogkit/catalogkit/conformance/fuzz"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestMain lets the test binary stand in for catalogkit port (which is
// conformance.Serve with conformance.GoTarget, nothing more), so the gates
// can fuzz the Go port as a real child process without building anything.
func TestMain(m *testing.M) {
	if os.Getenv("CATALOGKIT_FUZZ_TEST_PORT") == "1" {
		info := conformance.PortInfo{Name: "catalogkit-go", Language: "Go", Version: "test"}
		if err := conformance.Serve(os.Stdin, os.Stdout, conformance.GoTarget(info.Version), info); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// goPort returns catalogkit port as a fuzz target: this test binary.
func goPort(t testing.TB) func() fuzz.Target {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "CATALOGKIT_FUZZ_TEST_PORT=1")
	return func() fuzz.Target { return &conformance.Port{Command: []string{exe}, Env: env} }
}

// unknownKeysAsValues is the built-in implementation with one bug: it
// answers INVALID_ARGUMENT_VALUE where the contract says
// INVALID_ARGUMENT_KEYS, and a result where it says INVALID_LABEL.
type unknownKeysAsValues struct{ conformance.Target }

func (u unknownKeysAsValues) Call(call []byte) ([]byte, error) {
	out, err := u.Target.Call(call)
	if bytes.Contains(out, []byte(`"INVALID_LABEL"`)) {
		return []byte(`{"result":[]}`), err
	}
	return bytes.ReplaceAll(out, []byte(`"INVALID_ARGUMENT_KEYS"`), []byte(`"INVALID_ARGUMENT_VALUE"`)), err
}

func (unknownKeysAsValues) Close() error { return nil }

// TestCaseFilesMatchSchema fuzzes a buggy in-process target and validates
// every contract case file the run writes against
// conformance/case.schema.json with a real JSON Schema validator.
func TestCaseFilesMatchSchema(t *testing.T) {
	path := filepath.Join("..", "..", "conformance", "case.schema.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("case.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("case.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := fuzz.Run(context.Background(), fuzz.Options{Calls: 2000, Seed: 11, NewTarget: func() fuzz.Target {
		return unknownKeysAsValues{fuzz.Reference("test")}
	}})
	if err != nil {
		t.Fatal(err)
	}
	contract := 0
	for _, cx := range res.Counterexamples {
		data, text, err := cx.CaseFile(fuzz.PortInfo{Name: "buggy"})
		if err != nil {
			t.Fatal(err)
		}
		if text {
			continue
		}
		contract++
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s does not match case.schema.json: %v\n%s", cx.ID, err, data)
		}
	}
	if contract < 2 {
		t.Errorf("%d contract case files written, want one for each of the 2 bugs at least", contract)
	}
}
