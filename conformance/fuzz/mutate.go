package fuzz

// This file holds the mutations of a generated call: breaks of the JSON
// grammar written into its text, and changes to the message line around it;
// gen.go generates the calls.

import (
	"strconv"
	"strings"
)

// textMutation breaks the call's JSON text in one place a strict reader
// must refuse (a duplicate key, a lone surrogate escape, invalid UTF-8,
// CESU-8, nesting over the limit), or writes what it must accept (nesting
// at the limit, a huge number literal, keys that differ only in a way a
// lax reader does not see).
func (g *gen) textMutation(call *node) {
	objects, strs := collect(call)
	inner := call
	if c := call.get("call"); c != nil {
		inner = c
	}
	switch g.n(6) {
	case 0: // a duplicate key, sometimes spelled with an escape
		obj := objects[g.n(len(objects))]
		i := g.n(len(obj.keys))
		k := obj.keys[i].clone()
		if u := k.us(); len(u) > 0 && len(u[0]) == 1 && g.p(0.4) {
			u[0] = escaped(rune(u[0][0]))
		}
		v := obj.vals[i].clone()
		if g.p(0.5) {
			// Of every kind, null included: a reader that finds a key given
			// twice by looking up the value it read first misses a null.
			v = oneOf(g, boolean(true), boolean(false), str("x"), number("1"), null(), array(), object(), str(""))
		}
		if g.p(0.5) { // the new member first: the odd value is the first of the pair
			if g.p(0.5) {
				v = null() // the first of a pair that a lookup of its value misses
			}
			obj.keys = append([]*node{k}, obj.keys...)
			obj.vals = append([]*node{v}, obj.vals...)
			g.drew("duplicate key, the new value first")
			break
		}
		obj.keys = append(obj.keys, k)
		obj.vals = append(obj.vals, v)
	case 1: // a lone surrogate escape
		s := strs[g.n(len(strs))]
		s.units = insert(g, s.us(), oneOf(g, `\ud800`, `\udfff`, `\ud83d`, `\ude00`, `\ud83d\u0041`, `\uDBFF`))
	case 2: // invalid UTF-8
		s := strs[g.n(len(strs))]
		s.units = insert(g, s.us(), oneOf(g, "\xff", "\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\x80",
			"\xed\xa0\xbd\xed\xb8\x80",      // CESU-8, a surrogate pair as two 3-byte sequences
			"\xc1\xa1", "\xf0\x81\x81\x81")) // overlong forms led by C1 and F0
	case 3: // nesting at the limit of the whole line, or one over
		nest := array(number("1"))
		place(g, inner, nest)
		above := containersAbove(call, nest)
		// The line is {"type":"call","seq":N,"call":CALL}: the message is
		// depth 1, so a value inside the call at k containers below the
		// call's root sits at depth 1 + k.
		if g.p(0.3) {
			// A string ending in an escaped backslash before the nesting:
			// a scanner that takes its closing quote, after \\, for an escaped one loses its place.
			inner.keys = append([]*node{str("note")}, inner.keys...)
			inner.vals = append([]*node{str(`a\`)}, inner.vals...)
		}
		target := oneOf(g, 64, 65, 63)
		for d := 1 + above + 1; d < target; d++ {
			nest.items = []*node{array(nest.items...)}
		}
	case 4: // a huge number literal, or another valid extreme
		place(g, inner, number(oneOf(g, "1e999999999", "-1e-999999999", strings.Repeat("7", 400), "-"+strings.Repeat("3", 310)+".5",
			"123456789012345678901234567890.5", "1"+strings.Repeat("0", 400), "-0", "0e0", "1E+2", "-0.0e-0", "1e400",
			strings.Repeat("9", 5001), "1e05"))) // 5001 digits: over the 4300 Python's int() takes by default
	case 5: // two keys equal only to a reader that normalizes or stops at U+0000
		obj := objects[g.n(len(objects))]
		pair := oneOf(g, [2]string{"\u00e9", "e\u0301"}, [2]string{"a", "a\u0000b"}, [2]string{"tab_id", "tab_id\u0000"}, [2]string{"Q", "q"}, [2]string{"Aa", "BB"})
		for _, k := range pair {
			if obj.get(k) == nil {
				obj.set(k, oneOf(g, number("1"), str("x"), boolean(true)))
			}
		}
	}
}

// One call in breakEvery carries a break of the grammar; one in
// cornerEvery is a protocol corner, and one in cornerEvery a twin of the
// call before it (twin.go).
const (
	breakEvery  = 8
	cornerEvery = 16
)

// A grammarBreak is one break of the JSON grammar: its kind and its text.
type grammarBreak struct{ kind, text string }

// grammarBreaks lists every break, in turn order.
var grammarBreaks = func() []grammarBreak {
	var out []grammarBreak
	for _, set := range []struct {
		kind string
		xs   []string
	}{{"number", numberNearMisses}, {"string", stringBreaks}, {"white space", whiteSpaces}, {"structure", structureBreaks}} {
		for _, x := range set.xs {
			out = append(out, grammarBreak{set.kind, x})
		}
	}
	return out
}()

// grammarBreak writes break k into the call: a number, white space or
// structure as a value where a port's reader meets it (an argument, the
// family, a max_length), a string piece into one of its strings.
func (g *gen) grammarBreak(call *node, k int) {
	b := grammarBreaks[k]
	g.drew(b.kind + " " + b.text)
	inner := call
	if c := call.get("call"); c != nil {
		inner = c
	}
	switch b.kind {
	case "string":
		_, strs := collect(inner)
		s := strs[g.n(len(strs))]
		s.units = insert(g, s.us(), b.text)
	case "white space":
		place(g, inner, number(b.text+oneOf(g, "1", "true", "null", `"x"`, "[]")+oneOf(g, "", " ", "\t")))
	default:
		place(g, inner, number(b.text))
	}
}

// The breaks of the JSON grammar (RFC 8259) that textMutation writes: near
// misses of -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, escapes
// and characters of strings (refused, or read: upper-case hex, a valid
// pair), white space, and literals and structure. Each is placed as a value,
// where a port's reader meets it.
var (
	numberNearMisses = []string{"01", "-01", "00", "+1", ".5", "5.", "-", "1e", "1E+", "1e-", "--1", "-+1", "0x1F", "0X10", "Infinity", "-Infinity",
		"NaN", "1.e5", "1.5e", "1_000", "\u0661"}
	stringBreaks = []string{`\x41`, `\x`, `\'`, `\U0041`, `\u12`, `\u12G4`, `\u`, `\uD83D\uDE00`, `\u00E9`, `\u00e9`, `\uDBFF\uDFFF`,
		`\ude00\ud83d`, `\ud83d\ud83d`, `\udc00`, `\ud800\u0041`, "\t", "\x01", "\x1f", "\x00", "\r", "\x7f", `\a`, `\0`, `\/`,
		`\u005cn`, strings.Repeat("[", 70),
		// Valid and read as themselves: U+FFFD raw and escaped (only
		// malformed bytes are refused), CR LF and a lone CR, escaped.
		"\ufffd", `\uFFFD`, `\r\n`, `\r`,
		// And the code points a port's writer or reader gets wrong: the
		// noncharacters U+FFFE and U+FFFF, controls that C escapes name
		// (BEL, VT), an apostrophe, raw C1 controls.
		"\ufffe", `\uFFFF`, `\u0007`, `\u000b`, "'", "\u0085", "\u009f",
		// Malformed UTF-8, each a break of its own so that every one comes
		// in turn: a lone continuation byte, a truncated sequence, an
		// encoded surrogate, CESU-8 (a pair as two 3-byte sequences),
		// overlong forms (led by C0, C1 and F0), beyond U+10FFFF, 0xFF.
		"\x80", "\xc3", "\xed\xa0\x80", "\xed\xa0\xbd\xed\xb8\x80", "\xc0\xaf", "\xc1\xa1", "\xf0\x81\x81\x81", "\xf4\x90\x80\x80", "\xff"}
	whiteSpaces     = []string{" ", "\t", "\r", "\f", "\v", "\u00a0", "\u2028", "\ufeff", "\u0085", "\u3000"}
	structureBreaks = []string{"tru", "True", "nul", "NULL", "fals", "[1,]", `{"a":1,}`, "[1 2]", `{"a" 1}`, `{"a":1 "b":2}`, "'x'", `{'a':1}`,
		"[1]/*c*/", "/*c*/1", "[1", `{"a":1`, `{"a"}`, `{1:2}`, "[,1]", "[1,,2]", `"\u0041`, "undefined",
		// Nesting far past the limit: a reader that recurses without a
		// bound overflows its stack; the line is refused all the same,
		// with its readable seq.
		strings.Repeat("[", 100000) + strings.Repeat("]", 100000)}
)

func insert(g *gen, units []string, u string) []string {
	i := g.n(len(units) + 1)
	return append(units[:i:i], append([]string{u}, units[i:]...)...)
}

// place puts v into the call: as an argument value, the family, or a
// max_length.
func place(g *gen, call, v *node) {
	if args := call.get("arguments"); args != nil && args.kind == kObject && (len(args.keys) > 0 || g.p(0.5)) {
		if len(args.keys) > 0 && g.p(0.7) {
			args.vals[g.n(len(args.keys))] = v
		} else {
			args.set(oneOf(g, fieldPool...), v)
		}
		return
	}
	if cat := call.get("catalog"); cat != nil && cat.kind == kArray && len(cat.items) > 0 && g.p(0.5) {
		if fields := cat.items[0].get("fields"); fields != nil && fields.kind == kObject && len(fields.keys) > 0 {
			if spec := fields.vals[0]; spec.kind == kObject && spec.get("max_length") != nil {
				replace(spec, "max_length", v)
				return
			}
		}
	}
	if call.get("family") != nil {
		replace(call, "family", v)
		return
	}
	replace(call, "arguments", v)
}

// containersAbove returns how many arrays and objects contain target in
// root (-1 if it is not there).
func containersAbove(root, target *node) int {
	if root == target {
		return 0
	}
	for _, c := range append(append([]*node{}, root.items...), root.vals...) {
		if d := containersAbove(c, target); d >= 0 {
			return d + 1
		}
	}
	return -1
}

func itoa(i int) string { return strconv.Itoa(i) }

// A lineMutation changes the message line around a call, where a CALL
// object cannot reach: bytes before the message, between its members, or
// after it. The line is sent whole, with [conformance.LineTarget.CallLine].
type lineMutation struct {
	prefix, mid, suffix string
}

// lineMutation draws a line-level mutation: a byte order mark before the
// message, data after it, an invalid UTF-8 byte between its members, all of
// which a strict reader must refuse, or a carriage return before the
// newline (CR LF) or white space around the message, which it must accept
// (JSON white space).
func (g *gen) lineMutation() *lineMutation {
	switch g.n(5) {
	case 0:
		return &lineMutation{prefix: "\uFEFF"}
	case 1:
		return &lineMutation{suffix: oneOf(g, "}", " {}", "x", ",1", "[]", " \"a\"", "\x00")}
	case 2:
		return &lineMutation{mid: oneOf(g, "\xff", "\x80", "\xc3", " \xfe ")}
	case 3:
		return &lineMutation{suffix: "\r"}
	default:
		return &lineMutation{prefix: oneOf(g, " ", "\t", "\r"), suffix: oneOf(g, " ", "\t", "")}
	}
}

// build returns the message line carrying call, for seq.
func (m *lineMutation) build(call []byte, seq int64) []byte {
	var b []byte
	if m != nil {
		b = append(b, m.prefix...)
	}
	b = append(b, `{"type":"call","seq":`...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, ',')
	if m != nil {
		b = append(b, m.mid...)
	}
	b = append(b, `"call":`...)
	b = append(b, call...)
	b = append(b, '}')
	if m != nil {
		b = append(b, m.suffix...)
	}
	return b
}

// collect returns the non-empty objects under n and its strings, object
// keys included, in document order.
func collect(n *node) (objects, strs []*node) {
	var walk func(n *node)
	walk = func(n *node) {
		switch n.kind {
		case kObject:
			if len(n.keys) > 0 {
				objects = append(objects, n)
			}
			for i := range n.keys {
				strs = append(strs, n.keys[i])
				walk(n.vals[i])
			}
		case kArray:
			for _, it := range n.items {
				walk(it)
			}
		case kString:
			strs = append(strs, n)
		}
	}
	walk(n)
	return objects, strs
}
