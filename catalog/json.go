package catalog

import (
	"bytes"
	"fmt"
	"hash/maphash"
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
//
// The Value keeps a copy of data, so data may change afterwards. It holds a
// small multiple of len(data) whatever the text's shape: one 8-byte node per
// value and per key over the copy, at most about 6 bytes per input byte in
// all (README, "Performance").
func ParseJSON(data []byte) (Value, error) {
	return parseJSON(data, false)
}

// parseJSON is ParseJSON; with catalog set it reads a catalog for Parse, and
// stops keeping values that no catalog rule can reach (see readCatalogElem).
func parseJSON(data []byte, catalog bool) (Value, error) {
	if len(data) > MaxInputBytes {
		return Value{}, jsonError(data, MaxInputBytes, "$", "input is over the limit of %d bytes", MaxInputBytes)
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return Value{}, jsonError(data, 0, "$", "input starts with a byte order mark; remove it")
	}
	p := &parser{data: data, src: string(data), catalog: catalog}
	p.d = &doc{src: p.src, nodes: make([]node, 0, nodeEstimate(data))}
	p.skipSpace()
	if err := p.value(); err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos < len(data) {
		return Value{}, p.fail(p.pos, "unexpected data after the top-level value")
	}
	p.d.esc = string(p.esc)
	return Value{d: p.d}, nil
}

// nodeEstimate returns an upper bound of the nodes a JSON text of data can
// have, so that the node array is allocated once: every value but the first
// follows a ',' or a '[', every key and its value a ':', and no text has more
// than one value per two bytes beyond the first. Brackets, commas and colons
// inside strings only make the bound looser.
func nodeEstimate(data []byte) int {
	n := 1 + bytes.Count(data, []byte(",")) + bytes.Count(data, []byte("[")) + 2*bytes.Count(data, []byte(":"))
	return min(n, len(data)/2+2)
}

// A pathElem is one step of the JSON path of the value being read: the key
// node of an object member, or an array index when key is -1.
type pathElem struct {
	key   int32
	index int32
}

type parser struct {
	data    []byte
	src     string // one copy of data: unescaped strings and numbers are substrings of it
	pos     int
	d       *doc
	esc     []byte // the decoded content of escaped strings; d.esc at the end
	depth   int
	path    []pathElem // the path of the value being read, for errors only
	keys    []uint32   // key nodes of the small objects being read, innermost last
	marks   []uint32   // marks of the containers being read, innermost last
	sets    []keySet   // by depth: the keys of a large object being read
	seed    maphash.Seed
	catalog bool // reading a catalog for Parse
	stopped bool // catalog: the rest of the tools can no longer change the result
}

// A keySet is an open-addressing hash set of the key nodes of one object,
// for objects of more than smallObject members: 4 bytes a slot, at most half
// the slots used.
type keySet struct {
	slots []uint32 // key node index + 1; 0 is empty
	n     int
}

// smallObject is the member count up to which duplicate keys are found by
// comparing each key with the earlier ones.
const smallObject = 8

func (p *parser) fail(off int, format string, args ...any) *Error {
	return jsonError(p.data, off, p.renderPath(), format, args...)
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

// renderPath writes the path of the value being read as "$", "$[3]",
// "$.fields", "$.fields[\"a b\"]".
func (p *parser) renderPath() string {
	var b strings.Builder
	b.WriteString("$")
	for _, e := range p.path {
		if e.key < 0 {
			writeIndex(&b, int(e.index))
		} else {
			writeKey(&b, string(p.keyBytes(uint32(e.key))))
		}
	}
	return b.String()
}

func writeIndex(b *strings.Builder, i int) {
	b.WriteString("[")
	b.WriteString(strconv.Itoa(i))
	b.WriteString("]")
}

func writeKey(b *strings.Builder, key string) {
	if isPlainKey(key) {
		b.WriteString(".")
		b.WriteString(key)
		return
	}
	b.WriteString("[")
	b.Write(appendString(nil, key))
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

// push appends a node and returns its index.
func (p *parser) push(n node) uint32 {
	p.d.nodes = append(p.d.nodes, n)
	return uint32(len(p.d.nodes) - 1)
}

func (p *parser) value() error {
	if p.pos >= len(p.data) {
		return p.fail(p.pos, "unexpected end of input, want a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.string(false)
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", uint32(Bool)|flagBit)
	case c == 'f':
		return p.literal("false", uint32(Bool))
	case c == 'n':
		return p.literal("null", uint32(Null))
	default:
		return p.fail(p.pos, "unexpected %s, want a value", describeByte(p.data, p.pos))
	}
}

func describeByte(data []byte, off int) string {
	r, _ := utf8.DecodeRune(data[off:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", data[off])
	}
	return strconv.QuoteRune(r)
}

func (p *parser) literal(word string, head uint32) error {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return p.fail(p.pos, "invalid literal, want %q", word)
	}
	p.pos += len(word)
	p.push(node{head: head})
	return nil
}

// open starts a container at the current byte: it checks the depth, pushes
// the container's node and returns its index.
func (p *parser) open(k Kind) (uint32, error) {
	if p.depth >= MaxDepth {
		return 0, p.fail(p.pos, "nesting deeper than the limit of %d", MaxDepth)
	}
	p.depth++
	p.pos++ // '[' or '{'
	return p.push(node{head: uint32(k)}), nil
}

// close ends container self of count children (members for an object);
// flat says whether every child is a single node. It records the marks
// pushed since markBase if the container needs them.
func (p *parser) close(self uint32, count int, flat bool, markBase int) {
	d := p.d
	h := d.nodes[self].head
	if count <= maxCount {
		h |= uint32(count) << countShift
	} else {
		h |= flagLong
		d.setLong(self, count)
	}
	if flat {
		h |= flagBit
	} else if len(p.marks) > markBase {
		if d.marks == nil {
			d.marks = make(map[uint32]uint32)
		}
		d.marks[self] = uint32(len(d.markList))
		d.markList = append(d.markList, p.marks[markBase:]...)
	}
	p.marks = p.marks[:markBase]
	d.nodes[self] = node{head: h, pos: uint32(len(d.nodes))}
	p.depth--
}

func (p *parser) array() error {
	self, err := p.open(Array)
	if err != nil {
		return err
	}
	markBase := len(p.marks)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.close(self, 0, true, markBase)
		return nil
	}
	topCatalog := p.catalog && self == 0
	flat := true
	n := 0
	for {
		p.path = append(p.path, pathElem{key: -1, index: int32(n)})
		start := uint32(len(p.d.nodes))
		escStart := len(p.esc)
		if n%markEvery == 0 && n > 0 && !(topCatalog && (p.stopped || n >= MaxTools)) {
			p.marks = append(p.marks, start)
		}
		if err := p.value(); err != nil {
			return err
		}
		p.path = p.path[:len(p.path)-1]
		if topCatalog {
			p.readCatalogElem(self, n, start, escStart)
		}
		flat = flat && uint32(len(p.d.nodes)) == start+1
		n++
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.fail(p.pos, "unexpected end of input in an array, want ',' or ']'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			p.close(self, n, flat, markBase)
			return nil
		default:
			return p.fail(p.pos, "unexpected %s in an array, want ',' or ']'", describeByte(p.data, p.pos))
		}
	}
}

// readCatalogElem runs after element n of a catalog read by Parse, which
// starts at node start. The catalog rules decide on the tools in order, after
// the tool count (package documentation, "Catalog validation"), so Parse
// need not keep a tool that no rule can reach:
//
//   - the 1001st tool and every later one: the count rule decides, on a text
//     that is valid JSON;
//   - every tool after one whose fields has more than MaxFields members: the
//     count rule, an earlier tool, or that tool decides, since that tool
//     fails at the latest at its field count.
//
// Such a tool is still read whole, so that an error in the JSON text
// anywhere wins as the rules say, and counted, but its nodes are dropped
// at once: the memory Parse holds stays that of 1000 tools. The array is
// marked truncated; Parse makes sure that Compile rejects it.
func (p *parser) readCatalogElem(self uint32, n int, start uint32, escStart int) {
	d := p.d
	if p.stopped || n >= MaxTools {
		d.nodes = d.nodes[:start]
		p.esc = p.esc[:escStart]
		d.nodes[self].head |= flagTruncated
		return
	}
	tool := Value{d, start}
	for k, v := range tool.members() {
		if k.tag() == tagFields && v.Kind() == Object && v.Len() > MaxFields {
			p.stopped = true
		}
	}
}

func (p *parser) object() error {
	self, err := p.open(Object)
	if err != nil {
		return err
	}
	markBase := len(p.marks)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.close(self, 0, true, markBase)
		return nil
	}
	keyBase := len(p.keys)
	var set *keySet
	flat := true
	n := 0
	for {
		if p.pos >= len(p.data) {
			return p.fail(p.pos, "unexpected end of input in an object, want a key")
		}
		if p.data[p.pos] != '"' {
			return p.fail(p.pos, "unexpected %s in an object, want a key string", describeByte(p.data, p.pos))
		}
		keyOff := p.pos
		key := uint32(len(p.d.nodes))
		if n%markEvery == 0 && n > 0 {
			p.marks = append(p.marks, key)
		}
		if err := p.string(true); err != nil {
			return err
		}
		dup := false
		if set == nil {
			for _, k := range p.keys[keyBase:] {
				if bytes.Equal(p.keyBytes(k), p.keyBytes(key)) {
					dup = true
					break
				}
			}
			p.keys = append(p.keys, key)
			if len(p.keys)-keyBase > smallObject {
				set = p.keySet()
				for _, k := range p.keys[keyBase:] {
					set.add(p, k)
				}
				p.keys = p.keys[:keyBase]
			}
		} else {
			dup = !set.add(p, key)
		}
		if dup {
			return p.fail(keyOff, "duplicate key %s: each key may appear once in an object", quoteShort(p.keyBytes(key)))
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.fail(p.pos, "want ':' after the key %s", quoteShort(p.keyBytes(key)))
		}
		p.pos++
		p.skipSpace()
		p.path = append(p.path, pathElem{key: int32(key), index: -1})
		if err := p.value(); err != nil {
			return err
		}
		p.path = p.path[:len(p.path)-1]
		flat = flat && p.d.next(key+1) == key+2
		n++
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.fail(p.pos, "unexpected end of input in an object, want ',' or '}'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			p.keys = p.keys[:keyBase]
			p.close(self, n, flat, markBase)
			return nil
		default:
			return p.fail(p.pos, "unexpected %s in an object, want ',' or '}'", describeByte(p.data, p.pos))
		}
	}
}

// keySet returns the empty key set of the current depth. Sets are reused
// from one object to the next, but a large one is dropped: clearing it for
// each small object would cost time in proportion to the large one.
func (p *parser) keySet() *keySet {
	if p.sets == nil {
		p.sets = make([]keySet, MaxDepth+1)
		p.seed = maphash.MakeSeed()
	}
	s := &p.sets[p.depth]
	if len(s.slots) > 16*smallObject {
		s.slots = nil
	}
	clear(s.slots)
	s.n = 0
	return s
}

// add adds key node k to the set, and reports false if an equal key is in it
// already.
func (s *keySet) add(p *parser, k uint32) bool {
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]uint32, max(4*smallObject, 2*len(old)))
		s.n = 0
		for _, e := range old {
			if e != 0 {
				s.insert(p, e-1)
			}
		}
	}
	return s.insert(p, k)
}

