package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The runner keeps its own small JSON tree, independent of the catalog
// package it tests: object members keep their order (a catalog's field order
// matters), numbers and strings keep their literal text (so a case file's
// "\ud83d\ude00" escape is sent to a port exactly as written and a
// 41-digit integer is never rounded), and comparison is by JSON value.

type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// node is one JSON value. Nodes are mutable only while a case is being
// resolved (catalog patches); after that they are shared read-only.
type node struct {
	kind  kind
	lit   string  // null, boolean, number, string: the literal text as written
	str   string  // string: the decoded content
	items []*node // array
	keys  []string
	vals  []*node // object, in order; keys are unique
}

// lookup returns the value of an object member.
func (n *node) lookup(key string) (*node, bool) {
	if n == nil || n.kind != kObject {
		return nil, false
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i], true
		}
	}
	return nil, false
}

// clone returns a deep copy of n.
func (n *node) clone() *node {
	c := *n
	if n.items != nil {
		c.items = make([]*node, len(n.items))
		for i, it := range n.items {
			c.items[i] = it.clone()
		}
	}
	if n.kind == kObject {
		c.keys = append([]string(nil), n.keys...)
		c.vals = make([]*node, len(n.vals))
		for i, v := range n.vals {
			c.vals[i] = v.clone()
		}
	}
	return &c
}

// appendJSON appends n as compact JSON text on one line, with every literal
// exactly as it was read.
func (n *node) appendJSON(b []byte) []byte {
	switch n.kind {
	case kArray:
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendJSON(b)
		}
		return append(b, ']')
	case kObject:
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = n.vals[i].appendJSON(b)
		}
		return append(b, '}')
	}
	return append(b, n.lit...)
}

func (n *node) String() string { return string(n.appendJSON(nil)) }

// appendJSONString appends s as a JSON string with only the escapes JSON
// requires: '"', '\\' and control characters.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
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
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func newString(s string) *node {
	return &node{kind: kString, lit: string(appendJSONString(nil, s)), str: s}
}

func newObject() *node { return &node{kind: kObject, keys: []string{}, vals: []*node{}} }

func (n *node) set(key string, v *node) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

var jsonNull = &node{kind: kNull, lit: "null"}

// maxDepth bounds the nesting the runner reads, from case files and from
// ports alike.
const maxDepth = 64

// parseJSON reads one JSON value strictly: valid UTF-8, no lone surrogate
// escapes, no duplicate object keys, nothing but white space after the value,
// nesting at most maxDepth.
func parseJSON(data []byte) (*node, error) {
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, size := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return nil, fmt.Errorf("invalid UTF-8 at byte offset %d", off)
	}
	p := &jparser{data: data}
	p.space()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.data) {
		return nil, p.errorf("unexpected data after the value")
	}
	return n, nil
}

type jparser struct {
	data []byte
	pos  int
}

func (p *jparser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s at byte offset %d", fmt.Sprintf(format, args...), p.pos)
}

func (p *jparser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) value(depth int) (*node, error) {
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of JSON text")
	}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return nil, p.errorf("nesting deeper than %d", maxDepth)
		}
		if c == '{' {
			return p.object(depth + 1)
		}
		return p.array(depth + 1)
	case c == '"':
		return p.string()
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	}
	for _, w := range []struct {
		lit  string
		kind kind
	}{{"true", kBool}, {"false", kBool}, {"null", kNull}} {
		if bytes.HasPrefix(p.data[p.pos:], []byte(w.lit)) {
			p.pos += len(w.lit)
			return &node{kind: w.kind, lit: w.lit}, nil
		}
	}
	return nil, p.errorf("invalid character %q looking for a value", p.data[p.pos])
}

func (p *jparser) object(depth int) (*node, error) {
	n := newObject()
	seen := map[string]bool{}
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return n, nil
	}
	for {
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errorf("want an object key")
		}
		keyAt := p.pos
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		if seen[k.str] {
			p.pos = keyAt
			return nil, p.errorf("duplicate object key %q", k.str)
		}
		seen[k.str] = true
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errorf("want ':' after an object key")
		}
		p.pos++
		p.space()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, k.str)
		n.vals = append(n.vals, v)
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return n, nil
		}
		return nil, p.errorf("want ',' or '}' in an object")
	}
}

func (p *jparser) array(depth int) (*node, error) {
	n := &node{kind: kArray, items: []*node{}}
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return n, nil
	}
	for {
		p.space()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return n, nil
		}
		return nil, p.errorf("want ',' or ']' in an array")
	}
}

func (p *jparser) string() (*node, error) {
	start := p.pos
	p.pos++ // '"'
	escaped := false
	for {
		if p.pos >= len(p.data) {
			return nil, p.errorf("unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			lit := string(p.data[start:p.pos])
			if !escaped {
				return &node{kind: kString, lit: lit, str: lit[1 : len(lit)-1]}, nil
			}
			var s string
			if err := json.Unmarshal([]byte(lit), &s); err != nil {
				return nil, fmt.Errorf("invalid string at byte offset %d: %v", start, err)
			}
			return &node{kind: kString, lit: lit, str: s}, nil
		case c < 0x20:
			return nil, p.errorf("control character in a string")
		case c == '\\':
			escaped = true
			if err := p.escape(); err != nil {
				return nil, err
			}
		default:
			p.pos++
		}
	}
}

// escape checks one escape sequence at p.pos, including that a \u escape of
// a surrogate is one half of a pair.
func (p *jparser) escape() error {
	if p.pos+1 >= len(p.data) {
		return p.errorf("unterminated escape")
	}
	switch p.data[p.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		p.pos += 2
		return nil
	case 'u':
	default:
		return p.errorf("invalid escape")
	}
	r, ok := p.hex4(p.pos + 2)
	if !ok {
		return p.errorf("invalid \\u escape")
	}
	switch {
	case 0xD800 <= r && r < 0xDC00:
		lo, ok := rune(0), false
		if p.pos+11 < len(p.data) && p.data[p.pos+6] == '\\' && p.data[p.pos+7] == 'u' {
			lo, ok = p.hex4(p.pos + 8)
		}
		if !ok || lo < 0xDC00 || lo > 0xDFFF {
			return p.errorf("lone surrogate escape")
		}
		p.pos += 12
	case 0xDC00 <= r && r <= 0xDFFF:
		return p.errorf("lone surrogate escape")
	default:
		p.pos += 6
	}
	return nil
}

func (p *jparser) hex4(at int) (rune, bool) {
	if at+4 > len(p.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.data[at:at+4]), 16, 32)
	return rune(v), err == nil
}

