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
	"github.com/catalogkit/catalogkit/internal/testlib/schemacheck"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestMain lets the test binary stand in for catalogkit port (which is
// conformance.Serve with conformance.GoTarget, nothing more), so the gates
// can fuzz the Go port as a real child process without building anything.
func TestMain(m *testing.M) {
	if os.Getenv("CATALOGKIT_FUZZ_TEST_PORT") == "1" {
		info := conformance.PortInfo{Name: "catalogkit", Language: "Go", Version: "test"}
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

// schemas compiles conformance/case.schema.json,
// conformance/text.schema.json and conformance/sequence.schema.json (which
// refers to both) with a real JSON Schema validator.
func schemas(t *testing.T) (contract, text, sequence *jsonschema.Schema) {
	dir := filepath.Join("..", "..", "..", "conformance")
	s := schemacheck.Load(t, "https://github.com/catalogkit/catalogkit/conformance/",
		filepath.Join(dir, "case.schema.json"), filepath.Join(dir, "text.schema.json"), filepath.Join(dir, "sequence.schema.json"))
	return s[0], s[1], s[2]
}

// checkCaseFile validates a case file written for a counterexample against
// the schema of its kind.
func checkCaseFile(t *testing.T, cx *fuzz.Counterexample, data []byte, text bool) {
	t.Helper()
	id := cx.ID
	contract, textSchema, sequence := schemas(t)
	sch, name := contract, "case.schema.json"
	switch {
	case cx.IsSequence():
		sch, name = sequence, "sequence.schema.json"
	case text:
		sch, name = textSchema, "text.schema.json"
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("%s does not match %s: %v\n%s", id, name, err, data)
	}
}

// TestCaseFilesMatchSchema fuzzes a buggy in-process target and validates
// every case file the run writes against conformance/case.schema.json, and
// text cases against conformance/text.schema.json (the broken ports' text
// cases are validated by TestFuzzFindsBrokenPorts).
func TestCaseFilesMatchSchema(t *testing.T) {
	res, err := fuzz.Run(context.Background(), fuzz.Options{Calls: 2000, Seed: 11, NewTarget: func() fuzz.Target {
		return unknownKeysAsValues{fuzz.Reference("test")}
	}})
	if err != nil {
		t.Fatal(err)
	}
	cxs := append(res.Counterexamples,
		&fuzz.Counterexample{ID: "fuzz.text.utf8", Kind: "test", Want: []byte(`{"error":"INVALID_JSON"}`),
			Call: []byte("{\"op\":\"discover\",\"catalog\":[],\"family\":\"a\xff\ufeff\"}")})
	contract, texts := 0, 0
	for _, cx := range cxs {
		data, text, err := cx.CaseFile(fuzz.PortInfo{Name: "buggy"})
		if err != nil {
			t.Fatal(err)
		}
		if text {
			texts++
		} else {
			contract++
		}
		checkCaseFile(t, cx, data, text)
	}
	if contract < 2 || texts < 1 {
		t.Errorf("%d contract case files and %d text case files written, want one for each of the 2 bugs at least, and the text case at least", contract, texts)
	}
}
