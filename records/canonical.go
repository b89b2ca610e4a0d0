package records

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
)

// Canonical returns the canonical form of a JSON text, the form every record
// file is written in (see FORMAT.md): two-space indentation, strings with
// only the escapes JSON requires, numbers exactly as written, LF line ends
// and one final newline. Object members are sorted by Unicode code point of
// their keys, except where the contract defines their order: the objects at
// [OrderedPath] keep the order the text gives them.
//
// The text is read with [catalog.ParseJSON], so it must be strict JSON (no
// duplicate keys, valid UTF-8) and number literals survive exactly. An error
// is the [*catalog.Error] of the JSON text layer.
func Canonical(jsonText []byte) ([]byte, error) {
	v, err := catalog.ParseJSON(jsonText)
	if err != nil {
		return nil, err
	}
	return Encode(v)
}

// OrderedPath is where, in a record, objects keep their members in the
// order the call returned them: the keys from the record's top, with "[]"
// for any element of an array. It is each description's
// inputSchema.properties in a discover result, whose order is the tool's
// field order (the contract's order; a validate_arguments result is an
// object, so the path never matches it). Every other object of a record has
// no order in the contract and is written with its keys sorted.
var OrderedPath = []string{"outcome", "result", "[]", "inputSchema", "properties"}

// Encode returns the canonical form of v (see [Canonical]), v being at the
// top of a record. It fails only for an Absent value, which has no JSON form.
func Encode(v catalog.Value) ([]byte, error) {
	return encodeAt(v)
}

// encodeAt returns the canonical form of v found in a record under the
// given keys ("[]" for an array element), so that a part of a record keeps
// the order it has in the record file.
func encodeAt(v catalog.Value, path ...string) ([]byte, error) {
	if v.Kind() == catalog.Absent {
		return nil, errors.New("cannot encode an absent value")
	}
	at := matched(0)
	for _, k := range path {
		at = at.next(k)
	}
	b := appendCanonical(nil, v, 0, at)
	return append(b, '\n'), nil
}

// matched is how many keys of [OrderedPath] the path from the top of a
// record to a value has matched so far, or -1 once it left it.
type matched int

func (m matched) next(key string) matched {
	if m < 0 || int(m) >= len(OrderedPath) || OrderedPath[m] != key {
		return -1
	}
	return m + 1
}

// keepsOrder reports whether an object at m is one of [OrderedPath].
func (m matched) keepsOrder() bool { return int(m) == len(OrderedPath) }

// appendCanonical appends v, whose first line is already indented by depth
// levels and which is at m in the record, to b.
func appendCanonical(b []byte, v catalog.Value, depth int, m matched) []byte {
	switch v.Kind() {
	case catalog.Null:
		return append(b, "null"...)
	case catalog.Bool:
		if t, _ := v.Bool(); t {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case catalog.Number:
		lit, _ := v.NumberLiteral()
		return append(b, lit...)
	case catalog.String:
		s, _ := v.Str()
		return appendString(b, s)
	case catalog.Array:
		if v.Len() == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNewline(b, depth+1)
			b = appendCanonical(b, v.Index(i), depth+1, m.next("[]"))
		}
		b = appendNewline(b, depth)
		return append(b, ']')
	case catalog.Object:
		if v.Len() == 0 {
			return append(b, "{}"...)
		}
		order := make([]int, v.Len())
		for i := range order {
			order[i] = i
		}
		if !m.keepsOrder() {
			// Sorting Go strings compares their UTF-8 bytes, which
			// orders them by Unicode code point. Keys are unique:
			// ParseJSON rejects duplicates.
			slices.SortFunc(order, func(i, j int) int { return strings.Compare(v.Key(i), v.Key(j)) })
		}
		b = append(b, '{')
		for n, i := range order {
			if n > 0 {
				b = append(b, ',')
			}
			b = appendNewline(b, depth+1)
			b = appendString(b, v.Key(i))
			b = append(b, ": "...)
			b = appendCanonical(b, v.Index(i), depth+1, m.next(v.Key(i)))
		}
		b = appendNewline(b, depth)
		return append(b, '}')
	}
	panic(fmt.Sprintf("records: cannot encode a JSON value of kind %v", v.Kind()))
}

func appendNewline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, "  "...)
	}
	return b
}

// appendString appends s as a JSON string: '"' and '\\' escaped with a
// backslash, U+0000 to U+001F as \b \f \n \r \t or \u00xx (lowercase hex),
// every other character as its UTF-8 bytes (FORMAT.md §3). That is exactly
// how the catalog package writes strings.
func appendString(b []byte, s string) []byte { return catalog.AppendQuote(b, s) }
