package catalog

import (
	"iter"
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
//
// A Value is small (a pointer and an index): it points into the compact form
// of the whole JSON text it came from, which stays in memory while any Value
// of it does.
type Value struct {
	d *doc
	i uint32 // the value's node in d.nodes
}

// A doc is a parsed JSON text in compact form: one 8-byte node per value
// and per object key, in document order (a container is followed by its
// members, a key by its value), with strings and numbers left in the text.
// The memory a doc holds is a small multiple of the text's length whatever
// its shape (see README "Performance").
type doc struct {
	src   string // the JSON text; unescaped strings and numbers are substrings of it
	esc   string // the content of strings written with escapes, decoded
	nodes []node
	// long holds the length of a String or Number node, or the count of a
	// container, too large for its node (flagLong).
	long map[uint32]uint32
	// marks holds, for a container of more than markEvery children that are
	// not all single nodes, where in markList the node index of every
	// markEvery-th child starts: Index then hops over at most markEvery-1
	// children.
	marks    map[uint32]uint32
	markList []uint32
}

// markEvery is the distance between two marks of a container's children.
const markEvery = 32

// A node is one value or object key of a doc.
//
// head holds the Kind in bits 0-2, the flags in bits 3-7, and above them:
// for a String, its key tag (4 bits), its contract word (3 bits) and its
// length in bytes (17 bits); for a Number, the length of its literal (24
// bits); for an Array or Object, its count of elements or members (24 bits).
// A length or count that does not fit is in doc.long (flagLong).
//
// pos is the offset of a String's content in doc.src, or in doc.esc with
// flagEscaped; the offset of a Number's literal in doc.src; the index of
// the node after a container's last descendant.
type node struct {
	head uint32
	pos  uint32
}

const (
	kindMask    = 1<<3 - 1
	flagLabel   = 1 << 3 // a String that is a label
	flagEscaped = 1 << 4 // a String written with escapes: its content is in doc.esc
	flagLong    = 1 << 5 // the length or count is in doc.long
	// flagBit is true for a Bool; for a Number, a literal of 1 to 5 digits
	// with no sign, fraction or exponent; for an Array or Object, that every
	// child is a single node (so child i is found without a walk).
	flagBit = 1 << 6
	// flagTruncated marks a container whose children were not all kept: only
	// an over-limit catalog read by Parse has one, and it never leaves Parse.
	flagTruncated = 1 << 7

	tagShift    = 8
	wordShift   = 12
	strLenShift = 15
	maxStrLen   = 1<<17 - 1
	countShift  = 8
	maxCount    = 1<<24 - 1
)

// Contract words a String may be, in its node.
const (
	wordNone uint32 = iota
	wordString
	wordInteger
	wordBoolean
	wordRead
	wordChange
)

// wordOf returns the contract word s is, or wordNone.
func wordOf[T string | []byte](s T) uint32 {
	switch string(s) {
	case "string":
		return wordString
	case "integer":
		return wordInteger
	case "boolean":
		return wordBoolean
	case "read":
		return wordRead
	case "change":
		return wordChange
	}
	return wordNone
}

// stringValue returns a String Value with content s (valid UTF-8), for a
// string that did not come from a JSON text, such as a parameter of a
// compiled catalog's method.
func stringValue(s string) Value {
	d := &doc{esc: s, nodes: []node{{head: uint32(String) | flagEscaped}}}
	setString(d, 0, s)
	return Value{d: d}
}

// setString sets the length, label flag and word of String node i, whose
// content is s.
func setString[T string | []byte](d *doc, i uint32, s T) {
	h := d.nodes[i].head
	if len(s) <= maxStrLen {
		h |= uint32(len(s)) << strLenShift
	} else {
		h |= flagLong
		d.setLong(i, len(s))
	}
	if isLabel(s) {
		h |= flagLabel
	}
	h |= wordOf(s) << wordShift
	d.nodes[i].head = h
}

func (d *doc) setLong(i uint32, n int) {
	if d.long == nil {
		d.long = make(map[uint32]uint32)
	}
	d.long[i] = uint32(n)
}

func (v Value) node() node { return v.d.nodes[v.i] }

// Kind reports the kind of v.
func (v Value) Kind() Kind {
	if v.d == nil {
		return Absent
	}
	return Kind(v.d.nodes[v.i].head & kindMask)
}

func (v Value) has(flag uint32) bool { return v.d != nil && v.d.nodes[v.i].head&flag != 0 }

// Bool returns the value of a Bool and reports whether v is one.
func (v Value) Bool() (b, ok bool) {
	if v.Kind() != Bool {
		return false, false
	}
	return v.has(flagBit), true
}

// Str returns the content of a String and reports whether v is one.
func (v Value) Str() (s string, ok bool) {
	if v.Kind() != String {
		return "", false
	}
	return v.text(), true
}

// NumberLiteral returns the literal text of a Number, exactly as written in
// the JSON text ("10", "-0", "1.0", "1e2"), and reports whether v is one.
func (v Value) NumberLiteral() (lit string, ok bool) {
	if v.Kind() != Number {
		return "", false
	}
	return v.text(), true
}

// text returns the content of a String or the literal of a Number, and ""
// for every other kind.
func (v Value) text() string {
	if v.d == nil {
		return ""
	}
	n := v.d.nodes[v.i]
	switch Kind(n.head & kindMask) {
	case String:
		l := int(n.head >> strLenShift)
		if n.head&flagLong != 0 {
			l = int(v.d.long[v.i])
		}
		if n.head&flagEscaped != 0 {
			return v.d.esc[n.pos : int(n.pos)+l]
		}
		return v.d.src[n.pos : int(n.pos)+l]
	case Number:
		l := int(n.head >> countShift)
		if n.head&flagLong != 0 {
			l = int(v.d.long[v.i])
		}
		return v.d.src[n.pos : int(n.pos)+l]
	}
	return ""
}

// word returns the contract word a String is, or wordNone.
func (v Value) word() uint32 {
	if v.Kind() != String {
		return wordNone
	}
	return v.node().head >> wordShift & 7
}

// tag returns the contract key tag of a String read as an object key.
func (v Value) tag() keyTag {
	if v.d == nil {
		return tagOther
	}
	return keyTag(v.node().head >> tagShift & 15)
}

// Len returns the number of elements of an Array or members of an Object,
// and 0 for every other kind.
func (v Value) Len() int {
	switch v.Kind() {
	case Array, Object:
		n := v.node()
		if n.head&flagLong != 0 {
			return int(v.d.long[v.i])
		}
		return int(n.head >> countShift)
	}
	return 0
}

// next returns the index of the node after node i and its descendants.
func (d *doc) next(i uint32) uint32 {
	n := d.nodes[i]
	if k := Kind(n.head & kindMask); k == Array || k == Object {
		return n.pos
	}
	return i + 1
}

// child returns the node index of child c of container v: element c of an
// Array, or for an Object the key of member c/2 (c even) or its value (c
// odd).
func (v Value) child(c int) uint32 {
	n := v.node()
	if n.head&flagBit != 0 {
		return v.i + 1 + uint32(c)
	}
	i := v.i + 1
	step := c
	if v.Kind() == Object {
		step = c / 2
	}
	if m := step / markEvery; m > 0 {
		i = v.d.markList[int(v.d.marks[v.i])+m-1]
		step -= m * markEvery
	}
	for range step {
		if v.Kind() == Object {
			i = v.d.next(i + 1)
		} else {
			i = v.d.next(i)
		}
	}
	if v.Kind() == Object && c%2 == 1 {
		i++
	}
	return i
}

// Index returns element i of an Array, or member i's value of an Object. It
// panics if i is out of range, like a slice index.
func (v Value) Index(i int) Value {
	k := v.Kind()
	if k != Array && k != Object {
		panic("catalog: Index of a JSON " + k.String())
	}
	if i < 0 || i >= v.Len() {
		panic("catalog: index " + strconv.Itoa(i) + " out of range [0:" + strconv.Itoa(v.Len()) + "]")
	}
	if k == Object {
		return Value{v.d, v.child(2*i + 1)}
	}
	return Value{v.d, v.child(i)}
}

// Key returns the key of member i of an Object. It panics if i is out of
// range.
func (v Value) Key(i int) string {
	if k := v.Kind(); k != Object {
		panic("catalog: Key of a JSON " + k.String())
	}
	if i < 0 || i >= v.Len() {
		panic("catalog: index " + strconv.Itoa(i) + " out of range [0:" + strconv.Itoa(v.Len()) + "]")
	}
	return Value{v.d, v.child(2 * i)}.text()
}

// Lookup returns the value of the member of an Object with the given key, and
// reports whether there is one.
func (v Value) Lookup(key string) (Value, bool) {
	for k, val := range v.members() {
		if k.text() == key {
			return val, true
		}
	}
	return Value{}, false
}

// elems iterates over the elements of an Array (nothing for another kind).
func (v Value) elems() iter.Seq[Value] {
	return func(yield func(Value) bool) {
		if v.Kind() != Array {
			return
		}
		d := v.d
		for i, end := v.i+1, d.nodes[v.i].pos; i < end; i = d.next(i) {
			if !yield(Value{d, i}) {
				return
			}
		}
	}
}

// members iterates over the keys (as String values) and values of an
// Object's members, in order (nothing for another kind).
func (v Value) members() iter.Seq2[Value, Value] {
	return func(yield func(Value, Value) bool) {
		if v.Kind() != Object {
			return
		}
		d := v.d
		for i, end := v.i+1, d.nodes[v.i].pos; i < end; i = d.next(i + 1) {
			if !yield(Value{d, i}, Value{d, i + 1}) {
				return
			}
		}
	}
}

// isInteger reports whether v is a Number written with no fraction and no
// exponent: the contract's integers.
func (v Value) isInteger() bool {
	return v.Kind() == Number && !strings.ContainsAny(v.text(), ".eE")
}

// MarshalJSON returns the compact JSON text of v: members in order, numbers
// as their literal, strings with only the escapes JSON requires (so <, > and &
// are written as they are). An Absent value marshals as null.
func (v Value) MarshalJSON() ([]byte, error) { return v.appendJSON(nil, -1), nil }

// String returns the compact JSON text of v.
func (v Value) String() string { return string(v.appendJSON(nil, -1)) }

// appendJSON appends the compact JSON text of v to b. With stop >= 0 it may
// return as soon as b is longer than stop, having written a prefix of the
// text of at least stop bytes: a message about a 32 MiB value needs its first
// line, not a copy of it.
func (v Value) appendJSON(b []byte, stop int) []byte {
	switch v.Kind() {
	case Bool:
		return strconv.AppendBool(b, v.has(flagBit))
	case Number:
		lit := v.text()
		if stop >= 0 && len(b)+len(lit) > stop {
			lit = lit[:max(stop-len(b)+1, 0)]
		}
		return append(b, lit...)
	case String:
		s := v.text()
		if stop >= 0 && len(b)+len(s) > stop {
			cut := max(stop-len(b)+1, 0)
			for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
				cut--
			}
			s = s[:cut]
		}
		return appendString(b, s)
	case Array:
		b = append(b, '[')
		first := true
		for e := range v.elems() {
			if stop >= 0 && len(b) > stop {
				return b
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = e.appendJSON(b, stop)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		first := true
		for k, val := range v.members() {
			if stop >= 0 && len(b) > stop {
				return b
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = k.appendJSON(b, stop)
			b = append(b, ':')
			b = val.appendJSON(b, stop)
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