func (p *jparser) number() (*node, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && '0' <= p.data[p.pos] && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	intStart := p.pos
	if digits() == 0 {
		return nil, p.errorf("invalid number")
	}
	if p.data[intStart] == '0' && p.pos-intStart > 1 {
		return nil, p.errorf("leading zero in a number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	return &node{kind: kNumber, lit: string(p.data[start:p.pos])}, nil
}

// A decimal is a number's exact value as sign × digits × 10^exp, with digits
// free of leading and trailing zeros ("" for zero). It never materializes
// 10^exp, so a port answering 1e999999999 costs nothing.
type decimal struct {
	neg    bool
	digits string
	exp    *big.Int
}

// decimalOf returns the exact value of a valid JSON number literal.
func decimalOf(lit string) decimal {
	d := decimal{exp: new(big.Int)}
	if strings.HasPrefix(lit, "-") {
		d.neg = true
		lit = lit[1:]
	}
	mant, expText, _ := strings.Cut(strings.ToLower(lit), "e")
	if expText != "" {
		d.exp.SetString(strings.TrimPrefix(expText, "+"), 10)
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	d.exp.Sub(d.exp, big.NewInt(int64(len(frac))))
	digits := strings.TrimLeft(intPart+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	d.exp.Add(d.exp, big.NewInt(int64(len(digits)-len(trimmed))))
	d.digits = trimmed
	if d.digits == "" {
		d.neg = false
		d.exp.SetInt64(0)
	}
	return d
}

func (d decimal) equal(e decimal) bool {
	return d.neg == e.neg && d.digits == e.digits && d.exp.Cmp(e.exp) == 0
}

// String writes the value plainly when that is short ("3", "-0.25",
// "10000000000000000000000000000000000000000"), else as digits and exponent.
func (d decimal) String() string {
	if d.digits == "" {
		return "0"
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	if d.exp.IsInt64() {
		e := d.exp.Int64()
		switch {
		case e >= 0 && e <= 64:
			return sign + d.digits + strings.Repeat("0", int(e))
		case e < 0 && -e < int64(len(d.digits)):
			cut := len(d.digits) + int(e)
			return sign + d.digits[:cut] + "." + d.digits[cut:]
		case e < 0 && -e <= 64+int64(len(d.digits)):
			return sign + "0." + strings.Repeat("0", int(-e)-len(d.digits)) + d.digits
		}
	}
	return sign + d.digits + "e" + d.exp.String()
}

// equalJSON reports whether a and b are the same JSON value: arrays keep
// their order, numbers compare by exact value (1, 1.0 and 1e0 are equal),
// strings by their decoded content, and object members compare as a set,
// except in the objects whose member order the contract specifies (see
// [orderedPlace]), whose members must also come in the same order.
func equalJSON(a, b *node) bool { return equalAt(a, b, placeTop, true) }

// equalUnordered is equalJSON with every object compared as a set of
// members.
func equalUnordered(a, b *node) bool { return equalAt(a, b, placeTop, false) }

// equalAt compares a and b found at place p; ordered says whether the
// ordered objects must keep their order.
func equalAt(a, b *node, p place, ordered bool) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kNull:
		return true
	case kBool:
		return a.lit == b.lit
	case kNumber:
		return decimalOf(a.lit).equal(decimalOf(b.lit))
	case kString:
		return a.str == b.str
	case kArray:
		if len(a.items) != len(b.items) {
			return false
		}
		for i := range a.items {
			if !equalAt(a.items[i], b.items[i], p.element(), ordered) {
				return false
			}
		}
		return true
	}
	if len(a.keys) != len(b.keys) {
		return false
	}
	for i, k := range a.keys {
		if ordered && p == placeOrdered && b.keys[i] != k {
			return false
		}
		bv, ok := b.lookup(k)
		if !ok || !equalAt(a.vals[i], bv, p.member(k), ordered) {
			return false
		}
	}
	return true
}

// plain returns n as the values encoding/json decodes into: map[string]any,
// []any, string, bool, nil, and json.Number holding the number's exact value
// written plainly. It is what a [DiffFunc] compares.
func (n *node) plain() any {
	switch n.kind {
	case kNull:
		return nil
	case kBool:
		return n.lit == "true"
	case kNumber:
		return json.Number(decimalOf(n.lit).String())
	case kString:
		return n.str
	case kArray:
		out := make([]any, len(n.items))
		for i, it := range n.items {
			out[i] = it.plain()
		}
		return out
	}
	out := make(map[string]any, len(n.keys))
	for i, k := range n.keys {
		out[k] = n.vals[i].plain()
	}
	return out
}
