package fuzz

import (
	"math/rand/v2"
	"strings"
)

// Call returns the JSON text of call i of the run with the given seed: a
// CALL object of PROTOCOL.md. Each call comes from its own random stream,
// seeded by the seed and i, so a call can be made again on its own and the
// number of jobs never changes what is sent.
func Call(seed uint64, i int) []byte { return generate(seed, i).call.appendJSON(nil) }

// Line returns the request line that carries call i of the run with the
// given seed, for the given seq, without its newline: usually
// {"type":"call","seq":N,"call":CALL}, rarely with a line-level mutation
// around the call (see [lineMutation]).
func Line(seed uint64, i int, seq int64) []byte {
	s := generate(seed, i)
	return s.line.build(s.call.appendJSON(nil), seq)
}

// A sample is one generated call and, rarely, a mutation of the message
// line that carries it.
type sample struct {
	call   *node
	line   *lineMutation // nil: the call is sent as it is, with Call
	corner *corner       // not nil: the line is this protocol corner's
	// breaks names the rarer things drawn into the sample (a break of the
	// grammar, a family named "all"), for the tests that check the
	// grammar reaches each of them.
	breaks []string
}

func generate(seed uint64, i int) sample {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i)))}
	if turnOf(seed, i) == twinTurn && i > 0 {
		call := g.twin(seed, i)
		return sample{call: call, breaks: g.breaks}
	}
	if turnOf(seed, i) == limitTurn {
		call := g.limitCall(int((uint64(i) + seed) / cornerEvery))
		return sample{call: call, breaks: g.breaks}
	}
	var s sample
	if turn := turnOf(seed, i); isFormat2Turn(turn) {
		// One format-2 call in three is a probe, in turn.
		probe := -1
		if k := (uint64(i) + seed) / cornerEvery; k%3 == 0 {
			probe = int(k / 3 % uint64(len(probes2)))
		}
		s.call = g.call2Probe(probe)
	} else {
		s.call = g.call()
	}
	// Drawn last: the call is the same with or without them.
	if g.p(0.02) {
		s.line = g.lineMutation()
	}
	// The breaks of the grammar and the protocol's corners are many, each
	// as rare as the bug it finds: rather than drawn, they take turns, one
	// call in breakEvery and one in cornerEvery, so that every one of them
	// comes a few times in the gate's budget whatever the seed.
	switch turn := turnOf(seed, i); {
	case turn%breakEvery == 3:
		g.grammarBreak(s.call, int((uint64(i)+seed)/breakEvery%uint64(len(grammarBreaks))))
	case turn == 6:
		s.line, s.corner = nil, &corners[(uint64(i)+seed)/cornerEvery%uint64(len(corners))]
		g.drew("corner " + s.corner.name)
	case turn == suiteTurn:
		if c := g.suiteMutation(); c != nil {
			s.line, s.corner = nil, c
			g.drew(c.name)
		}
	case turn == twinBaseTurn:
		// The base reaches the port as it is, so that its twin follows a
		// call the port worked out.
		s.line = nil
		g.primeTwinBase(s.call)
	}
	s.breaks = g.breaks
	return s
}

// build returns the line that carries the sample's call (its JSON text)
// for seq.
func (s sample) build(call []byte, seq int64) []byte {
	if s.corner != nil {
		return s.corner.build(call, seq)
	}
	return s.line.build(call, seq)
}

// gen draws one call from the grammar of the contract: mostly valid
// catalogs with near-misses, calls that mostly make sense for them, and,
// rarely, the limits and text-level mutations.
type gen struct {
	r      *rand.Rand
	tools  []tool // the catalog as generated, before near-misses
	breaks []string
}

func (g *gen) drew(what string) { g.breaks = append(g.breaks, what) }

type tool struct {
	name, family string
	enabled      bool
	fields       []field
}

type field struct {
	name, typ string
	required  bool
	maxLen    int
}

