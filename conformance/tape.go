package conformance

import (
	"bytes"
	"fmt"
	"iter"
	"math"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// A tape is one JSON text, checked strictly and indexed without building a
// tree: what the runner reads from a port is read this way, so that a reply
// costs a few bytes of memory per byte however it is shaped. ent holds, for
// every value and every object key in document order, the offset of its
// first byte in src (its kind is that byte); the entry of an array or an
// object is followed by one more, the index of the entry just past its last
// descendant. An object's members follow it as a key entry then the value's
// entries. So a scalar costs 4 bytes and a container 8: at most 2.7 bytes a
// byte of text (`[[],[],…]`), 2 for `[0,0,…]`.
//
// Why the runner does not read replies with catalog.ParseJSON, the one
// other strict reader (BenchmarkReply in reply_bench_test.go, 8 MiB lines,
// median of 5, 2 cores, 2026-12-02): the tape allocates 2.7, 2.7, 1.3, 3.3,
// 0.00002 and 2.0 bytes per byte of line for the shapes empty-arrays,
// empty-objects, empty-strings, keys, long-string and zeros, ParseJSON 5.2,
// 3.9, 3.9, 5.0, 1.0 and 5.3 (it keeps a copy of the text and an 8-byte
// node a value); ParseJSON is faster on five shapes of six (49 against 63
// ms for empty-arrays, 168 against 94 ms for keys). What decides it: the
// runner promises a reply costs at most about 10 times its length
// (README, "Limits and processes": the text plus 4 bytes a value), reads
// lines larger than ParseJSON's 32 MiB input limit when --max-reply allows
// them (up to 1 GiB), and quotes a port's values exactly as written, which
// only a slice of the line gives. The strictness rules are the same (RFC 8259, no duplicate keys, no
// lone surrogate escapes, valid UTF-8): the text level holds both readers
// to them.
type tape struct {
	src []byte
	ent []uint32
}

// A tval is one value of a tape; the zero tval is no value.
type tval struct {
	t *tape
	i int
}

func (t *tape) root() tval { return tval{t, 0} }

func (v tval) off() int { return int(v.t.ent[v.i]) }

func (v tval) kind() kind {
	switch v.t.src[v.off()] {
	case '{':
		return kObject
	case '[':
		return kArray
	case '"':
		return kString
	case 't', 'f':
		return kBool
	case 'n':
		return kNull
	}
	return kNumber
}

func (v tval) container() bool { k := v.kind(); return k == kObject || k == kArray }

// next returns the index of the entry just past v and its descendants.
func (v tval) next() int {
	if v.container() {
		return int(v.t.ent[v.i+1])
	}
	return v.i + 1
}

// items yields the elements of an array.
func (v tval) items() iter.Seq[tval] {
	return func(yield func(tval) bool) {
		if v.t == nil || v.kind() != kArray {
			return
		}
		for j, end := v.i+2, v.next(); j < end; j = (tval{v.t, j}).next() {
			if !yield(tval{v.t, j}) {
				return
			}
		}
	}
}

// members yields the keys (as string values) and values of an object, in
// order.
func (v tval) members() iter.Seq2[tval, tval] {
	return func(yield func(tval, tval) bool) {
		if v.t == nil || v.kind() != kObject {
			return
		}
		for j, end := v.i+2, v.next(); j < end; j = (tval{v.t, j + 1}).next() {
			if !yield(tval{v.t, j}, tval{v.t, j + 1}) {
				return
			}
		}
	}
}

// lookup returns the value of an object member.
func (v tval) lookup(key string) (tval, bool) {
	for k, val := range v.members() {
		if k.strEqual(key) {
			return val, true
		}
	}
	return tval{}, false
}

// keys returns the keys of an object, decoded.
func (v tval) keys() []string {
	var keys []string
	for k := range v.members() {
		keys = append(keys, k.str())
	}
	return keys
}

// literal returns the text of a scalar exactly as written.
func (v tval) literal() []byte { return literalAt(v.t.src, v.off()) }

// literalAt returns the text of the valid scalar that starts at src[off].
func literalAt(src []byte, off int) []byte {
	end := off + 1
	switch src[off] {
	case '"':
		for src[end] != '"' {
			if src[end] == '\\' {
				end++
			}
			end++
		}
		end++
	case 't', 'n':
		end = off + 4
	case 'f':
		end = off + 5
	default:
		for end < len(src) && bytes.IndexByte([]byte("0123456789+-.eE"), src[end]) >= 0 {
			end++
		}
	}
	return src[off:end]
}

// text returns the whole text of v as written, white space inside included.
func (v tval) text() []byte {
	if !v.container() {
		return v.literal()
	}
	src := v.t.src
	end := v.off() + 1
	var last tval
	if v.kind() == kArray {
		for it := range v.items() {
			last = it
		}
	} else {
		for _, val := range v.members() {
			last = val
		}
	}
	if last.t != nil {
		end = last.off() + len(last.text())
	}
	for src[end] != '}' && src[end] != ']' {
		end++ // white space
	}
	return src[v.off() : end+1]
}

// str returns the content of a string, decoded.
func (v tval) str() string {
	lit := v.literal()
	if bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1])
	}
	return string(decodeString(nil, lit))
}

