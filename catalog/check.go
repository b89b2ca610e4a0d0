package catalog

import (
	"fmt"
	"slices"
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
func IsLabel(s string) bool { return isLabel(s) }

func isLabel[T string | []byte](s T) bool {
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
// the key's bytes again: a catalog walk touches less memory. A tool's five
// tags and a spec's three are each consecutive, in the order of toolParts'
// and specParts' fields ([split] relies on it).
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

func tagOf[T string | []byte](key T) keyTag {
	switch string(key) {
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
	name, family, effect, enabled, fields Value
}

// splitTool splits a tool definition and reports whether it is an object with
// exactly the five keys.
func splitTool(v Value) (toolParts, bool) {
	var p [toolKeyCount]Value
	ok := split(v, tagName, p[:])
	return toolParts{p[0], p[1], p[2], p[3], p[4]}, ok
}

// specParts is a field spec split into its three values.
type specParts struct {
	typ, required, maxLength Value
}

// splitSpec splits a field spec and reports whether it is an object with
// exactly the three keys.
func splitSpec(v Value) (specParts, bool) {
	var p [fieldSpecKeyCount]Value
	ok := split(v, tagType, p[:])
	return specParts{p[0], p[1], p[2]}, ok
}

// split puts into parts[i] the value of v's member whose key's tag is
// first+i, and reports whether v is an object with exactly those keys, each
// once. The parts' order is their tags' order.
func split(v Value, first keyTag, parts []Value) bool {
	if v.Kind() != Object || v.Len() != len(parts) {
		return false
	}
	for key, val := range v.members() {
		i := int(key.tag()) - int(first)
		if i < 0 || i >= len(parts) || parts[i].Kind() != Absent {
			return false // another key, or a repeated one
		}
		parts[i] = val
	}
	return true
}

// checkCatalog validates a whole catalog in the contract's order; the first
// failing check decides the error. It returns the index in the catalog of
// each tool name, which the duplicate check builds anyway.
func checkCatalog(cat Value) (map[string]int, error) {
	if cat.Kind() != Array {
		return nil, errorf(InvalidCatalog, "$", "catalog is %s, want an array of tool definitions", describeKind(cat.Kind()))
	}
	if cat.Len() > MaxTools {
		return nil, errorf(InvalidCatalog, "$", "catalog has %d tools, over the limit of %d", cat.Len(), MaxTools)
	}
	names := make(map[string]int, cat.Len())
	i := 0
	for tool := range cat.elems() {
		if err := checkTool(i, tool, names); err != nil {
			return nil, err
		}
		i++
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
	writeKey(&b, key)
	b.WriteString(suffix)
	return b.String()
}

func checkTool(i int, tool Value, names map[string]int) error {
	t, ok := splitTool(tool)
	if !ok {
		if tool.Kind() != Object {
			return errorf(InvalidFields, toolPath(i), "tool definition is a JSON %s, want an object", tool.Kind())
		}
		return errorf(InvalidFields, toolPath(i), "tool definition has keys %s, want exactly name, family, effect, enabled, fields%s", keyList(tool), keyMistakes(tool, toolKeys))
	}
	name, family, effect, enabled, fields := t.name, t.family, t.effect, t.enabled, t.fields
	if !isLabelValue(name) {
		return labelError(toolPath(i)+".name", "tool name", name)
	}
	if !isLabelValue(family) {
		return labelError(toolPath(i)+".family", "family", family)
	}
	nameText := name.text()
	if _, dup := names[nameText]; dup {
		return errorf(DuplicateTool, toolPath(i)+".name", "tool name %q is already used by an earlier tool", nameText)
	}
	names[nameText] = i
	if w := effect.word(); w != wordRead && w != wordChange {
		return errorf(InvalidMetadata, toolPath(i)+".effect", "effect is %s, want \"read\" or \"change\"", brief(effect))
	}
	if enabled.Kind() != Bool {
		return errorf(InvalidMetadata, toolPath(i)+".enabled", "enabled is %s, want true or false", brief(enabled))
	}
	if fields.Kind() != Object {
		return errorf(InvalidFields, toolPath(i)+".fields", "fields is a JSON %s, want an object", fields.Kind())
	}
	if fields.Len() > MaxFields {
		return errorf(InvalidFields, toolPath(i)+".fields", "tool has %d fields, over the limit of %d", fields.Len(), MaxFields)
	}
	for key, spec := range fields.members() {
		if err := checkField(i, key, spec); err != nil {
			return err
		}
	}
	return nil
}

func checkField(i int, key, spec Value) error {
	if !key.has(flagLabel) {
		return errorf(InvalidLabel, fieldPath(i, key.text(), ""), "field name %s is not a label (want ^[a-z][a-z0-9._-]{0,79}$)", quoteShort(key.text()))
	}
	sp, ok := splitSpec(spec)
	if !ok {
		if spec.Kind() != Object {
			return errorf(InvalidFields, fieldPath(i, key.text(), ""), "field spec is a JSON %s, want an object", spec.Kind())
		}
		return errorf(InvalidFields, fieldPath(i, key.text(), ""), "field spec has keys %s, want exactly type, required, max_length%s", keyList(spec), keyMistakes(spec, specKeys))
	}
	typ, required, maxLength := sp.typ, sp.required, sp.maxLength
	if w := typ.word(); w < wordString || w > wordBoolean {
		return errorf(InvalidSpec, fieldPath(i, key.text(), ".type"), "type is %s, want \"string\", \"integer\" or \"boolean\"", brief(typ))
	}
	if required.Kind() != Bool {
		return errorf(InvalidSpec, fieldPath(i, key.text(), ".required"), "required is %s, want true or false", brief(required))
	}
	if _, ok := maxLengthOf(maxLength); !ok {
		return errorf(InvalidSpec, fieldPath(i, key.text(), ".max_length"), "max_length is %s, want an integer from %d to %d", brief(maxLength), MinMaxLength, MaxMaxLength)
	}
	return nil
}

// maxLengthOf returns the value of a max_length and reports whether it is a
// JSON integer literal from MinMaxLength to MaxMaxLength. Such a literal is
// 1 to 5 digits with no sign, fraction or exponent ("-0" is the integer 0),
// which the parser flagged.
func maxLengthOf(v Value) (int, bool) {
	if v.Kind() != Number || !v.has(flagBit) {
		return 0, false
	}
	n, _ := strconv.Atoi(v.text())
	return n, MinMaxLength <= n && n <= MaxMaxLength
}

// isLabelValue reports whether v is a String that is a label, from the flag
// the parser set.
func isLabelValue(v Value) bool { return v.Kind() == String && v.has(flagLabel) }

func labelError(path, what string, v Value) error {
	if v.Kind() == Absent {
		return errorf(InvalidLabel, path, "%s is missing, want a label (^[a-z][a-z0-9._-]{0,79}$)", what)
	}
	if v.Kind() != String {
		return errorf(InvalidLabel, path, "%s is a JSON %s, want a label (^[a-z][a-z0-9._-]{0,79}$)", what, v.Kind())
	}
	return errorf(InvalidLabel, path, "%s %s is not a label (want ^[a-z][a-z0-9._-]{0,79}$)", what, quoteShort(v.text()))
}

// keyList renders an object's keys for a message: "name, family, extra".
// The keys of a tool definition and of a field spec, in the order the
// messages name them.
var (
	toolKeys = []string{"name", "family", "effect", "enabled", "fields"}
	specKeys = []string{"type", "required", "max_length"}
)

// keyMistakes says, for an object whose keys are not exactly want, which
// keys are unknown (each with the missing key it most likely meant, when one
// is close) and which are missing: ": unknown key "enabeld" (did you mean
// "enabled"?)". It is "" when there is nothing to add.
func keyMistakes(v Value, want []string) string {
	have := map[string]bool{}
	var unknown []string
	for key := range v.members() {
		k := key.text()
		have[k] = true
		if !slices.Contains(want, k) {
			unknown = append(unknown, k)
		}
	}
	var missing []string
	for _, k := range want {
		if !have[k] {
			missing = append(missing, k)
		}
	}
	var parts []string
	meant := map[string]bool{}
	for _, k := range unknown {
		part := fmt.Sprintf("unknown key %q", k)
		if m := closest(k, missing); m != "" {
			part += fmt.Sprintf(" (did you mean %q?)", m)
			meant[m] = true
		}
		parts = append(parts, part)
	}
	for _, k := range missing {
		if !meant[k] {
			parts = append(parts, fmt.Sprintf("missing key %q", k))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

// closest returns the candidate nearest to s, when it is within two edits
// (an insertion, deletion, substitution, or swap of neighbours, ignoring
// case) and nearer than rewriting s outright; "" otherwise.
func closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), c); d < bestD && d < len(c) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b,
// in bytes: keys are short, so the quadratic table is small. Keys over 100
// bytes are never close to a contract key.
func editDistance(a, b string) int {
	if len(a) > 100 || len(b) > 100 {
		return max(len(a), len(b))
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func keyList(v Value) string {
	var keys []string
	for key := range v.members() {
		keys = append(keys, strconv.Quote(key.text()))
	}
	if len(keys) == 0 {
		return "(none)"
	}
	return strings.Join(keys, ", ")
}

// brief renders a value for a message, cut to a readable length.
func brief(v Value) string {
	const limit = 60
	s := string(v.appendJSON(nil, limit))
	if len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}