func (g *gen) n(k int) int                        { return g.r.IntN(k) }
func (g *gen) p(prob float64) bool                { return g.r.Float64() < prob }
func oneOf[T any](g *gen, xs ...T) T              { return xs[g.r.IntN(len(xs))] }
func (g *gen) shuffle(n int, swap func(i, j int)) { g.r.Shuffle(n, swap) }

// Labels the catalogs use: real-looking ones, edge ones (one character,
// dots, dashes, underscores) and names of built-in properties of common
// languages' objects that happen to be labels.
var (
	familyPool = []string{"reading", "input", "storage", "net.http", "a", "z9", "web-reading", "x_y", "constructor", "prototype",
		"net", "reading.web", "read"} // a dotted parent, a dotted child and a prefix of the others
	toolPool = []string{"page.read", "page.find", "form.fill", "key.press", "cookie.clear", "t", "a.b", "page.read-all", "x_1", "page.rea", "page.read.v2",
		"constructor", "prototype", "length", "valueof", "hasownproperty", "tostring", "proto"}
	fieldPool = []string{"q", "query", "tab_id", "text", "limit", "match_case", "out-format", "a.b", "selector",
		"constructor", "prototype", "length", "valueof", "hasownproperty", "tostring"}
	// builtinKeys collide with built-in properties of objects and
	// dictionaries: an argument key of these must be rejected unless the
	// tool declares it.
	builtinKeys = []string{"constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype", "length", "__class__", "keys", "get"}
	// badLabels are strings that are not labels.
	badLabels = []string{"", "A", "Reading", "pAge.read", "page read", "1page", ".page", "-page", "_page", "page\n", "page\t", "\npage",
		"é", "ｐage", "page.v\u0663", "toString", "__proto__", "hasOwnProperty", "valueOf", "page/read", "page\u0000", "page.Read", " page"}
)

// longLabel returns a label of n characters (80 is the longest label; 81 is
// not a label).
func (g *gen) longLabel(n int) string {
	const chars = "abcdefghijklmnopqrstuvwxyz0123456789._-"
	b := []byte{byte('a' + g.n(26))}
	for len(b) < n {
		b = append(b, chars[g.n(len(chars))])
	}
	return string(b)
}

// label returns a label: usually from pool, sometimes 80 characters long.
func (g *gen) label(pool []string) string {
	if g.p(0.04) {
		return g.longLabel(80)
	}
	return oneOf(g, pool...)
}

// notLabel returns a value that is not a label: a string that is not one,
// or a value of another JSON type.
func (g *gen) notLabel() *node {
	switch g.n(10) {
	case 0:
		return g.wrongType("")
	case 1:
		return str(g.longLabel(81))
	case 2:
		return null()
	}
	return str(oneOf(g, badLabels...))
}

// catalogTools draws the catalog's model: usually a few tools, rarely the
// 1000-tool limit or one over, or a tool at the 30-field limit or one over.
func (g *gen) catalogTools() {
	families := make([]string, 1+g.n(3))
	for i := range families {
		families[i] = g.label(familyPool)
		if g.p(0.06) {
			// A family named "all": discover("all") still lists every
			// family (conformance/SPEC.md §6).
			families[i] = "all"
			g.drew("family all")
		}
	}
	count := 1 + g.n(4)
	switch x := g.n(1000); {
	case x < 60:
		// (The 1000-tool limit and one over come from the limits table,
		// limits.go, in turn.)
		count = 5 + g.n(8)
	case x < 100:
		count = 0
	}
	wideTool := -1
	if count > 0 && count < 100 && g.p(0.025) {
		wideTool = g.n(count)
	}
	used := map[string]bool{}
	for i := range count {
		t := tool{family: oneOf(g, families...), enabled: g.p(0.8)}
		switch {
		case count > 100:
			t.name = "t" + itoa(i)
		default:
			for t.name == "" || used[t.name] {
				t.name = g.label(toolPool)
				if used[t.name] {
					t.name += "." + itoa(g.n(100))
				}
			}
		}
		used[t.name] = true
		nf := g.n(5)
		switch {
		case i == wideTool:
			nf = oneOf(g, 30, 31, 29)
		case count > 100:
			nf = g.n(2)
		case g.p(0.05):
			nf = 5 + g.n(6)
		}
		t.fields = g.fields(nf)
		if i == wideTool && g.p(0.5) {
			// At the limit and one over, a bad field name shows whether the
			// count is checked first.
			t.fields[g.n(nf)].name = oneOf(g, badLabels[1:]...)
		}
		g.tools = append(g.tools, t)
	}
}