// strEqual reports whether v is a string with content s.
func (v tval) strEqual(s string) bool {
	if v.t == nil || v.kind() != kString {
		return false
	}
	lit := v.literal()
	if bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1:len(lit)-1]) == s
	}
	return string(decodeString(nil, lit)) == s
}

// String returns v as compact JSON text, for messages.
func (v tval) String() string {
	if v.t == nil {
		return "none"
	}
	return v.node().String()
}

// node returns v as a tree.
func (v tval) node() *node {
	switch k := v.kind(); k {
	case kArray:
		n := &node{kind: kArray, items: []*node{}}
		for it := range v.items() {
			n.items = append(n.items, it.node())
		}
		return n
	case kObject:
		n := newObject()
		for key, val := range v.members() {
			n.keys = append(n.keys, key.str())
			n.vals = append(n.vals, val.node())
		}
		return n
	case kString:
		lit := string(v.literal())
		if !bytes.Contains(v.literal(), []byte{'\\'}) {
			return &node{kind: kString, lit: lit, str: lit[1 : len(lit)-1]}
		}
		return &node{kind: kString, lit: lit, str: v.str()}
	default:
		return &node{kind: k, lit: string(v.literal())}
	}
}

// decodeString appends the content of a valid JSON string literal to dst.
func decodeString(dst, lit []byte) []byte {
	lit = lit[1 : len(lit)-1]
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		switch lit[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := hex4(lit, i+1)
			i += 4
			if utf16.IsSurrogate(r) {
				lo, _ := hex4(lit, i+3) // a valid literal pairs every surrogate
				r = utf16.DecodeRune(r, lo)
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, lit[i])
		}
	}
	return dst
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[at : at+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// parseTape reads one JSON value strictly: valid UTF-8, no lone surrogate
// escapes, no duplicate object keys, nothing but white space after the value,
// nesting at most maxDepth. It makes two passes: the first checks the text
// and counts the entries, the second fills a tape of exactly that size. A
// panic in it is a bug of the runner, never of the port whose line it read:
// it becomes an error saying so, and the run goes on.
func parseTape(data []byte) (t *tape, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("the runner failed to read this line (a bug of catalogkit's runner, not of the port: please report it): %v", r)
		}
	}()
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
	if len(data) >= math.MaxUint32 {
		return nil, fmt.Errorf("JSON text of %d bytes is too long to index", len(data))
	}
	p := &jparser{data: data}
	if err := p.text(); err != nil {
		return nil, err
	}
	p.ent, p.fill, p.pos, p.n = make([]uint32, 0, p.n), true, 0, 0
	if err := p.text(); err != nil {
		return nil, err
	}
	return &tape{src: data, ent: p.ent}, nil
}

