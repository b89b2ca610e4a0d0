package catalog

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits of the JSON text layer. A catalog at the contract's maxima (1000
// tools of 30 fields) is about 3 MB of JSON and 5 levels deep.
const (
	// MaxInputBytes is the largest JSON text ParseJSON accepts.
	MaxInputBytes = 32 << 20
	// MaxDepth is the deepest nesting of arrays and objects ParseJSON accepts.
	MaxDepth = 64
)

// ParseJSON reads one JSON value (RFC 8259) from data, strictly: it rejects
// malformed JSON, anything but white space after the value, a byte order mark,
// duplicate keys in any object, invalid UTF-8, escapes of lone surrogates,
// input longer than [MaxInputBytes] and nesting deeper than [MaxDepth]. Every
// rejection is an [*Error] with code [InvalidJSON] whose Offset is the byte
// where the problem was found and whose Path is the JSON path ("$[0].fields")
// of the value being read.
func ParseJSON(data []byte) (Value, error) {
	if len(data) > MaxInputBytes {
		return Value{}, jsonError(data, MaxInputBytes, "$", "input is %d bytes, over the limit of %d", len(data), MaxInputBytes)
	}
	p := &parser{data: data, src: string(data)}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return Value{}, p.fail(0, "input starts with a byte order mark; remove it")
	}
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos < len(data) {
		return Value{}, p.fail(p.pos, "unexpected data after the top-level value")
	}
	return v, nil
}

// A pathElem is one step of a JSON path: an object key, or an array index
// when key is empty and index >= 0.
type pathElem struct {
	key   string
	index int
}

type parser struct {
	data    []byte
	src     string // one copy of data: unescaped strings and numbers are substrings of it
	pos     int
	scratch []member   // the members of the containers being read, innermost last
	chunk   []member   // storage for finished containers; see pop
	path    []pathElem // the path of the value being read, for errors only
}

func (p *parser) fail(off int, format string, args ...any) *Error {
	return jsonError(p.data, off, renderPath(p.path), format, args...)
}

func jsonError(data []byte, off int, path, format string, args ...any) *Error {
	line, col := 1, 1
	for _, c := range data[:min(off, len(data))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	detail := fmt.Sprintf(format, args...)
	return &Error{
		Code:   InvalidJSON,
		Path:   path,
		Offset: off,
		Detail: fmt.Sprintf("%s (line %d, column %d, byte offset %d)", detail, line, col, off),
	}
}

// renderPath writes a path as "$", "$[3]", "$.fields", "$.fields[\"a b\"]".
func renderPath(path []pathElem) string {
	var b strings.Builder
	b.WriteString("$")
	for _, e := range path {
		writePathElem(&b, e)
	}
	return b.String()
}

func writePathElem(b *strings.Builder, e pathElem) {
	if e.index >= 0 {
		b.WriteString("[")
		b.WriteString(strconv.Itoa(e.index))
		b.WriteString("]")
		return
	}
	if isPlainKey(e.key) {
		b.WriteString(".")
		b.WriteString(e.key)
		return
	}
	b.WriteString("[")
	b.Write(appendString(nil, e.key))
	b.WriteString("]")
}

// isPlainKey reports whether a key can be written after a dot in a path.
func isPlainKey(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (Value, error) {
	if p.pos >= len(p.data) {
		return Value{}, p.fail(p.pos, "unexpected end of input, want a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.string()
		v := Value{kind: String, text: s}
		v.classify()
		return v, err
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", Value{kind: Bool, b: true})
	case c == 'f':
		return p.literal("false", Value{kind: Bool})
	case c == 'n':
		return p.literal("null", Value{kind: Null})
	default:
		return Value{}, p.fail(p.pos, "unexpected %s, want a value", describeByte(p.data, p.pos))
	}
}

func describeByte(data []byte, off int) string {
	r, _ := utf8.DecodeRune(data[off:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", data[off])
	}
	return strconv.QuoteRune(r)
}

func (p *parser) literal(word string, v Value) (Value, error) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return Value{}, p.fail(p.pos, "invalid literal, want %q", word)
	}
	p.pos += len(word)
	return v, nil
}

func (p *parser) enter() error {
	if len(p.path) >= MaxDepth {
		return p.fail(p.pos, "nesting deeper than the limit of %d", MaxDepth)
	}
	return nil
}

func (p *parser) array() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	p.pos++ // '['
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return Value{kind: Array}, nil
	}
	base := len(p.scratch)
	for {
		p.path = append(p.path, pathElem{index: len(p.scratch) - base})
		item, err := p.value()
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		p.scratch = append(p.scratch, member{val: item})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.fail(p.pos, "unexpected end of input in an array, want ',' or ']'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			return Value{kind: Array, members: p.pop(base)}, nil
		default:
			return Value{}, p.fail(p.pos, "unexpected %s in an array, want ',' or ']'", describeByte(p.data, p.pos))
		}
	}
}

