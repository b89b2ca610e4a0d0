package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/records"
	"github.com/google/go-cmp/cmp"
)

var (
	repoRoot       = filepath.Join("..", "..")
	syntheticFile  = filepath.Join(repoRoot, filepath.FromSlash(records.DefaultCatalogPath))
	errorCodeInCLI = regexp.MustCompile(`^catalogkit: error: ([A-Z_]+) `)
)

// decodeJSON decodes JSON text into plain Go values, numbers as json.Number
// so that every literal compares exactly.
func decodeJSON(t *testing.T, text []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v in %s", err, text)
	}
	return v
}

// TestRecordOutcomesMatchCLI: each record's outcome is exactly what
// 'catalogkit discover' or 'catalogkit validate' prints for the same call,
// compared as JSON values: the result, or the error code.
func TestRecordOutcomesMatchCLI(t *testing.T) {
	data, err := os.ReadFile(syntheticFile)
	if err != nil {
		t.Fatal(err)
	}
	set, err := records.Generate(data, records.DefaultCatalogPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.Records {
		t.Run(r.ID, func(t *testing.T) {
			args := []string{"--catalog", syntheticFile}
			str := func(v catalog.Value) string {
				s, ok := v.Str()
				if !ok {
					t.Fatalf("the CLI takes only string inputs, the record has %s", v)
				}
				return s
			}
			switch r.Call.Op {
			case records.OpDiscover:
				args = append([]string{"discover"}, append(args, "--family", str(r.Call.Family))...)
				if r.Call.Name.Kind() != catalog.Absent {
					args = append(args, "--name", str(r.Call.Name))
				}
			case records.OpValidateArguments:
				args = append([]string{"validate"}, append(args, "--name", str(r.Call.Name), "--arguments", r.Call.Arguments.String())...)
			default:
				t.Fatalf("op %q", r.Call.Op)
			}
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(""), &stdout, &stderr)

			if r.Outcome.Error != "" {
				m := errorCodeInCLI.FindStringSubmatch(stderr.String())
				if code != 1 || m == nil || m[1] != string(r.Outcome.Error) {
					t.Errorf("catalogkit %s: exit %d, stderr %q; the record says error %s", strings.Join(args, " "), code, stderr.String(), r.Outcome.Error)
				}
				return
			}
			if code != 0 {
				t.Fatalf("catalogkit %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
			}
			want := decodeJSON(t, []byte(r.Outcome.Result.String()))
			if diff := cmp.Diff(want, decodeJSON(t, stdout.Bytes())); diff != "" {
				t.Errorf("catalogkit %s printed a different result than the record's (-record +cli):\n%s", strings.Join(args, " "), diff)
			}
		})
	}
}

// TestRecordsCheckCommitted runs 'catalogkit records --check' on the
// committed records, as CI does.
func TestRecordsCheckCommitted(t *testing.T) {
	var stdout, stderr bytes.Buffer
	dir := filepath.Join(repoRoot, "records")
	code := run([]string{"records", "--check", "--catalog", syntheticFile, "--out", dir}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Errorf("catalogkit records --check: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

func TestRepoPath(t *testing.T) {
	abs, err := filepath.Abs(syntheticFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{syntheticFile, abs} {
		got, err := repoPath(file)
		if err != nil || got != records.DefaultCatalogPath {
			t.Errorf("repoPath(%q) = %q, %v; want %q: the recorded path is the same from any working folder", file, got, err, records.DefaultCatalogPath)
		}
	}
	outside := filepath.Join(t.TempDir(), "catalog.json")
	if got, err := repoPath(outside); err == nil {
		t.Errorf("repoPath(%q) = %q, want an error: no go.mod above it", outside, got)
	}
}