func (s *keySet) insert(p *parser, k uint32) bool {
	key := p.keyBytes(k)
	mask := uint64(len(s.slots) - 1)
	for i := maphash.Bytes(p.seed, key) & mask; ; i = (i + 1) & mask {
		e := s.slots[i]
		if e == 0 {
			s.slots[i] = k + 1
			s.n++
			return true
		}
		if bytes.Equal(p.keyBytes(e-1), key) {
			return false
		}
	}
}

// keyBytes returns the content of String node i while the text is being
// read.
func (p *parser) keyBytes(i uint32) []byte {
	n := p.d.nodes[i]
	l := int(n.head >> strLenShift)
	if n.head&flagLong != 0 {
		l = int(p.d.long[i])
	}
	if n.head&flagEscaped != 0 {
		return p.esc[n.pos : int(n.pos)+l]
	}
	return p.data[n.pos : int(n.pos)+l]
}

// plainByte marks the bytes a string's fast path passes over: printable
// ASCII but '"' and '\\'.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// string reads a JSON string starting at the opening quote and pushes its
// node; key says it is an object key, whose contract tag the node records.
func (p *parser) string(key bool) error {
	start := p.pos
	data := p.data
	i := start + 1
	for {
		for i < len(data) && plainByte[data[i]] {
			i++
		}
		if i >= len(data) {
			return p.fail(len(data), "unexpected end of input in a string that starts at byte %d", start)
		}
		switch c := data[i]; {
		case c == '"':
			p.pos = i + 1
			pushString(p, key, uint32(start+1), p.src[start+1:i], 0)
			return nil
		case c == '\\':
			return p.slowString(start, key)
		case c < 0x20:
			return p.fail(i, "control character 0x%02x in a string; escape it", c)
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return p.fail(i, "invalid UTF-8 in a string")
			}
			i += size
		}
	}
}

