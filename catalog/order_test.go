package catalog

import "testing"

// TestValueOrder pins step V5: values are checked in the tool's field order,
// not in the order the arguments are written, so the first bad field (and the
// error's path) depends only on the catalog. Both forms must agree.
func TestValueOrder(t *testing.T) {
	// Fields in this order: s (string, at most 3), n (integer), b (boolean),
	// t (string, at most 3).
	cat := mustJSON(t, "["+tool(`"order.tool"`, `"f"`, `"read"`, `true`,
		`{"s":`+spec(`"string"`, `false`, `3`)+
			`,"n":`+spec(`"integer"`, `false`, `5`)+
			`,"b":`+spec(`"boolean"`, `false`, `1`)+
			`,"t":`+spec(`"string"`, `false`, `3`)+`}`)+"]")
	compiled, err := Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     string
		wantPath string // "" for valid arguments
		reason   string
	}{
		{"two bad, field order", `{"s":"long","n":1.5}`, "arguments.s",
			"the first field in field order decides"},
		{"two bad, reverse order", `{"n":1.5,"s":"long"}`, "arguments.s",
			"written in reverse order, s is still checked first"},
		{"all bad, reverse order", `{"t":"long","b":1,"n":true,"s":7}`, "arguments.s",
			"every value is wrong; s is the first field"},
		{"last two bad, reverse order", `{"t":"long","b":"true","n":2,"s":"ok"}`, "arguments.b",
			"b comes before t in the fields"},
		{"only the last field bad, written first", `{"t":"long","s":"ok","n":1,"b":true}`, "arguments.t",
			"the only bad field is named, wherever it is written"},
		{"bad value between good ones", `{"b":true,"n":1e2,"s":"ok"}`, "arguments.n",
			"1e2 is not an integer"},
		{"null in reverse order", `{"b":null,"n":null}`, "arguments.n",
			"null fits no field; n is the earlier field"},
		{"all good, reverse order", `{"t":"abc","b":false,"n":-0,"s":""}`, "",
			"argument order never matters for valid arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := mustJSON(t, tt.args)
			_, cErr := compiled.ValidateArguments("order.tool", args)
			_, fErr := ValidateArguments(cat, mustJSON(t, `"order.tool"`), args)
			wantCode := Code("")
			if tt.wantPath != "" {
				wantCode = InvalidArgumentValue
			}
			for _, form := range []struct {
				name string
				err  error
			}{{"compiled", cErr}, {"function-level", fErr}} {
				if got := codeOf(t, form.err); got != wantCode || pathOf(form.err) != tt.wantPath {
					t.Errorf("%s form: got %q at %q, want %q at %q (%s); error: %v",
						form.name, got, pathOf(form.err), wantCode, tt.wantPath, tt.reason, form.err)
				}
			}
		})
	}
}

// TestKeysBeforeValues pins the boundary between V4 and V5: a key problem
// wins over any value problem, wherever the keys are written.
func TestKeysBeforeValues(t *testing.T) {
	c, err := Compile(synthetic(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tool, args string
		wantCode         Code
		wantPath         string
		reason           string
	}{
		{"unknown key after a bad value", "page.read", `{"tab_id":true,"zoom":1}`, InvalidArgumentKeys, "arguments.zoom",
			"V4 runs over every key before V5 looks at a value"},
		{"missing key beside a bad value", "page.find", `{"limit":1.5}`, InvalidArgumentKeys, "arguments",
			"query is missing: V4, not the bad limit"},
		{"null for a required key", "page.find", `{"query":null}`, InvalidArgumentValue, "arguments.query",
			"a key whose value is null is present (R3): a bad value, not a missing key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.ValidateArguments(tt.tool, mustJSON(t, tt.args))
			if got := codeOf(t, err); got != tt.wantCode || pathOf(err) != tt.wantPath {
				t.Errorf("got %q at %q, want %q at %q (%s); error: %v", got, pathOf(err), tt.wantCode, tt.wantPath, tt.reason, err)
			}
		})
	}
}
