package conformance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pythonValueOrder calls the Python port's contract module on arguments
// written in several orders and prints, for each, the error code and the
// field the error names (the start of its detail), or "ok".
const pythonValueOrder = `
import json, sys
import catalogkit
spec = lambda t, n: {"type": t, "required": False, "max_length": n}
catalog = [{"name": "order.tool", "family": "f", "effect": "read", "enabled": True,
            "fields": {"s": spec("string", 3), "n": spec("integer", 5),
                       "b": spec("boolean", 1), "t": spec("string", 3)}}]
for line in sys.stdin:
    args = json.loads(line)
    try:
        catalogkit.validate_arguments(catalog, "order.tool", args)
        print("ok")
    except catalogkit.CatalogError as e:
        print(e.code, e.detail.split(":")[0])
`

// TestPythonValueOrder pins step V5 of SPEC.md in the Python port: values
// are checked in the tool's field order, whatever order the arguments are
// written in. The protocol compares codes only, so the conformance cases
// cannot see this; the detail names the field.
func TestPythonValueOrder(t *testing.T) {
	py := python3(t)
	tests := []struct {
		args, want, reason string
	}{
		{`{"s":"long","n":1.5}`, "INVALID_ARGUMENT_VALUE arguments.s", "field order"},
		{`{"n":1.5,"s":"long"}`, "INVALID_ARGUMENT_VALUE arguments.s", "reverse order: still s first"},
		{`{"t":"long","b":1,"n":true,"s":7}`, "INVALID_ARGUMENT_VALUE arguments.s", "every value wrong"},
		{`{"t":"long","b":"true","n":2,"s":"ok"}`, "INVALID_ARGUMENT_VALUE arguments.b", "b comes before t"},
		{`{"b":null,"n":null}`, "INVALID_ARGUMENT_VALUE arguments.n", "null fits no field"},
		{`{"t":"abc","b":false,"n":0,"s":""}`, "ok", "valid in any order"},
	}
	var input strings.Builder
	for _, tt := range tests {
		input.WriteString(tt.args + "\n")
	}
	cmd := exec.Command(py, "-c", pythonValueOrder)
	cmd.Dir = filepath.Join("ports", "python")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	cmd.Stdin = strings.NewReader(input.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(got) != len(tests) {
		t.Fatalf("python3 printed %d lines, want %d:\n%s", len(got), len(tests), out)
	}
	for i, tt := range tests {
		if got[i] != tt.want {
			t.Errorf("arguments %s: got %q, want %q (%s)", tt.args, got[i], tt.want, tt.reason)
		}
	}
}