func (g *gen) fields(n int) []field {
	var fs []field
	used := map[string]bool{}
	for len(fs) < n {
		name := g.label(fieldPool)
		if used[name] {
			name = "f" + itoa(len(fs))
		}
		if used[name] {
			continue
		}
		used[name] = true
		f := field{name: name, typ: oneOf(g, "string", "string", "integer", "boolean"), required: g.p(0.5)}
		switch x := g.n(100); {
		case x < 60:
			f.maxLen = 1 + g.n(8)
		case x < 77:
			f.maxLen = oneOf(g, 16, 32)
		case x < 89:
			f.maxLen = 200
		case x < 90:
			f.maxLen = 20000 // the largest; rare, a string at it is 20000 code points
		default:
			f.maxLen = 1
		}
		fs = append(fs, f)
	}
	return fs
}

// catalogNode writes the model as JSON, members sometimes in another order
// (only fields' order means something), then applies near-misses.
func (g *gen) catalogNode() *node {
	cat := array()
	for _, t := range g.tools {
		cat.items = append(cat.items, g.toolNode(t))
	}
	if len(cat.items) > 0 && g.p(0.3) {
		g.nearMiss(cat)
		if g.p(0.3) {
			g.nearMiss(cat) // two things wrong at once: which error wins
		}
	}
	if g.p(0.01) {
		return oneOf(g, object(), null(), str("[]"), number("1"), object().set("tools", cat))
	}
	return cat
}

func (g *gen) toolNode(t tool) *node {
	fields := object()
	for _, f := range t.fields {
		fields.set(f.name, g.specNode(f))
	}
	effect := "read"
	if g.p(0.4) {
		effect = "change"
	}
	n := object().set("name", str(t.name)).set("family", str(t.family)).set("effect", str(effect)).
		set("enabled", boolean(t.enabled)).set("fields", fields)
	if g.p(0.2) {
		g.shuffleMembers(n)
	}
	return n
}

func (g *gen) specNode(f field) *node {
	n := object().set("type", str(f.typ)).set("required", boolean(f.required)).set("max_length", number(itoa(f.maxLen)))
	if g.p(0.15) {
		g.shuffleMembers(n)
	}
	return n
}

func (g *gen) shuffleMembers(n *node) {
	g.shuffle(len(n.keys), func(i, j int) {
		n.keys[i], n.keys[j] = n.keys[j], n.keys[i]
		n.vals[i], n.vals[j] = n.vals[j], n.vals[i]
	})
}

// replace sets the value of the member key of obj, keeping its place.
func replace(obj *node, key string, v *node) {
	for i, k := range obj.keys {
		if k.plain() == key {
			obj.vals[i] = v
			return
		}
	}
}

// remove deletes the member key of obj.
func remove(obj *node, key string) {
	for i, k := range obj.keys {
		if k.plain() == key {
			obj.keys = append(obj.keys[:i:i], obj.keys[i+1:]...)
			obj.vals = append(obj.vals[:i:i], obj.vals[i+1:]...)
			return
		}
	}
}

