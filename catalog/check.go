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

// keyTag names the object keys the contract knows. The parser tags every
// member value with its key's tag, so that checking a key set never reads
// the key's bytes again: a catalog walk touches less memory.
type keyTag uint8

const (
	tagOther keyTag = iota
	tagName
	tagFamily
	tagEffect
	tagEnabled
	tagFields
	tagType
	tagRequired
	tagMaxLength
)

func tagOf(key string) keyTag {
	switch key {
	case "name":
		return tagName
	case "family":
		return tagFamily
	case "effect":
		return tagEffect
	case "enabled":
		return tagEnabled
	case "fields":
		return tagFields
	case "type":
		return tagType
	case "required":
		return tagRequired
	case "max_length":
		return tagMaxLength
	}
	return tagOther
}

// toolParts is a tool definition split into its five values.
type toolParts struct {
	name, family, effect, enabled, fields *Value
}

// splitTool splits a tool definition and reports whether it is an object with
// exactly the five keys.
func splitTool(v *Value) (t toolParts, ok bool) {
	if v.kind != Object || len(v.members) != toolKeyCount {
		return t, false
	}
	for i := range v.members {
		m := &v.members[i]
		var slot **Value
		switch m.val.tag {
		case tagName:
			slot = &t.name
		case tagFamily:
			slot = &t.family
		case tagEffect:
			slot = &t.effect
		case tagEnabled:
			slot = &t.enabled
		case tagFields:
			slot = &t.fields
		default:
			return t, false
		}
		if *slot != nil {
			return t, false // a repeated key: not exactly the five
		}
		*slot = &m.val
	}
	return t, true
}

// specParts is a field spec split into its three values.
type specParts struct {
	typ, required, maxLength *Value
}

// splitSpec splits a field spec and reports whether it is an object with
// exactly the three keys.
func splitSpec(v *Value) (s specParts, ok bool) {
	if v.kind != Object || len(v.members) != fieldSpecKeyCount {
		return s, false
	}
	for i := range v.members {
		m := &v.members[i]
		var slot **Value
		switch m.val.tag {
		case tagType:
			slot = &s.typ
		case tagRequired:
			slot = &s.required
		case tagMaxLength:
			slot = &s.maxLength
		default:
			return s, false
		}
		if *slot != nil {
			return s, false
		}
		*slot = &m.val
	}
	return s, true
}

// checkCatalog validates a whole catalog in the contract's order; the first
// failing check decides the error. It returns the index in the catalog of
// each tool name, which the duplicate check builds anyway.
func checkCatalog(cat Value) (map[string]int, error) {
	if cat.kind != Array {
		return nil, errorf(InvalidCatalog, "$", "catalog is %s, want an array of tool definitions", describeKind(cat.kind))
	}
	if len(cat.members) > MaxTools {
		return nil, errorf(InvalidCatalog, "$", "catalog has %d tools, over the limit of %d", len(cat.members), MaxTools)
	}
	names := make(map[string]int, len(cat.members))
	for i := range cat.members {
		if err := checkTool(i, &cat.members[i].val, names); err != nil {
			return nil, err
		}
	}
	return names, nil
}

func toolPath(i int) string { return "$[" + strconv.Itoa(i) + "]" }

// fieldPath is the path of field key of tool i, plus an optional suffix. It
// is built only for an error, never on the valid path.
func fieldPath(i int, key, suffix string) string {
	var b strings.Builder
	b.WriteString(toolPath(i))
	b.WriteString(".fields")
	writePathElem(&b, pathElem{key: key, index: -1})
	b.WriteString(suffix)
	return b.String()
}

func checkTool(i int, tool *Value, names map[string]int) error {
	t, ok := splitTool(tool)
	if !ok {
		if tool.kind != Object {
			return errorf(InvalidFields, toolPath(i), "tool definition is a JSON %s, want an object", tool.kind)
		}
		return errorf(InvalidFields, toolPath(i), "tool definition has keys %s, want exactly name, family, effect, enabled, fields", keyList(*tool))
	}
	name, family, effect, enabled, fields := t.name, t.family, t.effect, t.enabled, t.fields
	if !parsedLabel(name) {
		return labelError(toolPath(i)+".name", "tool name", *name)
	}
	if !parsedLabel(family) {
		return labelError(toolPath(i)+".family", "family", *family)
	}
	if _, dup := names[name.text]; dup {
		return errorf(DuplicateTool, toolPath(i)+".name", "tool name %q is already used by an earlier tool", name.text)
	}
	names[name.text] = i
	if effect.kind != String || effect.small != wordRead && effect.small != wordChange {
		return errorf(InvalidMetadata, toolPath(i)+".effect", "effect is %s, want \"read\" or \"change\"", brief(*effect))
	}
	if enabled.kind != Bool {
		return errorf(InvalidMetadata, toolPath(i)+".enabled", "enabled is %s, want true or false", brief(*enabled))
	}
	if fields.kind != Object {
		return errorf(InvalidFields, toolPath(i)+".fields", "fields is a JSON %s, want an object", fields.kind)
	}
	if len(fields.members) > MaxFields {
		return errorf(InvalidFields, toolPath(i)+".fields", "tool has %d fields, over the limit of %d", len(fields.members), MaxFields)
	}
	for j := range fields.members {
		if err := checkField(i, &fields.members[j]); err != nil {
			return err
		}
	}
	return nil
}

func checkField(i int, f *member) error {
	if f.val.flags&flagKeyLabel == 0 {
		return errorf(InvalidLabel, fieldPath(i, f.key, ""), "field name %q is not a label (want ^[a-z][a-z0-9._-]{0,79}$)", f.key)
	}
	spec := &f.val
	sp, ok := splitSpec(spec)
	if !ok {
		if spec.kind != Object {
			return errorf(InvalidFields, fieldPath(i, f.key, ""), "field spec is a JSON %s, want an object", spec.kind)
		}
		return errorf(InvalidFields, fieldPath(i, f.key, ""), "field spec has keys %s, want exactly type, required, max_length", keyList(*spec))
	}
	typ, required, maxLength := sp.typ, sp.required, sp.maxLength
	if typ.kind != String || typ.small < wordString || typ.small > wordBoolean {
		return errorf(InvalidSpec, fieldPath(i, f.key, ".type"), "type is %s, want \"string\", \"integer\" or \"boolean\"", brief(*typ))
	}
	if required.kind != Bool {
		return errorf(InvalidSpec, fieldPath(i, f.key, ".required"), "required is %s, want true or false", brief(*required))
	}
	if _, ok := maxLengthOf(*maxLength); !ok {
		return errorf(InvalidSpec, fieldPath(i, f.key, ".max_length"), "max_length is %s, want an integer from %d to %d", brief(*maxLength), MinMaxLength, MaxMaxLength)
	}
	return nil
}

// maxLengthOf returns the value of a max_length and reports whether it is a
// JSON integer literal from MinMaxLength to MaxMaxLength. Such a literal is
// 1 to 5 digits with no sign, fraction or exponent ("-0" is the integer 0),
// which the parser recorded in v.small.
func maxLengthOf(v Value) (int, bool) {
	if v.kind != Number || v.flags&flagSmallUint == 0 {
		return 0, false
	}
	n := int(v.small)
	return n, MinMaxLength <= n && n <= MaxMaxLength
}

func isLabelValue(v *Value) bool { return v.kind == String && IsLabel(v.text) }

// parsedLabel is isLabelValue for a value of a parsed catalog, from the flag
// the parser set.
func parsedLabel(v *Value) bool { return v.kind == String && v.flags&flagLabel != 0 }

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