func (p *parser) object() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	p.pos++ // '{'
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return Value{kind: Object}, nil
	}
	base := len(p.scratch)
	var seen map[string]struct{} // used once an object has many keys
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			if p.pos >= len(p.data) {
				return Value{}, p.fail(p.pos, "unexpected end of input in an object, want a key")
			}
			return Value{}, p.fail(p.pos, "unexpected %s in an object, want a key string", describeByte(p.data, p.pos))
		}
		keyOff := p.pos
		key, err := p.string()
		if err != nil {
			return Value{}, err
		}
		members := p.scratch[base:]
		if len(members) >= 8 && seen == nil {
			seen = make(map[string]struct{}, 2*len(members))
			for _, m := range members {
				seen[m.key] = struct{}{}
			}
		}
		dup := false
		if seen != nil {
			_, dup = seen[key]
			seen[key] = struct{}{}
		} else {
			for _, m := range members {
				dup = dup || m.key == key
			}
		}
		if dup {
			return Value{}, p.fail(keyOff, "duplicate key %q: each key may appear once in an object", key)
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, p.fail(p.pos, "want ':' after the key %q", key)
		}
		p.pos++
		p.skipSpace()
		p.path = append(p.path, pathElem{key: key, index: -1})
		val, err := p.value()
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		val.tag = tagOf(key)
		if IsLabel(key) {
			val.flags |= flagKeyLabel
		}
		p.scratch = append(p.scratch, member{key: key, val: val})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.fail(p.pos, "unexpected end of input in an object, want ',' or '}'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			return Value{kind: Object, members: p.pop(base)}, nil
		default:
			return Value{}, p.fail(p.pos, "unexpected %s in an object, want ',' or '}'", describeByte(p.data, p.pos))
		}
	}
}

// pop moves the members pushed on the scratch stack since base into
// permanent storage and returns them. Storage comes from chunks shared by
// consecutive containers, so a parsed document lies in memory mostly in
// document order: fewer allocations, and a walk over it reads memory in
// sequence.
func (p *parser) pop(base int) []member {
	n := len(p.scratch) - base
	if cap(p.chunk)-len(p.chunk) < n {
		size := min(max(len(p.data)/32, 16), 4096)
		p.chunk = make([]member, 0, max(n, size))
	}
	start := len(p.chunk)
	p.chunk = append(p.chunk, p.scratch[base:]...)
	clear(p.scratch[base:]) // drop references for the collector
	p.scratch = p.scratch[:base]
	return p.chunk[start : start+n : start+n]
}

// string reads a JSON string starting at the opening quote.
func (p *parser) string() (string, error) {
	start := p.pos
	p.pos++
	// Fast path: no escapes.
	for i := p.pos; i < len(p.data); {
		c := p.data[i]
		switch {
		case c == '"':
			s := p.src[p.pos:i]
			p.pos = i + 1
			return s, nil
		case c == '\\':
			return p.slowString(start)
		case c < 0x20:
			return "", p.fail(i, "control character 0x%02x in a string; escape it", c)
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(p.data[i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail(i, "invalid UTF-8 in a string")
			}
			i += size
		}
	}
	return "", p.fail(len(p.data), "unexpected end of input in a string that starts at byte %d", start)
}

func (p *parser) slowString(start int) (string, error) {
	var b []byte
	i := start + 1
	for i < len(p.data) {
		c := p.data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return string(b), nil
		case c == '\\':
			if i+1 >= len(p.data) {
				return "", p.fail(len(p.data), "unexpected end of input in an escape")
			}
			esc := p.data[i+1]
			switch esc {
			case '"', '\\', '/':
				b = append(b, esc)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := p.hex4(i + 2)
				if !ok {
					return "", p.fail(i, "invalid \\u escape, want four hex digits")
				}
				i += 6
				if utf16.IsSurrogate(r) {
					r2, ok2 := rune(0), false
					if r < 0xdc00 && i+1 < len(p.data) && p.data[i] == '\\' && p.data[i+1] == 'u' {
						r2, ok2 = p.hex4(i + 2)
					}
					dec := utf16.DecodeRune(r, r2)
					if !ok2 || dec == utf8.RuneError {
						return "", p.fail(i-6, "lone surrogate escape \\u%04x: a surrogate must be a high one followed by a low one", r)
					}
					r = dec
					i += 6
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return "", p.fail(i, "invalid escape '\\%c'", esc)
			}
			i += 2
		case c < 0x20:
			return "", p.fail(i, "control character 0x%02x in a string; escape it", c)
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(p.data[i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail(i, "invalid UTF-8 in a string")
			}
			b = append(b, p.data[i:i+size]...)
			i += size
		}
	}
	return "", p.fail(len(p.data), "unexpected end of input in a string that starts at byte %d", start)
}

func (p *parser) hex4(off int) (rune, bool) {
	if off+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[off : off+4] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and keeps its text.
func (p *parser) number() (Value, error) {
	start := p.pos
	i := p.pos
	if p.data[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(p.data) && '0' <= p.data[i] && p.data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(p.data) && p.data[i] == '0':
		i++
		if i < len(p.data) && '0' <= p.data[i] && p.data[i] <= '9' {
			return Value{}, p.fail(start, "number with a leading zero")
		}
	case digits() == 0:
		return Value{}, p.fail(start, "invalid number, want a digit after '-'")
	}
	if i < len(p.data) && p.data[i] == '.' {
		i++
		if digits() == 0 {
			return Value{}, p.fail(start, "invalid number, want a digit after '.'")
		}
	}
	if i < len(p.data) && (p.data[i] == 'e' || p.data[i] == 'E') {
		i++
		if i < len(p.data) && (p.data[i] == '+' || p.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return Value{}, p.fail(start, "invalid number, want a digit in the exponent")
		}
	}
	p.pos = i
	v := Value{kind: Number, text: p.src[start:i]}
	v.classify()
	return v, nil
}