// nearMiss breaks one thing in one tool of cat: almost valid, so that
// exactly one rule decides the outcome (two near-misses make the order of
// the rules decide it).
func (g *gen) nearMiss(cat *node) {
	ti := g.n(len(cat.items))
	if len(cat.items) > 100 {
		ti = len(cat.items) - 1 - g.n(3) // the limit catalogs: break a late tool
	}
	tn := cat.items[ti]
	if tn.kind != kObject {
		return
	}
	fields := tn.get("fields")
	var spec *node
	var fi int
	if fields != nil && fields.kind == kObject && len(fields.keys) > 0 {
		fi = g.n(len(fields.keys))
		spec = fields.vals[fi]
	}
	switch x := g.n(20); {
	case x == 0:
		replace(tn, "name", g.notLabel())
	case x == 1:
		replace(tn, "family", g.notLabel())
	case x <= 3 && len(cat.items) > 1:
		other := cat.items[(ti+1+g.n(len(cat.items)-1))%len(cat.items)]
		if name := other.get("name"); name != nil {
			replace(tn, "name", name.clone()) // a duplicate name
		}
	case x == 4:
		replace(tn, "effect", oneOf(g, str("write"), str("READ"), str(""), number("1"), null(), boolean(true), str("read ")))
	case x == 5:
		replace(tn, "enabled", oneOf(g, number("1"), number("0"), str("true"), null(), str("false"), number("1.0")))
	case x == 6:
		replace(tn, "fields", oneOf(g, array(), null(), str("{}"), number("0"), array(object())))
	case x == 7 && fields != nil && fields.kind == kObject && len(fields.keys) > 0:
		fields.keys[fi] = g.notLabel()
		if fields.keys[fi].kind != kString {
			fields.keys[fi] = str(oneOf(g, badLabels...))
		}
	case x == 8 && spec != nil:
		fields.vals[fi] = oneOf(g, array(), null(), str("string"), number("5"), object())
	case x == 9 && spec != nil:
		if g.p(0.5) {
			spec.set(oneOf(g, "maxLength", "pattern", "constructor", "default"), number("1"))
		} else {
			remove(spec, oneOf(g, "type", "required", "max_length"))
		}
	case x == 10 && spec != nil:
		replace(spec, "type", oneOf(g, str("str"), str("int"), str("number"), str("String"), str("bool"), null(), number("1"), str("object")))
	case x == 11 && spec != nil:
		replace(spec, "required", oneOf(g, number("1"), number("0"), str("true"), null()))
	case x <= 13 && spec != nil:
		replace(spec, "max_length", g.badMaxLength())
	case x == 14:
		cat.items[ti] = oneOf(g, array(), null(), str("page.read"), number("1"), boolean(true))
	case x == 15:
		tn.set(oneOf(g, "constructor", "description", "__proto__", "toString", "name2", "Name"), oneOf(g, str("x"), null(), boolean(true)))
	case x == 16:
		remove(tn, oneOf(g, "name", "family", "effect", "enabled", "fields"))
	case x == 17:
		replace(tn, "name", null())
	case spec != nil:
		// A max_length at the edge of the range, still valid.
		replace(spec, "max_length", oneOf(g, number("1"), number("20000")))
	default:
		replace(tn, "enabled", boolean(false))
	}
}

func (g *gen) badMaxLength() *node {
	return oneOf(g, number("0"), number("20001"), number("1.0"), number("1e2"), number("1E1"), number("-1"), number("-0"),
		number("5.5"), str("5"), boolean(true), null(), number(strings.Repeat("9", 40)), number("1e400"), number("100000000000000000001"))
}

