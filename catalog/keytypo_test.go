package catalog

import (
	"strings"
	"testing"
)

func TestKeyMistakesInDetail(t *testing.T) {
	tool := func(keys string) string {
		return `[{"name":"a","family":"f","effect":"read",` + keys + `}]`
	}
	tests := []struct {
		name, catalog, want string
		reason              string
	}{
		{"swapped letters", tool(`"enabeld":true,"fields":{}`), `unknown key "enabeld" (did you mean "enabled"?)`, "a swap of neighbours is one edit"},
		{"case", tool(`"Enabled":true,"fields":{}`), `unknown key "Enabled" (did you mean "enabled"?)`, "case is ignored"},
		{"far away", tool(`"on":true,"fields":{}`), `unknown key "on", missing key "enabled"`, "no guess when nothing is close: the missing key is named"},
		{"missing only", tool(`"fields":{}`), `: missing key "enabled"`, "a missing key alone is named"},
		{"extra only", tool(`"enabled":true,"fields":{},"admin":1`), `: unknown key "admin"`, "an extra key with nothing missing has no guess"},
		{"spec", `[{"name":"a","family":"f","effect":"read","enabled":true,"fields":{"q":{"type":"string","require":true,"max_length":3}}}]`,
			`unknown key "require" (did you mean "required"?)`, "field specs get the same help"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.catalog))
			e, ok := err.(*Error)
			if !ok || e.Code != InvalidFields {
				t.Fatalf("Parse: %v, want INVALID_FIELDS (the code is unchanged)", err)
			}
			if !strings.Contains(e.Detail, tt.want) {
				t.Errorf("detail %q, want it to contain %q (%s)", e.Detail, tt.want, tt.reason)
			}
		})
	}
}

func TestUnknownArgumentKeyGuess(t *testing.T) {
	c, err := Parse([]byte(`[{"name":"a","family":"f","effect":"read","enabled":true,"fields":{"tab_id":{"type":"integer","required":false,"max_length":5}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ args, want, reason string }{
		{`{"tab_di":1}`, `unknown key "tab_di", did you mean "tab_id"? (the schema allows "tab_id")`, "one swap away"},
		{`{"zoom":1}`, `unknown key "zoom" (the schema allows "tab_id")`, "nothing close: no guess"},
		{`{"ab":1}`, `unknown key "ab" (the schema allows "tab_id")`, "a key shorter than the distance is no guess"},
	} {
		v, err := ParseJSON([]byte(tt.args))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ValidateArguments("a", v)
		e, ok := err.(*Error)
		if !ok || e.Code != InvalidArgumentKeys || e.Detail != tt.want {
			t.Errorf("ValidateArguments(%s) = %v, want INVALID_ARGUMENT_KEYS with detail %q (%s)", tt.args, err, tt.want, tt.reason)
		}
	}
}
