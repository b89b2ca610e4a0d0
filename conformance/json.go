package conformance

import (
	"encoding/json"
	"math/big"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
)

// The runner keeps its own small JSON tree, independent of the catalog
// package it tests: object members keep their order (a catalog's field order
// matters), numbers and strings keep their literal text (so a case file's
// "\ud83d\ude00" escape is sent to a port exactly as written and a
// 41-digit integer is never rounded), and comparison is by JSON value.
// Only the quoting of a string the runner itself writes (a member name, a
// message) is catalog's [catalog.AppendQuote]: one string writer for the
// project, checked against encoding/json in catalog's own tests.

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
			b = it.appendJSON(appendComma(b, i))
		}
		return append(b, ']')
	case kObject:
		b = append(b, '{')
		for i, k := range n.keys {
			b = append(catalog.AppendQuote(appendComma(b, i), k), ':')
			b = n.vals[i].appendJSON(b)
		}
		return append(b, '}')
	}
	return append(b, n.lit...)
}

func (n *node) String() string { return string(n.appendJSON(nil)) }

// appendComma appends the comma before the element or member numbered i.
func appendComma(b []byte, i int) []byte {
	if i > 0 {
		return append(b, ',')
	}
	return b
}

func newString(s string) *node {
	return &node{kind: kString, lit: string(catalog.AppendQuote(nil, s)), str: s}
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

// maxDepth bounds the nesting the runner reads, from case files and from
// ports alike.
const maxDepth = 64

// parseJSON reads one JSON value strictly (see [parseTape]) into a tree. A
// tree costs about a hundred bytes a value: it is for case files and small
// values; what a port sends is read as a [tape].
func parseJSON(data []byte) (*node, error) {
	t, err := parseTape(data)
	if err != nil {
		return nil, err
	}
	return t.root().node(), nil
}

// A decimal is a number's exact value as sign × digits × 10^exp, with digits
// free of leading and trailing zeros ("" for zero). It never materializes
// 10^exp, so a port answering 1e999999999 costs nothing.
type decimal struct {
	neg    bool
	digits string
	exp    *big.Int
}

// integerLiteral reports whether the valid JSON number literal lit is an
// integer literal (SPEC.md §2 J7): no fraction and no exponent.
func integerLiteral(lit string) bool { return !strings.ContainsAny(lit, ".eE") }

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
// their order, numbers compare by exact value and kind (1.0 and 1e0 are
// equal, -0 and 0 too, but an integer literal equals only an integer
// literal: 1 is not 1.0; SPEC.md §8.3),
// strings by their decoded content, and object members compare as a set,
// except in the objects whose member order the contract specifies (see
// [place]; conformance/SPEC.md §8.3), whose members must also come in the
// same order.
func equalJSON(a, b *node) bool { return equalTape(a, b, true) }

// equalUnordered is equalJSON with every object compared as a set of
// members.
func equalUnordered(a, b *node) bool { return equalTape(a, b, false) }

func equalTape(a, b *node, ordered bool) bool {
	t, err := parseTape(b.appendJSON(nil))
	return err == nil && equalTo(a, t.root(), placeTop, ordered)
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
		s := decimalOf(n.lit).String()
		if !integerLiteral(n.lit) && integerLiteral(s) {
			s += ".0" // keep the kind visible in a diff: 3.0 beside 3
		}
		return json.Number(s)
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
