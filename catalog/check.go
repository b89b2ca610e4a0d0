package catalog

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of the contract.
const (
	MaxTools          = 1000
	MaxFields         = 30
	MaxLabelLength    = 80
	MinMaxLength      = 1
	MaxMaxLength      = 20000
	all               = "all"
	toolKeyCount      = 5
	fieldSpecKeyCount = 3
)

// IsLabel reports whether s matches ^[a-z][a-z0-9._-]{0,79}$ exactly: 1 to
// 80 ASCII characters, nothing after them (not even a newline).
func IsLabel(s string) bool {
	if len(s) == 0 || len(s) > MaxLabelLength || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// toolKeys and specKeys are the exact key sets; a key's bit is 1<<index.
var (
	toolKeys = [toolKeyCount]string{"name", "family", "effect", "enabled", "fields"}
	specKeys = [fieldSpecKeyCount]string{"type", "required", "max_length"}
)

// hasExactKeys reports whether the object v has exactly the given keys.
func hasExactKeys(v Value, keys []string) bool {
	if v.kind != Object || len(v.members) != len(keys) {
		return false
	}
	var seen uint8
	for _, m := range v.members {
		found := false
		for i, k := range keys {
			if m.key == k && seen&(1<<i) == 0 {
				seen |= 1 << i
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// checkCatalog validates a whole catalog in the contract's order; the first
// failing check decides the error.
func checkCatalog(cat Value) error {
	if cat.kind != Array {
		return errorf(InvalidCatalog, "$", "catalog is a JSON %s, want an array of tool definitions", cat.kind)
	}
	if len(cat.items) > MaxTools {
		return errorf(InvalidCatalog, "$", "catalog has %d tools, over the limit of %d", len(cat.items), MaxTools)
	}
	names := make(map[string]struct{}, len(cat.items))
	for i, tool := range cat.items {
		if err := checkTool(i, tool, names); err != nil {
			return err
		}
	}
	return nil
}

func toolPath(i int) string { return "$[" + strconv.Itoa(i) + "]" }

func checkTool(i int, tool Value, names map[string]struct{}) error {
	if !hasExactKeys(tool, toolKeys[:]) {
		if tool.kind != Object {
			return errorf(InvalidFields, toolPath(i), "tool definition is a JSON %s, want an object", tool.kind)
		}
		return errorf(InvalidFields, toolPath(i), "tool definition has keys %s, want exactly %s", keyList(tool), strings.Join(toolKeys[:], ", "))
	}
	name, _ := tool.Lookup("name")
	family, _ := tool.Lookup("family")
	effect, _ := tool.Lookup("effect")
	enabled, _ := tool.Lookup("enabled")
	fields, _ := tool.Lookup("fields")
	if !isLabelValue(name) {
		return labelError(toolPath(i)+".name", "tool name", name)
	}
	if !isLabelValue(family) {
		return labelError(toolPath(i)+".family", "family", family)
	}
	if _, dup := names[name.text]; dup {
		return errorf(DuplicateTool, toolPath(i)+".name", "tool name %q is already used by an earlier tool", name.text)
	}
	names[name.text] = struct{}{}
	if effect.kind != String || effect.text != "read" && effect.text != "change" {
		return errorf(InvalidMetadata, toolPath(i)+".effect", "effect is %s, want \"read\" or \"change\"", brief(effect))
	}
	if enabled.kind != Bool {
		return errorf(InvalidMetadata, toolPath(i)+".enabled", "enabled is %s, want true or false", brief(enabled))
	}
	if fields.kind != Object {
		return errorf(InvalidFields, toolPath(i)+".fields", "fields is a JSON %s, want an object", fields.kind)
	}
	if len(fields.members) > MaxFields {
		return errorf(InvalidFields, toolPath(i)+".fields", "tool has %d fields, over the limit of %d", len(fields.members), MaxFields)
	}
	for _, f := range fields.members {
		if err := checkField(toolPath(i)+".fields", f); err != nil {
			return err
		}
	}
	return nil
}

func checkField(prefix string, f member) error {
	path := func() string {
		var b strings.Builder
		b.WriteString(prefix)
		writePathElem(&b, pathElem{key: f.key, index: -1})
		return b.String()
	}
	if !IsLabel(f.key) {
		return errorf(InvalidLabel, path(), "field name %q is not a label (want ^[a-z][a-z0-9._-]{0,79}$)", f.key)
	}
	spec := f.val
	if !hasExactKeys(spec, specKeys[:]) {
		if spec.kind != Object {
			return errorf(InvalidFields, path(), "field spec is a JSON %s, want an object", spec.kind)
		}
		return errorf(InvalidFields, path(), "field spec has keys %s, want exactly type, required, max_length", keyList(spec))
	}
	typ, _ := spec.Lookup("type")
	required, _ := spec.Lookup("required")
	maxLength, _ := spec.Lookup("max_length")
	if typ.kind != String || typ.text != "string" && typ.text != "integer" && typ.text != "boolean" {
		return errorf(InvalidSpec, path()+".type", "type is %s, want \"string\", \"integer\" or \"boolean\"", brief(typ))
	}
	if required.kind != Bool {
		return errorf(InvalidSpec, path()+".required", "required is %s, want true or false", brief(required))
	}
	if _, ok := maxLengthOf(maxLength); !ok {
		return errorf(InvalidSpec, path()+".max_length", "max_length is %s, want an integer from %d to %d", brief(maxLength), MinMaxLength, MaxMaxLength)
	}
	return nil
}

// maxLengthOf returns the value of a max_length and reports whether it is a
// JSON integer literal from MinMaxLength to MaxMaxLength.
func maxLengthOf(v Value) (int, bool) {
	if !v.isInteger() || len(v.text) > 6 { // "-20000" is the longest literal worth parsing
		return 0, false
	}
	n, err := strconv.Atoi(v.text)
	if err != nil || n < MinMaxLength || n > MaxMaxLength {
		return 0, false
	}
	return n, true
}

func isLabelValue(v Value) bool { return v.kind == String && IsLabel(v.text) }

func labelError(path, what string, v Value) error {
	if v.kind == Absent {
		return errorf(InvalidLabel, path, "%s is missing, want a label (^[a-z][a-z0-9._-]{0,79}$)", what)
	}
	if v.kind != String {
		return errorf(InvalidLabel, path, "%s is a JSON %s, want a label (^[a-z][a-z0-9._-]{0,79}$)", what, v.kind)
	}
	return errorf(InvalidLabel, path, "%s %q is not a label (want ^[a-z][a-z0-9._-]{0,79}$)", what, v.text)
}

// keyList renders an object's keys for a message: "name, family, extra".
func keyList(v Value) string {
	keys := make([]string, len(v.members))
	for i, m := range v.members {
		keys[i] = strconv.Quote(m.key)
	}
	if len(keys) == 0 {
		return "(none)"
	}
	return strings.Join(keys, ", ")
}

// brief renders a value for a message, cut to a readable length.
func brief(v Value) string {
	const limit = 60
	s := v.String()
	if len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}
