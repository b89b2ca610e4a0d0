package catalog

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a [Value].
type Kind uint8

// The kinds of JSON value. Absent is the zero Value: "not given", which is
// different from a JSON null.
const (
	Absent Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"absent", "null", "boolean", "number", "string", "array", "object"}

// describeKind names a value's kind for a message: "missing" for Absent,
// else "a JSON string", "a JSON object", ...
func describeKind(k Kind) string {
	if k == Absent {
		return "missing"
	}
	return "a JSON " + k.String()
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one JSON value as [ParseJSON] read it: object members keep their
// order, numbers keep their literal text (so integers of any magnitude survive
// exactly), and strings are valid UTF-8.
//
// A Value is immutable: no method returns anything through which it can be
// changed, so sharing one is as good as copying it. The zero Value is Absent.
type Value struct {
	kind    Kind
	b       bool
	tag     keyTag // the contract key this value is the member of, if any (set by the parser)
	flags   valueFlags
	small   uint32   // String: a contract word (see classify); Number with flagSmallUint: its value
	text    string   // String: the content; Number: the literal
	members []member // Object: members in document order, keys unique; Array: elements, keys empty
}

// valueFlags cache facts the parser learns while the bytes are hot, so that
// validating a catalog reads only the tree, never the text again.
type valueFlags uint8

const (
	flagKeyLabel  valueFlags = 1 << iota // the key this value is the member of is a label
	flagLabel                            // a String that is a label
	flagSmallUint                        // a Number of 1 to 5 digits, no sign, fraction or exponent; small holds it
)

// Contract words a String may be, in small.
const (
	wordNone uint32 = iota
	wordString
	wordInteger
	wordBoolean
	wordRead
	wordChange
)

// classify sets the flags and small of a parsed String or Number.
func (v *Value) classify() {
	switch v.kind {
	case String:
		if IsLabel(v.text) {
			v.flags |= flagLabel
		}
		switch v.text {
		case "string":
			v.small = wordString
		case "integer":
			v.small = wordInteger
		case "boolean":
			v.small = wordBoolean
		case "read":
			v.small = wordRead
		case "change":
			v.small = wordChange
		}
	case Number:
		if len(v.text) > 5 {
			return
		}
		n := uint32(0)
		for i := 0; i < len(v.text); i++ {
			c := v.text[i]
			if c < '0' || c > '9' {
				return
			}
			n = n*10 + uint32(c-'0')
		}
		v.flags |= flagSmallUint
		v.small = n
	}
}

type member struct {
	key string
	val Value
}

// Kind reports the kind of v.
func (v Value) Kind() Kind { return v.kind }

// Bool returns the value of a Bool and reports whether v is one.
func (v Value) Bool() (b, ok bool) { return v.b, v.kind == Bool }

// Str returns the content of a String and reports whether v is one.
func (v Value) Str() (s string, ok bool) {
	if v.kind != String {
		return "", false
	}
	return v.text, true
}

// NumberLiteral returns the literal text of a Number, exactly as written in
// the JSON text ("10", "-0", "1.0", "1e2"), and reports whether v is one.
func (v Value) NumberLiteral() (lit string, ok bool) {
	if v.kind != Number {
		return "", false
	}
	return v.text, true
}

// Len returns the number of elements of an Array or members of an Object,
// and 0 for every other kind.
func (v Value) Len() int {
	if v.kind == Array || v.kind == Object {
		return len(v.members)
	}
	return 0
}

// Index returns element i of an Array, or member i's value of an Object. It
// panics if i is out of range, like a slice index.
func (v Value) Index(i int) Value {
	if v.kind != Array && v.kind != Object {
		panic("catalog: Index of a JSON " + v.kind.String())
	}
	return v.members[i].val
}

// Key returns the key of member i of an Object. It panics if i is out of
// range.
func (v Value) Key(i int) string {
	if v.kind != Object {
		panic("catalog: Key of a JSON " + v.kind.String())
	}
	return v.members[i].key
}

// Lookup returns the value of the member of an Object with the given key, and
// reports whether there is one.
func (v Value) Lookup(key string) (Value, bool) {
	for i := range v.members {
		if v.members[i].key == key {
			return v.members[i].val, true
		}
	}
	return Value{}, false
}

// isInteger reports whether v is a Number written with no fraction and no
// exponent: the contract's integers.
func (v Value) isInteger() bool {
	if v.kind != Number {
		return false
	}
	for i := 0; i < len(v.text); i++ {
		if c := v.text[i]; c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// MarshalJSON returns the compact JSON text of v: members in order, numbers
// as their literal, strings with only the escapes JSON requires (so <, > and &
// are written as they are). An Absent value marshals as null.
func (v Value) MarshalJSON() ([]byte, error) { return v.appendJSON(nil), nil }

// String returns the compact JSON text of v.
func (v Value) String() string { return string(v.appendJSON(nil)) }

func (v Value) appendJSON(b []byte) []byte {
	switch v.kind {
	case Bool:
		return strconv.AppendBool(b, v.b)
	case Number:
		return append(b, v.text...)
	case String:
		return appendString(b, v.text)
	case Array:
		b = append(b, '[')
		for i := range v.members {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.members[i].val.appendJSON(b)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		for i, m := range v.members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.key)
			b = append(b, ':')
			b = m.val.appendJSON(b)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

const hexDigits = "0123456789abcdef"

// AppendQuote appends s to b as a JSON string, the way every JSON text of
// this package writes strings: '"' and '\\' escaped with a backslash, U+0000
// to U+001F as \b \f \n \r \t or \u00xx (lowercase hex), every other
// character as its UTF-8 bytes (so <, >, & and U+2028 are not escaped).
// Invalid UTF-8 in s is written as U+FFFD.
func AppendQuote(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return appendString(b, s)
}

// appendString appends s as a JSON string: '"', '\\' and control characters
// escaped (\b \f \n \r \t, else \u00xx), everything else as UTF-8. s must be
// valid UTF-8, as every string in this package is.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// codePointsAtMost reports whether the valid UTF-8 string s has at most n code
// points, without counting past n+1.
func codePointsAtMost(s string, n int) bool {
	if len(s) <= n {
		return true // every code point is at least one byte
	}
	count := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
		count++
		if count > n {
			return false
		}
	}
	return true
}