// call draws the call: discover, validate_arguments, or either inside
// mutate_and_repeat.
func (g *gen) call() *node {
	g.catalogTools()
	var call *node
	if g.p(0.5) {
		call = g.discover()
	} else {
		call = g.validate()
	}
	if g.p(0.15) {
		if call.get("op").plain() == "discover" && g.p(0.3) {
			// The echo of a discover's arguments is null whatever the call
			// carries (PROTOCOL.md, mutate_and_repeat).
			var fields []field
			if t := g.someTool(); t != nil {
				fields = t.fields
			}
			call.set("arguments", g.arguments(fields))
			g.drew("mutate_and_repeat of discover with arguments")
		}
		call = object().set("op", str("mutate_and_repeat")).set("call", call)
	}
	if g.p(0.04) {
		// A parameter left out is not one with a default: an absent
		// catalog, family or arguments is refused (PROTOCOL.md).
		inner := call
		if c := call.get("call"); c != nil {
			inner = c
		}
		member := oneOf(g, "catalog", "family", "arguments")
		if inner.get(member) != nil {
			remove(inner, member)
			g.drew("no " + member)
		}
	}
	if g.p(0.06) {
		g.textMutation(call)
	}
	return call
}

// someTool returns a random tool of the model, or nil when there is none.
func (g *gen) someTool() *tool {
	if len(g.tools) == 0 {
		return nil
	}
	return &g.tools[g.n(len(g.tools))]
}

func (g *gen) discover() *node {
	cat := g.catalogNode()
	var family *node
	t := g.someTool()
	switch x := g.n(100); {
	case x < 55 && t != nil:
		family = str(t.family)
	case x < 75:
		family = str("all")
	case x < 85:
		family = str(g.label(familyPool))
	case x < 93:
		family = g.notLabel()
	default:
		family = str(g.longLabel(80))
	}
	call := object().set("op", str("discover")).set("catalog", cat).set("family", family)
	if name := g.name(0.45); name != nil {
		call.set("name", name)
	}
	if g.p(0.1) {
		g.shuffleMembers(call)
	}
	return call
}

// name returns the name of a call: nil (absent) with probability absent,
// else mostly a tool's name (enabled or not, of any family), sometimes
// another label, a near-miss of a tool's name, or not a label.
func (g *gen) name(absent float64) *node {
	if g.p(absent) {
		return nil
	}
	t := g.someTool()
	switch x := g.n(100); {
	case x < 75 && t != nil:
		return str(t.name)
	case x < 82 && t != nil:
		return str(oneOf(g, t.name+"x", t.name[:len(t.name)-1], strings.ToUpper(t.name[:1])+t.name[1:], t.name+"\n"))
	case x < 90:
		return str(g.label(toolPool))
	}
	return g.notLabel()
}

func (g *gen) validate() *node {
	cat := g.catalogNode()
	name := g.name(0.04)
	var fields []field
	if name != nil && name.kind == kString {
		for _, t := range g.tools {
			if t.name == name.plain() {
				fields = t.fields
			}
		}
	}
	if fields == nil {
		if t := g.someTool(); t != nil {
			fields = t.fields
		}
	}
	call := object().set("op", str("validate_arguments")).set("catalog", cat)
	if name != nil {
		call.set("name", name)
	}
	call.set("arguments", g.arguments(fields))
	if g.p(0.1) {
		g.shuffleMembers(call)
	}
	return call
}

// arguments draws arguments for fields: mostly valid, with near-misses (an
// unknown key, often a built-in property name; a missing required key; a
// value of the wrong type or over max_length), keys sometimes written with
// an escape, rarely not an object at all.
func (g *gen) arguments(fields []field) *node {
	if g.p(0.04) {
		return oneOf(g, array(), null(), str("{}"), number("1"), boolean(true), array(object()))
	}
	args := object()
	for _, f := range fields {
		if !(f.required && g.p(0.95) || !f.required && g.p(0.55)) {
			continue
		}
		args.set(f.name, g.value(f, g.p(0.85)))
	}
	if g.p(0.12) {
		key := oneOf(g, builtinKeys...)
		if g.p(0.3) {
			key = oneOf(g, fieldPool...)
		}
		if args.get(key) == nil {
			args.set(key, oneOf(g, number("1"), str("x"), boolean(true), null()))
		}
	}
	if g.p(0.06) && len(args.keys) > 0 {
		// A key written with an escape is the same key: "\u0071" is "q".
		k := args.keys[g.n(len(args.keys))]
		if u := k.us(); len(u) > 0 && len(u[0]) == 1 {
			u[0] = escaped(rune(u[0][0]))
		}
	}
	if g.p(0.3) {
		g.shuffleMembers(args)
	}
	return args
}

