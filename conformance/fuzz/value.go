package fuzz

import (
	"fmt"
	"unicode/utf8"
)

// A node is one JSON value of a generated call, kept as the text it is
// written as, so that the generator can write what a strict reader must
// refuse and the shrinker can cut it down piece by piece: a string is a list
// of units (one code point each, raw or escaped, or a deliberately broken
// piece such as a lone surrogate escape or an invalid UTF-8 byte), a number
// its literal, and an object's keys are string nodes of their own, which may
// repeat (a duplicate key is a text-level mutation).
type node struct {
	kind  kind
	lit   string   // null, boolean, number: the literal
	units []string // string: the text between the quotes, one unit per code point
	// raw is a string's text between the quotes while units is nil: every
	// code point a unit written raw (no escape, no broken piece). It spares
	// the generator a slice per string; us splits it when a mutation
	// needs the units.
	raw   string
	items []*node // array
	keys  []*node // object: the keys, string nodes
	vals  []*node // object: the values
}

type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

func lit(k kind, s string) *node { return &node{kind: k, lit: s} }

func null() *node { return lit(kNull, "null") }
func boolean(b bool) *node {
	if b {
		return lit(kBool, "true")
	}
	return lit(kBool, "false")
}
func number(s string) *node {
	return lit(kNumber, s)
}

// str returns a string node holding s, each code point a unit, escaped only
// where JSON requires it.
func str(s string) *node {
	plain := utf8.ValidString(s)
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] >= 0x20 && s[i] != '"' && s[i] != '\\'
	}
	if plain {
		return &node{kind: kString, raw: s}
	}
	n := &node{kind: kString, units: make([]string, 0, len(s))}
	for i, r := range s {
		if r < 0x20 || r == '"' || r == '\\' {
			n.units = append(n.units, unit(r))
		} else {
			n.units = append(n.units, s[i:i+utf8.RuneLen(r)]) // no copy
		}
	}
	return n
}

// us returns a string's units, splitting its raw text into them first.
func (n *node) us() []string {
	if n.units == nil && n.raw != "" {
		n.units = make([]string, 0, len(n.raw))
		for i, r := range n.raw {
			n.units = append(n.units, n.raw[i:i+utf8.RuneLen(r)])
		}
		n.raw = ""
	}
	return n.units
}

// unit returns the JSON text of one code point with only the escapes JSON
// requires.
func unit(r rune) string {
	switch {
	case r == '"' || r == '\\':
		return `\` + string(r)
	case r == '\n':
		return `\n`
	case r < 0x20:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return string(r)
}

// escaped returns the \u escape of r: a surrogate pair for an astral
// character.
func escaped(r rune) string {
	if r < 0x10000 {
		return string(appendEscape(nil, r))
	}
	r -= 0x10000
	return string(appendEscape(appendEscape(nil, 0xD800+(r>>10)), 0xDC00+(r&0x3FF)))
}

func appendEscape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
}

func array(items ...*node) *node { return &node{kind: kArray, items: append([]*node{}, items...)} }

func object() *node { return &node{kind: kObject} }

// set appends the member key: value (it does not look for an existing key).
func (n *node) set(key string, v *node) *node {
	if n.keys == nil {
		// Room for a tool's five members: most objects are grown once.
		n.keys, n.vals = make([]*node, 0, 5), make([]*node, 0, 5)
	}
	n.keys = append(n.keys, str(key))
	n.vals = append(n.vals, v)
	return n
}

// get returns the value of the first member whose key is written exactly
// key, without escapes.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	for i, k := range n.keys {
		if k.plain() == key {
			return n.vals[i]
		}
	}
	return nil
}

// plain returns the text between a string's quotes.
func (n *node) plain() string {
	if n.units == nil {
		return n.raw
	}
	var s []byte
	for _, u := range n.units {
		s = append(s, u...)
	}
	return string(s)
}

// clone returns a deep copy of n.
func (n *node) clone() *node {
	c := &node{kind: n.kind, lit: n.lit, raw: n.raw}
	if n.units != nil {
		c.units = append([]string{}, n.units...)
	}
	if n.items != nil {
		c.items = make([]*node, len(n.items))
		for i, it := range n.items {
			c.items[i] = it.clone()
		}
	}
	for i := range n.keys {
		c.keys = append(c.keys, n.keys[i].clone())
		c.vals = append(c.vals, n.vals[i].clone())
	}
	return c
}

// shallow returns a copy of n that shares its children: the shrinker
// rebuilds only the path to the node it changes.
func (n *node) shallow() *node {
	c := *n
	c.units = append([]string(nil), n.units...)
	c.items = append([]*node(nil), n.items...)
	c.keys = append([]*node(nil), n.keys...)
	c.vals = append([]*node(nil), n.vals...)
	if n.kind == kArray && c.items == nil {
		c.items = []*node{}
	}
	return &c
}

// appendJSON appends n as compact JSON text, every literal and unit exactly
// as it is.
func (n *node) appendJSON(b []byte) []byte {
	switch n.kind {
	case kString:
		b = append(b, '"')
		b = append(b, n.raw...)
		for _, u := range n.units {
			b = append(b, u...)
		}
		return append(b, '"')
	case kArray, kObject:
		open, end, list := byte('['), byte(']'), n.items
		if n.kind == kObject {
			open, end, list = '{', '}', n.keys
		}
		b = append(b, open)
		for i, it := range list {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendJSON(b)
			if n.kind == kObject {
				b = n.vals[i].appendJSON(append(b, ':'))
			}
		}
		return append(b, end)
	}
	return append(b, n.lit...)
}

func (n *node) String() string { return string(n.appendJSON(nil)) }

// size measures n for the shrinker, which accepts only smaller candidates:
// one per node, plus the bytes of its literal or units.
func (n *node) size() int {
	s := 1 + len(n.lit) + utf8.RuneCountInString(n.raw) + len(n.raw)
	for _, u := range n.units {
		s += 1 + len(u)
	}
	for _, it := range n.items {
		s += it.size()
	}
	for i := range n.keys {
		s += n.keys[i].size() + n.vals[i].size()
	}
	return s
}

// depth returns the nesting of n: 0 for a scalar, 1 for [] or {"a":1}.
func (n *node) depth() int {
	d := 0
	for _, it := range n.items {
		d = max(d, it.depth())
	}
	for _, v := range n.vals {
		d = max(d, v.depth())
	}
	if n.kind == kArray || n.kind == kObject {
		d++
	}
	return d
}

// validUTF8 reports whether every unit of every string in n is valid UTF-8.
func (n *node) validUTF8() bool {
	for _, u := range n.units {
		if !utf8.ValidString(u) {
			return false
		}
	}
	for _, it := range n.items {
		if !it.validUTF8() {
			return false
		}
	}
	for i := range n.keys {
		if !n.keys[i].validUTF8() || !n.vals[i].validUTF8() {
			return false
		}
	}
	return true
}