type jparser struct {
	data []byte
	pos  int
	n    int  // entries so far
	fill bool // second pass: record the entries in ent
	ent  []uint32
	// keys holds the key offsets of the open objects, innermost last
	// (first pass only).
	keys []int
}

// grow makes room for n more elements in s, doubling its capacity when it
// must grow: append grows a large slice by a quarter at a time, which
// allocates five times the final size on the way.
func grow[S ~[]E, E any](s S, n int) S {
	if len(s)+n <= cap(s) {
		return s
	}
	return slices.Grow(s, max(n, len(s)))
}

// smallObject is how many keys an object may have before its duplicate
// check moves from each key as it is read to a sort at the object's end.
const smallObject = 8

func (p *jparser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s at byte offset %d", fmt.Sprintf(format, args...), p.pos)
}

// emit records an entry at the current offset and returns its index.
func (p *jparser) emit() int {
	if p.fill {
		p.ent = append(p.ent, uint32(p.pos))
	}
	p.n++
	return p.n - 1
}

func (p *jparser) text() error {
	p.space()
	if err := p.value(0); err != nil {
		return err
	}
	p.space()
	if p.pos < len(p.data) {
		return p.errorf("unexpected data after the value")
	}
	return nil
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

func (p *jparser) value(depth int) error {
	if p.pos >= len(p.data) {
		return p.errorf("unexpected end of JSON text")
	}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return p.errorf("nesting deeper than %d", maxDepth)
		}
		at := p.emit()
		p.emit() // the index past the subtree, set below
		var err error
		if c == '{' {
			err = p.object(depth + 1)
		} else {
			err = p.array(depth + 1)
		}
		if p.fill {
			p.ent[at+1] = uint32(p.n)
		}
		return err
	case c == '"':
		p.emit()
		return p.string()
	case c == '-' || '0' <= c && c <= '9':
		p.emit()
		return p.number()
	}
	for _, w := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(p.data[p.pos:], []byte(w)) {
			p.emit()
			p.pos += len(w)
			return nil
		}
	}
	return p.errorf("invalid character %q looking for a value", p.data[p.pos])
}

func (p *jparser) object(depth int) error {
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return nil
	}
	first := len(p.keys)
	defer func() { p.keys = p.keys[:first] }()
	for {
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.errorf("want an object key")
		}
		keyAt := p.pos
		p.emit()
		if err := p.string(); err != nil {
			return err
		}
		if !p.fill {
			if err := p.addKey(first, keyAt); err != nil {
				return err
			}
		}
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.errorf("want ':' after an object key")
		}
		p.pos++
		p.space()
		if err := p.value(depth); err != nil {
			return err
		}
		if more, err := p.more('}', "an object"); more || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		if !p.fill {
			return p.checkKeys(first)
		}
		return nil
	}
}

// more reads what follows a member or an element: a ',' (more) or the
// closing byte.
func (p *jparser) more(closing byte, in string) (bool, error) {
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ',' {
		p.pos++
		return true, nil
	}
	if p.pos < len(p.data) && p.data[p.pos] == closing {
		p.pos++
		return false, nil
	}
	return false, p.errorf("want ',' or '%c' in %s", closing, in)
}

// addKey records the key at keyAt of the object whose keys start at
// p.keys[first]. A small object's keys are checked at once, so the first
// duplicate in the text is the one reported.
func (p *jparser) addKey(first, keyAt int) error {
	p.keys = append(grow(p.keys, 1), keyAt)
	if len(p.keys)-first > smallObject {
		return nil
	}
	var sa, sb []byte
	a := p.keyText(keyAt, &sa)
	for _, prev := range p.keys[first : len(p.keys)-1] {
		if b := p.keyText(prev, &sb); bytes.Equal(a, b) {
			p.pos = keyAt
			return p.errorf("duplicate object key %q", a)
		}
	}
	return nil
}

