package fuzz

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/conformance"
)

// Lines of the suite, mutated. One call in cornerEvery takes a line the
// suite itself sends (a call of the 21 cases or of the format 2 level, a
// line of the text level, a line of the protocol level), changes it once
// and sends the result as a line of its own, judged against the
// reference's reply to the same line. The suite's lines sit on the rules;
// one change away from them lie the neighbours no case was written for:
// a member gone or given twice, two members swapped, a value replaced by
// one of hostileValues, one byte changed, or the head of one line spliced
// to the tail of another.

// suiteTurn is the turn (see generate) that carries a mutated suite line.
const suiteTurn = 10

// maxSuiteLine bounds the lines taken from the suite: the lines of 32 MiB
// stay with their cases, so a run of thousands of calls takes seconds.
const maxSuiteLine = 16 << 10

// suiteLineSeq is the seq written into the suite's lines that carry the
// runner's: the seq of each is its own (see [corner.alone]).
const suiteLineSeq = 7

// suiteLines returns the lines of the suite the fuzzer mutates, in the
// suite's order, without their endings: every check's call as a call line,
// then the text level's and the protocol level's lines of at most
// maxSuiteLine bytes. It is empty if the suite cannot be loaded (never,
// for the suite compiled in).
var suiteLines = sync.OnceValue(func() []suiteLine {
	var out []suiteLine
	for _, l := range loadSuiteLines() {
		out = append(out, suiteLine{raw: l, tree: parseNode(l)})
	}
	return out
})

// loadSuiteLines returns the lines of the suite (see [suiteLines]).
func loadSuiteLines() [][]byte {
	var lines [][]byte
	callLine := func(call []byte) []byte {
		return (*lineMutation)(nil).build(call, suiteLineSeq)
	}
	for _, load := range []func() ([]*conformance.Case, error){conformance.Cases, conformance.Format2Cases} {
		cases, err := load()
		if err != nil {
			return nil
		}
		for _, c := range cases {
			for _, chk := range c.Checks {
				if call := chk.Call(); len(call) <= maxSuiteLine {
					lines = append(lines, callLine(call))
				}
			}
		}
	}
	text, err := conformance.TextCases()
	if err != nil {
		return nil
	}
	for _, c := range text {
		if c.Size() <= maxSuiteLine {
			lines = append(lines, c.Line(suiteLineSeq))
		}
	}
	protocol, err := conformance.ProtocolCases()
	if err != nil {
		return nil
	}
	for _, c := range protocol {
		for _, l := range c.Lines {
			if l.Size() <= maxSuiteLine {
				lines = append(lines, bytes.TrimRight(l.Bytes(), "\r\n"))
			}
		}
	}
	return lines
}

// A suiteLine is a line of the suite and, when it is valid JSON, its tree,
// read once: a mutation changes a copy.
type suiteLine struct {
	raw  []byte
	tree *node
}

// hostileValues are the values a mutation writes in place of another: a
// value of every JSON kind, the ones a lax reader or a careless port gets
// wrong (null where a value is due, U+FFFD raw and escaped, CR LF and a
// lone CR, numbers at the edges of what a double holds, labels that are a
// prefix, a suffix or a dotted parent of the suite's labels), each written
// as JSON text.
var hostileValues = []string{
	`null`, `true`, `false`, `0`, `-0`, `1.0`, `1e2`, `-1`, `9007199254740993`, `1e400`, `-1e-400`, `""`, `[]`, `{}`, `[null]`, `{"":null}`,
	`"\ufffd"`, "\"\ufffd\"", `"\r\n"`, `"a\rb"`, `"\u0000"`, `"\ufeff"`, `"\u2028"`, `"'"`, `"\u0007"`,
	`"reading"`, `"read"`, `"reading.web"`, `"web"`, `"web.reading"`, `"readings"`, `"page"`, `"page.read.more"`, `"all"`, `"ALL"`,
	`"string"`, `"integer"`, `"boolean"`, `"number"`, `"object"`, `"constructor"`, `"__proto__"`,
}

// suiteMutation returns a corner whose line is one of the suite's lines,
// changed once; nil if there is no suite.
func (g *gen) suiteMutation() *corner {
	lines := suiteLines()
	if len(lines) == 0 {
		return nil
	}
	how, out := g.mutateLine(lines[g.n(len(lines))], lines)
	return &corner{name: "suite line, " + how, before: string(out), alone: true}
}

// mutateLine changes a copy of l once: in its members when it is valid
// JSON and the draw says so, else in its bytes.
func (g *gen) mutateLine(l suiteLine, lines []suiteLine) (how string, out []byte) {
	line := l.raw
	if l.tree != nil && g.p(0.7) {
		v := l.tree.clone()
		if how, ok := g.mutateMembers(v); ok {
			return how, v.appendJSON(nil)
		}
	}
	switch g.n(3) {
	case 0: // one byte changed
		if len(line) == 0 {
			break
		}
		out = bytes.Clone(line)
		out[g.n(len(out))] = oneOf(g, []byte("\"\\{}[],: 0-e.x\r\x00\xff\x7f")...)
		return "one byte changed", out
	case 1: // spliced: the head of this line, the tail of another
		other := lines[g.n(len(lines))].raw
		i, j := g.n(len(line)+1), g.n(len(other)+1)
		return "spliced", append(bytes.Clone(line[:i]), other[j:]...)
	}
	// a hostile value written as text where a value starts
	starts := valueStarts(line)
	if len(starts) == 0 {
		return "unchanged", bytes.Clone(line)
	}
	at := starts[g.n(len(starts))]
	end := at + valueLen(line[at:])
	return "a value replaced", append(append(bytes.Clone(line[:at]), oneOf(g, hostileValues...)...), line[end:]...)
}