// pushString pushes the node of a string whose content s is at pos, in the
// text or (escaped) in p.esc.
func pushString[T string | []byte](p *parser, key bool, pos uint32, s T, escaped uint32) {
	i := p.push(node{head: uint32(String) | escaped, pos: pos})
	setString(p.d, i, s)
	if key {
		p.d.nodes[i].head |= uint32(tagOf(s)) << tagShift
	}
}

func (p *parser) slowString(start int, key bool) error {
	escStart := len(p.esc)
	b := p.esc
	i := start + 1
	for i < len(p.data) {
		c := p.data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			p.esc = b
			pushString(p, key, uint32(escStart), b[escStart:], flagEscaped)
			return nil
		case c == '\\':
			if i+1 >= len(p.data) {
				return p.fail(len(p.data), "unexpected end of input in an escape")
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
					return p.fail(i, "invalid \\u escape, want four hex digits")
				}
				i += 6
				if utf16.IsSurrogate(r) {
					r2, ok2 := rune(0), false
					if r < 0xdc00 && i+1 < len(p.data) && p.data[i] == '\\' && p.data[i+1] == 'u' {
						r2, ok2 = p.hex4(i + 2)
					}
					dec := utf16.DecodeRune(r, r2)
					if !ok2 || dec == utf8.RuneError {
						return p.fail(i-6, "lone surrogate escape \\u%04x: a surrogate must be a high one followed by a low one", r)
					}
					r = dec
					i += 6
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return p.fail(i, "invalid escape '\\%c'", esc)
			}
			i += 2
		case c < 0x20:
			return p.fail(i, "control character 0x%02x in a string; escape it", c)
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(p.data[i:])
			if r == utf8.RuneError && size == 1 {
				return p.fail(i, "invalid UTF-8 in a string")
			}
			b = append(b, p.data[i:i+size]...)
			i += size
		}
	}
	return p.fail(len(p.data), "unexpected end of input in a string that starts at byte %d", start)
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