// checkKeys checks a large object's keys for duplicates by sorting them,
// without a set of strings: it reports the repeat that comes first in the
// text.
func (p *jparser) checkKeys(first int) error {
	keys := p.keys[first:]
	if len(keys) <= smallObject {
		return nil
	}
	var sa, sb []byte
	slices.SortFunc(keys, func(x, y int) int {
		if c := bytes.Compare(p.keyText(x, &sa), p.keyText(y, &sb)); c != 0 {
			return c
		}
		return x - y
	})
	dup := -1
	for i := 1; i < len(keys); i++ {
		if bytes.Equal(p.keyText(keys[i-1], &sa), p.keyText(keys[i], &sb)) && (dup < 0 || keys[i] < dup) {
			dup = keys[i]
		}
	}
	if dup >= 0 {
		p.pos = dup
		return p.errorf("duplicate object key %q", p.keyText(dup, &sa))
	}
	return nil
}

// keyText returns the content of the (valid) string literal at off: a slice
// of the text when it has no escape, else decoded into *scratch, which it
// then holds. The scratch buffer is never a slice of the text: decoding into
// one would write over the text itself.
func (p *jparser) keyText(off int, scratch *[]byte) []byte {
	lit := literalAt(p.data, off)
	if bytes.IndexByte(lit, '\\') < 0 {
		return lit[1 : len(lit)-1]
	}
	*scratch = decodeString((*scratch)[:0], lit)
	return *scratch
}

func (p *jparser) array(depth int) error {
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return nil
	}
	for {
		p.space()
		if err := p.value(depth); err != nil {
			return err
		}
		if more, err := p.more(']', "an array"); !more || err != nil {
			return err
		}
	}
}

func (p *jparser) string() error {
	p.pos++ // '"'
	for {
		if p.pos >= len(p.data) {
			return p.errorf("unterminated string")
		}
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			return nil
		case c < 0x20:
			return p.errorf("control character in a string")
		case c == '\\':
			if err := p.escape(); err != nil {
				return err
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
	r, ok := hex4(p.data, p.pos+2)
	if !ok {
		return p.errorf("invalid \\u escape")
	}
	switch {
	case 0xD800 <= r && r < 0xDC00:
		lo, ok := rune(0), false
		if p.pos+11 < len(p.data) && p.data[p.pos+6] == '\\' && p.data[p.pos+7] == 'u' {
			lo, ok = hex4(p.data, p.pos+8)
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

func (p *jparser) number() error {
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
		return p.errorf("invalid number")
	}
	if p.data[intStart] == '0' && p.pos-intStart > 1 {
		return p.errorf("leading zero in a number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.errorf("invalid number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return p.errorf("invalid number")
		}
	}
	return nil
}

// equalTo reports whether the tree a and the tape value b are the same JSON
// value, by the rules of [equalJSON]; p is where both are found, and
// ordered says whether the ordered objects must keep their order.
func equalTo(a *node, b tval, p place, ordered bool) bool {
	if a.kind != b.kind() {
		return false
	}
	switch a.kind {
	case kNull:
		return true
	case kBool, kNumber:
		lit := string(b.literal())
		if a.kind == kBool {
			return a.lit == lit
		}
		return integerLiteral(a.lit) == integerLiteral(lit) && decimalOf(a.lit).equal(decimalOf(lit))
	case kString:
		return b.strEqual(a.str)
	case kArray:
		i := 0
		for it := range b.items() {
			if i >= len(a.items) || !equalTo(a.items[i], it, p.element(), ordered) {
				return false
			}
			i++
		}
		return i == len(a.items)
	}
	i := 0
	for k, v := range b.members() {
		if i >= len(a.keys) {
			return false
		}
		if ordered && p.ordered() && !k.strEqual(a.keys[i]) {
			return false // the contract gives these members an order
		}
		i++
		w, ok := a.lookup(k.str())
		if !ok || !equalTo(w, v, p.member(k.str()), ordered) {
			return false
		}
	}
	return i == len(a.keys)
}
