package catalog

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"unicode/utf8"
)

// FuzzContract feeds arbitrary catalog and arguments bytes through both forms
// of the contract. It checks that nothing panics, that both forms agree on
// every result and error, that every error carries a stable code, and that
// the strict JSON layer never accepts text that encoding/json calls invalid.
//
// It reads no file: the seeds built on the synthetic catalog are in
// testdata/fuzz/FuzzContract, where go test runs them and a continuous
// fuzzing service finds them, so the target runs from any directory.
func FuzzContract(f *testing.F) {
	f.Add(`[{"name":"a","family":"f","effect":"read","enabled":true,"fields":{"q":{"type":"string","required":true,"max_length":2}}}]`, "f", "a", true, `{"q":"😀😀"}`)
	f.Add(`[{"name":"a","enabled":false,"enabled":true}]`, "f", "a", true, `{}`)
	f.Add(`[{"name":"a","family":"f","effect":"read","enabled":true,"fields":{"q":{"type":"integer","required":false,"max_length":20000}}}]`, "f", "a", true, `{"q":-0}`)
	f.Add(`["\ud800"]`, "a\n", "A", true, `{"a":1,"a":2}`)
	f.Fuzz(func(t *testing.T, catText, family, name string, hasName bool, argsText string) {
		cat, err := ParseJSON([]byte(catText))
		if err != nil {
			requireCode(t, err, InvalidJSON)
			return
		}
		if !json.Valid([]byte(catText)) || !utf8.ValidString(catText) {
			t.Fatalf("ParseJSON accepted text that encoding/json rejects: %q", catText)
		}
		if again, err := ParseJSON([]byte(cat.String())); err != nil || again.String() != cat.String() {
			t.Fatalf("re-parsing the marshalled value: %v; %q vs %q", err, again.String(), cat.String())
		}
		famV := stringValue(family)
		nameV := Value{}
		if hasName {
			nameV = stringValue(name)
		}
		c, compileErr := Compile(cat)
		fnDescs, fnErr := Discover(cat, famV, nameV)
		requireCode(t, fnErr, "")
		if compileErr != nil {
			requireCode(t, compileErr, "")
			if codeOf(t, fnErr) != codeOf(t, compileErr) || pathOf(fnErr) != pathOf(compileErr) {
				t.Fatalf("Discover error %v, Compile error %v", fnErr, compileErr)
			}
			return
		}
		var descs []Description
		if hasName {
			descs, err = c.DiscoverTool(family, name)
		} else {
			descs, err = c.Discover(family)
		}
		requireCode(t, err, "")
		if codeOf(t, err) != codeOf(t, fnErr) || pathOf(err) != pathOf(fnErr) {
			t.Fatalf("compiled error %v, function-level error %v", err, fnErr)
		}
		if diff := diff(descs, fnDescs); err == nil && diff != "" {
			t.Fatalf("compiled and function-level results differ (-compiled +function):\n%s", diff)
		}
		args, err := ParseJSON([]byte(argsText))
		if err != nil {
			requireCode(t, err, InvalidJSON)
			return
		}
		res, err := c.ValidateArguments(name, args)
		fnRes, fnErr := ValidateArguments(cat, stringValue(name), args)
		requireCode(t, err, "")
		if codeOf(t, err) != codeOf(t, fnErr) || pathOf(err) != pathOf(fnErr) {
			t.Fatalf("compiled error %v, function-level error %v", err, fnErr)
		}
		if err == nil {
			a, _ := res.MarshalJSON()
			b, _ := fnRes.MarshalJSON()
			if string(a) != string(b) || !json.Valid(a) {
				t.Fatalf("results differ or are invalid JSON: %s vs %s", a, b)
			}
		}
	})
}

// requireCode fails unless err is nil or an *Error with a stable code (and,
// if want is not empty, that code).
func requireCode(t *testing.T, err error, want Code) {
	t.Helper()
	if err == nil {
		return
	}
	var e *Error
	if !errors.As(err, &e) || !slices.Contains(Codes, e.Code) {
		t.Fatalf("error %v has no stable code", err)
	}
	if want != "" && e.Code != want {
		t.Fatalf("code %s, want %s: %v", e.Code, want, err)
	}
}