// mutateMembers changes v in place once: a member removed, duplicated
// (the copy first or last, its value kept or hostile), two members
// swapped, a value replaced by a hostile one, or CR LF or U+FFFD put in a
// string. It reports what it did, or false when v has no place for it.
func (g *gen) mutateMembers(v *node) (string, bool) {
	objects, strs := collect(v)
	var values []*node
	var walk func(n *node)
	walk = func(n *node) {
		values = append(values, n)
		for _, c := range append(append([]*node{}, n.items...), n.vals...) {
			walk(c)
		}
	}
	walk(v)
	switch k := g.n(5); {
	case k == 0 && len(objects) > 0:
		obj := objects[g.n(len(objects))]
		i := g.n(len(obj.keys))
		obj.keys = append(obj.keys[:i:i], obj.keys[i+1:]...)
		obj.vals = append(obj.vals[:i:i], obj.vals[i+1:]...)
		return "a member removed", true
	case k == 1 && len(objects) > 0:
		obj := objects[g.n(len(objects))]
		i := g.n(len(obj.keys))
		key, val := obj.keys[i].clone(), obj.vals[i].clone()
		if g.p(0.5) {
			val = rawValue(oneOf(g, hostileValues...))
		}
		if g.p(0.5) { // the copy first: the first of the pair is the odd one
			obj.keys = append([]*node{key}, obj.keys...)
			obj.vals = append([]*node{val}, obj.vals...)
			return "a member given twice, the copy first", true
		}
		obj.keys = append(obj.keys, key)
		obj.vals = append(obj.vals, val)
		return "a member given twice", true
	case k == 2 && len(objects) > 0:
		obj := objects[g.n(len(objects))]
		if len(obj.keys) < 2 {
			return "", false
		}
		i, j := g.n(len(obj.keys)), g.n(len(obj.keys))
		obj.keys[i], obj.keys[j] = obj.keys[j], obj.keys[i]
		obj.vals[i], obj.vals[j] = obj.vals[j], obj.vals[i]
		return "two members swapped", true
	case k == 3 && len(values) > 1:
		n := values[1+g.n(len(values)-1)]
		*n = *rawValue(oneOf(g, hostileValues...))
		return "a value replaced", true
	case k == 4 && len(strs) > 0:
		s := strs[g.n(len(strs))]
		s.units = insert(g, s.us(), oneOf(g, `\r`, "\ufffd", `\ufffd`))
		if s.units[len(s.units)-1] != `\r` && g.p(0.5) {
			s.units = insert(g, s.us(), `\r`)
		}
		return "a string given CR or U+FFFD", true
	}
	return "", false
}

// parseNode reads line into a node if it is JSON text the strict reader
// of package catalog takes, else returns nil: a line with invalid UTF-8, a
// lone surrogate or a duplicate key keeps those in its bytes, where only a
// byte-level mutation reaches them (encoding/json would read them as
// U+FFFD, or keep one of the pair, and so repair the line it mutates).
// Members keep their order, numbers their literals.
func parseNode(line []byte) *node {
	if _, err := catalog.ParseJSON(line); err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var read func() *node
	read = func() *node {
		tok, err := dec.Token()
		if err != nil {
			return null()
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '[' {
				a := array()
				for dec.More() {
					a.items = append(a.items, read())
				}
				dec.Token()
				return a
			}
			o := object()
			for dec.More() {
				k, _ := dec.Token()
				key, _ := k.(string)
				o.keys = append(o.keys, str(key))
				o.vals = append(o.vals, read())
			}
			dec.Token()
			return o
		case string:
			return str(t)
		case json.Number:
			return number(t.String())
		case bool:
			return boolean(t)
		}
		return null()
	}
	return read()
}

// valueStarts returns where, in line (any bytes), a value begins after a
// ':' or a '[' or a ',' outside strings: the places a hostile value goes
// when the line is not valid JSON.
func valueStarts(line []byte) []int {
	var at []int
	in := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ':' || c == '[' || c == ','):
			if i+1 < len(line) && !strings.ContainsRune("]}", rune(line[i+1])) {
				at = append(at, i+1)
			}
		}
	}
	return at
}

// valueLen returns the length of the value text starts with: a string, a
// container up to its match, or a literal up to the next ',', ']' or '}'.
func valueLen(text []byte) int {
	depth, in := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
			if !in && depth == 0 {
				return i + 1
			}
		case in:
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case c == ',' && depth == 0:
			return i
		}
	}
	return len(text)
}