// digits returns the end of the run of ASCII digits at i.
func digits(data []byte, i int) int {
	for i < len(data) && '0' <= data[i] && data[i] <= '9' {
		i++
	}
	return i
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and pushes its
// node, which keeps the literal's place in the text.
func (p *parser) number() error {
	data := p.data
	start := p.pos
	i := start
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
		if i < len(data) && '0' <= data[i] && data[i] <= '9' {
			return p.fail(start, "number with a leading zero")
		}
	case digits(data, i) == i:
		return p.fail(start, "invalid number, want a digit after '-'")
	default:
		i = digits(data, i)
	}
	// A small unsigned integer, such as a max_length.
	plain := data[start] != '-' && i-start <= 5
	if i < len(data) && data[i] == '.' {
		plain = false
		if j := digits(data, i+1); j == i+1 {
			return p.fail(start, "invalid number, want a digit after '.'")
		} else {
			i = j
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		plain = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if j := digits(data, i); j == i {
			return p.fail(start, "invalid number, want a digit in the exponent")
		} else {
			i = j
		}
	}
	p.pos = i
	h := uint32(Number)
	if plain {
		h |= flagBit
	}
	k := p.push(node{head: h, pos: uint32(start)})
	if n := i - start; n <= maxCount {
		p.d.nodes[k].head |= uint32(n) << countShift
	} else {
		p.d.nodes[k].head |= flagLong
		p.d.setLong(k, n)
	}
	return nil
}