// value draws a value for field f: one that fits when fits, else one that
// does not (a near-miss of the same type, or another type).
func (g *gen) value(f field, fits bool) *node {
	if !fits && g.p(0.35) {
		return g.wrongType(f.typ)
	}
	switch f.typ {
	case "string":
		n := f.maxLen + 1
		if fits {
			n = f.maxLen
			if g.p(0.5) {
				n = g.n(min(f.maxLen, 12) + 1)
			}
		}
		t := g.text(n)
		if n >= 2 && g.p(0.2) {
			// CR LF at and around the limit: two code points, which a port
			// that counts line breaks counts as one; or a lone CR.
			u := t.us()
			i := g.n(n - 1)
			if g.p(0.7) {
				u[i], u[i+1] = `\r`, `\n`
			} else {
				u[i] = `\r`
			}
		}
		return t
	case "integer":
		if fits {
			return number(oneOf(g, "0", "-0", "7", "-12", "20000", "9007199254740993", "9007199254740992", "18446744073709551616",
				strings.Repeat("9", 40), "-"+strings.Repeat("1", 23), "1"+strings.Repeat("0", 40)))
		}
		return number(oneOf(g, "1.0", "1e2", "1E2", "-0.0", "0.5", "1e400", "1.5e-3", "-1.0", "10e0", "1e05"))
	}
	if fits {
		return boolean(g.p(0.5))
	}
	return oneOf(g, number("0"), number("1"), str("true"), str("false"), null(), number("1.0"))
}

// wrongType returns a value that is not of JSON type typ.
func (g *gen) wrongType(typ string) *node {
	for {
		v := oneOf(g, str("x"), str(""), number("1"), number("0"), boolean(true), boolean(false), null(), array(), object(), array(str("x")), number("1.5"))
		switch {
		case typ == "string" && v.kind == kString, typ == "integer" && v.kind == kNumber && v.lit != "1.5", typ == "boolean" && v.kind == kBool,
			typ == "number" && v.kind == kNumber, typ == "array" && v.kind == kArray, typ == "object" && v.kind == kObject:
			continue
		}
		return v
	}
}

// text returns a string of n code points in one of several styles: ASCII,
// Hangul, astral characters raw or as surrogate-pair escapes, combining
// marks, \u escapes of BMP characters, escaped controls, or a mix.
func (g *gen) text(n int) *node {
	s := &node{kind: kString, units: make([]string, 0, n)}
	style := g.n(8)
	for i := range n {
		st := style
		if style == 7 {
			st = g.n(7)
		}
		var u string
		switch st {
		case 0:
			u = string(rune('a' + g.n(26)))
		case 1:
			u = string(rune(0xAC00 + g.n(11172))) // Hangul syllables: 3 bytes of UTF-8
		case 2:
			u = string(rune(0x1F600 + g.n(64))) // emoji: 4 bytes, 2 UTF-16 units
		case 3:
			u = escaped(rune(0x1F600 + g.n(64)))
		case 4:
			u = "e"
			if i%2 == 1 {
				u = "\u0301" // a combining acute accent: its own code point
			}
		case 5:
			u = escaped(rune(oneOf(g, 0xE9, 0x41, 0x2028, 0xFEFF, 0x3042, 0x7F)))
		case 6:
			u = oneOf(g, `\n`, `\t`, `\"`, `\\`, `\/`, `\u0000`, `\b`, `\u001f`, `\u005c`)
		}
		s.units = append(s.us(), u)
	}
	return s
}
