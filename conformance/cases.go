package conformance

import (
	"bytes"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Files holds the suite exactly as a port reads it from disk:
// cases/<id>.json and synthetic-catalog.json, which the cases reference,
// the text level's text/<id>.json, the protocol level's protocol/<id>.json
// and the format 2 level's format2/<id>.json.
//
//go:embed cases/*.json synthetic-catalog.json text/*.json protocol/*.json format2/*.json
var Files embed.FS

// CatalogFile is the name of the synthetic catalog, the target of every
// catalog reference ({"$ref": "synthetic-catalog.json"}) in a case.
const CatalogFile = "synthetic-catalog.json"

// A Case is one conformance case: a permanent id, a title, the SPEC.md
// section it checks, and one or more checks.
type Case struct {
	ID     string
	Title  string
	Spec   string
	Checks []*Check
}

// A Check is one call and its expected outcome.
type Check struct {
	// Note says, for people, what the check is about.
	Note string
	// call is the call with every catalog reference resolved: what a port
	// receives. display is the call as the case file writes it.
	call, display *node
	callJSON      []byte
	displayJSON   string
	// expect is {"result": VALUE} or {"error": "CODE"}, references resolved.
	expect *node
}

// Call returns the JSON text of the call a port receives for this check (a
// CALL object of PROTOCOL.md, every catalog inline).
func (c *Check) Call() []byte { return slices.Clone(c.callJSON) }

// Display returns the call as the case file writes it, catalog references
// unresolved: short enough to show in a report.
func (c *Check) Display() string { return c.displayJSON }

// Expect returns the JSON text of the expected outcome.
func (c *Check) Expect() []byte { return c.expect.appendJSON(nil) }

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$`)

// Load reads every case of the suite in fsys (cases/*.json, and the
// synthetic catalog they reference), resolves the catalog references and
// returns the cases sorted by id. It checks what the runner relies on; the
// JSON Schema case.schema.json describes the format in full.
func Load(fsys fs.FS) ([]*Case, error) {
	return loadCases(fsys, "cases", "case")
}

// An anyCase is a case of any level: a contract case, a text case or a
// protocol case, with what a report says of it besides its checks.
type anyCase interface {
	head() (id, title, spec string)
}

func (c *Case) head() (string, string, string)         { return c.ID, c.Title, c.Spec }
func (c *TextCase) head() (string, string, string)     { return c.ID, c.Title, c.Spec }
func (c *ProtocolCase) head() (string, string, string) { return c.ID, c.Title, c.Spec }

// loadFiles reads every case file in folder dir of fsys (dir/*.json) with
// parse, checks that each case's id is its file's name, and returns the
// cases sorted by id. what names the kind of case in errors.
func loadFiles[C anyCase](fsys fs.FS, dir, what string, parse func([]byte) (C, error)) ([]C, error) {
	names, err := fs.Glob(fsys, dir+"/*.json")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no %s files in %s/", what, dir)
	}
	cases := make([]C, 0, len(names))
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		c, err := parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s file %q: %v", what, name, err)
		}
		if id, _, _ := c.head(); id != strings.TrimSuffix(path.Base(name), ".json") {
			return nil, fmt.Errorf("%s file %q: id %q does not match the file name", what, name, id)
		}
		cases = append(cases, c)
	}
	slices.SortFunc(cases, func(a, b C) int {
		ia, _, _ := a.head()
		ib, _, _ := b.head()
		return strings.Compare(ia, ib)
	})
	return cases, nil
}

// loadCases reads the case files of dir in fsys (what names them in
// errors), their catalog references resolved against the synthetic catalog.
func loadCases(fsys fs.FS, dir, what string) ([]*Case, error) {
	catText, err := fs.ReadFile(fsys, CatalogFile)
	if err != nil {
		return nil, fmt.Errorf("failed to read the synthetic catalog: %w", err)
	}
	synthetic, err := parseJSON(catText)
	if err != nil {
		return nil, fmt.Errorf("failed to read %q: %v", CatalogFile, err)
	}
	return loadFiles(fsys, dir, what, func(data []byte) (*Case, error) { return parseCase(data, synthetic) })
}

// Cases returns the embedded suite, loaded with [Load].
func Cases() ([]*Case, error) { return Load(Files) }

// LoadFormat2 reads the format 2 level in fsys (format2/*.json): cases of
// the format of the suite's, on catalogs of format 2 (SPEC.md §12).
func LoadFormat2(fsys fs.FS) ([]*Case, error) {
	cases, err := loadCases(fsys, "format2", "format 2 case")
	for _, c := range cases {
		if !strings.HasPrefix(c.ID, "format2.") {
			return nil, fmt.Errorf("format 2 case %q: the id must start with %q", c.ID, "format2.")
		}
	}
	return cases, err
}

// Format2Cases returns the embedded format 2 level, loaded with
// [LoadFormat2].
func Format2Cases() ([]*Case, error) { return LoadFormat2(Files) }

func parseCase(data []byte, synthetic *node) (*Case, error) {
	c := &Case{}
	_, checks, err := contractForm.read(data, &c.ID, &c.Title, &c.Spec)
	if err != nil {
		return nil, err
	}
	for i, cn := range checks {
		chk, err := parseCheck(cn, synthetic)
		if err != nil {
			return nil, fmt.Errorf("checks[%d]: %v", i, err)
		}
		c.Checks = append(c.Checks, chk)
	}
	return c, nil
}

func parseCheck(n *node, synthetic *node) (*Check, error) {
	if err := onlyKeys(n, "check", []string{"call", "expect"}, []string{"note"}); err != nil {
		return nil, err
	}
	chk := &Check{}
	if note, ok := n.lookup("note"); ok {
		if note.kind != kString {
			return nil, fmt.Errorf(`"note" is not a string`)
		}
		chk.Note = note.str
	}
	chk.display, _ = n.lookup("call")
	call, err := resolveCall(chk.display, synthetic, 0)
	if err != nil {
		return nil, fmt.Errorf("call: %v", err)
	}
	chk.call = call
	chk.callJSON = call.appendJSON(nil)
	chk.displayJSON = chk.display.String()
	expect, _ := n.lookup("expect")
	if expect.kind != kObject || len(expect.keys) != 1 {
		return nil, fmt.Errorf(`"expect" is not {"result": VALUE} or {"error": CODE}`)
	}
	switch expect.keys[0] {
	case "error":
		if expect.vals[0].kind != kString {
			return nil, fmt.Errorf(`expected "error" is not a string`)
		}
		chk.expect = expect
	case "result":
		op, _ := call.lookup("op")
		res := expect.vals[0]
		if op.str == "mutate_and_repeat" {
			if res, err = resolveMutateResult(res, synthetic); err != nil {
				return nil, fmt.Errorf("expect: %v", err)
			}
		}
		chk.expect = newObject()
		chk.expect.set("result", res)
	default:
		return nil, fmt.Errorf(`"expect" is not {"result": VALUE} or {"error": CODE}`)
	}
	return chk, nil
}

// A caseForm is how a case file of one level begins: a JSON object (what)
// of exactly the keys required, and optional; its id, title and spec, each
// a non-empty string; an id that matches id (idForm says what that is);
// and under list, one of the keys, a non-empty array.
type caseForm struct {
	what               string
	required, optional []string
	list               string
	id                 *regexp.Regexp
	idForm             string
}

// The case files' forms, one a level.
var (
	contractForm = caseForm{what: "case", required: []string{"id", "title", "spec", "checks"}, list: "checks",
		id: idPattern, idForm: "dotted lowercase words"}
	textForm = caseForm{what: "text case", required: []string{"id", "title", "spec", "line", "expect"}, list: "line",
		id: textIDPattern, idForm: "text. followed by dotted lowercase words"}
	protocolForm = caseForm{what: "protocol case", required: []string{"id", "title", "spec", "session", "lines"}, optional: []string{"pipelined"}, list: "lines",
		id: protocolIDPattern, idForm: "protocol. followed by dotted lowercase words"}
)

// read checks that data begins as the form says, reads its id, title and
// spec into the three, and returns the object and the items of its list.
func (f caseForm) read(data []byte, id, title, spec *string) (*node, []*node, error) {
	n, err := parseJSON(data)
	if err != nil {
		return nil, nil, err
	}
	if err := onlyKeys(n, f.what, f.required, f.optional); err != nil {
		return nil, nil, err
	}
	for _, h := range []struct {
		key string
		dst *string
	}{{"id", id}, {"title", title}, {"spec", spec}} {
		v, _ := n.lookup(h.key)
		if v.kind != kString || v.str == "" {
			return nil, nil, fmt.Errorf("%q is not a non-empty string", h.key)
		}
		*h.dst = v.str
	}
	if !f.id.MatchString(*id) {
		return nil, nil, fmt.Errorf("id %q is not %s", *id, f.idForm)
	}
	items, _ := n.lookup(f.list)
	if items.kind != kArray || len(items.items) == 0 {
		return nil, nil, fmt.Errorf("%q is not a non-empty array", f.list)
	}
	return n, items.items, nil
}

// resolveCall checks a CALL object and returns a copy with its catalog
// reference (and the inner call's) replaced by the catalog itself.
func resolveCall(call, synthetic *node, depth int) (*node, error) {
	if call == nil || call.kind != kObject {
		return nil, fmt.Errorf("not an object")
	}
	op, _ := call.lookup("op")
	if op == nil || op.kind != kString {
		return nil, fmt.Errorf(`"op" is not a string`)
	}
	var err error
	switch op.str {
	case "discover":
		err = onlyKeys(call, "discover call", []string{"op", "catalog", "family"}, []string{"name"})
	case "validate_arguments":
		err = onlyKeys(call, "validate_arguments call", []string{"op", "catalog", "arguments"}, []string{"name"})
	case "mutate_and_repeat":
		if depth > 0 {
			return nil, fmt.Errorf("mutate_and_repeat inside mutate_and_repeat")
		}
		if err := onlyKeys(call, "mutate_and_repeat call", []string{"op", "call"}, nil); err != nil {
			return nil, err
		}
		inner, _ := call.lookup("call")
		resolved, err := resolveCall(inner, synthetic, depth+1)
		if err != nil {
			return nil, fmt.Errorf("inner call: %v", err)
		}
		out := call.clone()
		out.set("call", resolved)
		return out, nil
	default:
		return nil, fmt.Errorf("unknown op %q", op.str)
	}
	if err != nil {
		return nil, err
	}
	out := call.clone()
	cat, _ := call.lookup("catalog")
	resolved, err := resolveCatalog(cat, synthetic)
	if err != nil {
		return nil, fmt.Errorf("catalog: %v", err)
	}
	out.set("catalog", resolved)
	return out, nil
}

// resolveMutateResult resolves the catalog reference in an expected
// mutate_and_repeat result.
func resolveMutateResult(res, synthetic *node) (*node, error) {
	if err := onlyKeys(res, "mutate_and_repeat result", []string{"first", "second", "catalog", "arguments"}, nil); err != nil {
		return nil, err
	}
	cat, _ := res.lookup("catalog")
	resolved, err := resolveCatalog(cat, synthetic)
	if err != nil {
		return nil, fmt.Errorf("catalog: %v", err)
	}
	out := res.clone()
	out.set("catalog", resolved)
	return out, nil
}

// isRef reports whether n is a catalog reference: an object with a "$ref"
// member.
func isRef(n *node) bool {
	_, ok := n.lookup("$ref")
	return ok
}

// resolveCatalog returns a catalog value: n itself if it is inline, or the
// synthetic catalog with the reference's patch applied.
func resolveCatalog(n, synthetic *node) (*node, error) {
	if !isRef(n) {
		return n.clone(), nil
	}
	if err := onlyKeys(n, "catalog reference", []string{"$ref"}, []string{"patch"}); err != nil {
		return nil, err
	}
	ref, _ := n.lookup("$ref")
	if ref.kind != kString || ref.str != CatalogFile {
		return nil, fmt.Errorf("$ref is not %q", CatalogFile)
	}
	cat := synthetic.clone()
	patch, ok := n.lookup("patch")
	if !ok {
		return cat, nil
	}
	if patch.kind != kArray {
		return nil, fmt.Errorf("patch is not an array")
	}
	for i, op := range patch.items {
		var err error
		if cat, err = applyPatch(cat, op); err != nil {
			return nil, fmt.Errorf("patch[%d]: %v", i, err)
		}
	}
	return cat, nil
}

// applyPatch applies one operation of the RFC 6902 subset the cases use:
// add, replace and remove, with JSON Pointer (RFC 6901) paths. add on an
// object appends a new member at the end (or, as RFC 6902 says, replaces an
// existing member's value, in place); add on an array inserts before the
// index, or appends for "-". replace keeps the member's position.
func applyPatch(doc, op *node) (*node, error) {
	opName, _ := op.lookup("op")
	if opName == nil || opName.kind != kString {
		return nil, fmt.Errorf(`"op" is not a string`)
	}
	keys := []string{"op", "path"}
	if opName.str != "remove" {
		keys = append(keys, "value")
	}
	if err := onlyKeys(op, "patch operation", keys, nil); err != nil {
		return nil, err
	}
	p, _ := op.lookup("path")
	if p.kind != kString || !strings.HasPrefix(p.str, "/") {
		return nil, fmt.Errorf("path %q is not a JSON Pointer below the root", p.str)
	}
	tokens := strings.Split(p.str[1:], "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	parent := doc
	for _, t := range tokens[:len(tokens)-1] {
		next, err := child(parent, t)
		if err != nil {
			return nil, fmt.Errorf("path %q: %v", p.str, err)
		}
		parent = next
	}
	last := tokens[len(tokens)-1]
	value, _ := op.lookup("value")
	switch parent.kind {
	case kObject:
		_, exists := parent.lookup(last)
		switch {
		case opName.str == "add" || opName.str == "replace" && exists:
			parent.set(last, value.clone())
		case opName.str == "remove" && exists:
			i := slices.Index(parent.keys, last)
			parent.keys = slices.Delete(parent.keys, i, i+1)
			parent.vals = slices.Delete(parent.vals, i, i+1)
		case opName.str == "replace" || opName.str == "remove":
			return nil, fmt.Errorf("path %q: no member %q", p.str, last)
		default:
			return nil, fmt.Errorf("unknown op %q", opName.str)
		}
	case kArray:
		i, err := arrayIndex(parent, last, opName.str == "add")
		if err != nil {
			return nil, fmt.Errorf("path %q: %v", p.str, err)
		}
		switch opName.str {
		case "add":
			parent.items = slices.Insert(parent.items, i, value.clone())
		case "replace":
			parent.items[i] = value.clone()
		case "remove":
			parent.items = slices.Delete(parent.items, i, i+1)
		default:
			return nil, fmt.Errorf("unknown op %q", opName.str)
		}
	default:
		return nil, fmt.Errorf("path %q: parent is a JSON %s", p.str, kindNames[parent.kind])
	}
	return doc, nil
}

func child(n *node, token string) (*node, error) {
	switch n.kind {
	case kObject:
		if v, ok := n.lookup(token); ok {
			return v, nil
		}
		return nil, fmt.Errorf("no member %q", token)
	case kArray:
		i, err := arrayIndex(n, token, false)
		if err != nil {
			return nil, err
		}
		return n.items[i], nil
	}
	return nil, fmt.Errorf("cannot index a JSON %s", kindNames[n.kind])
}

func arrayIndex(n *node, token string, adding bool) (int, error) {
	if adding && token == "-" {
		return len(n.items), nil
	}
	i, err := strconv.Atoi(token)
	limit := len(n.items)
	if adding {
		limit++
	}
	if err != nil || i < 0 || i >= limit || token != strconv.Itoa(i) {
		return 0, fmt.Errorf("index %q out of range", token)
	}
	return i, nil
}

// onlyKeys checks that n is an object with every required key and no key
// outside required and optional.
func onlyKeys(n *node, what string, required, optional []string) error {
	if n == nil || n.kind != kObject {
		return fmt.Errorf("%s is not an object", what)
	}
	return checkKeys(what, n.keys, required, optional)
}

// checkKeys checks an object's keys: every required key, and no key that is
// neither required nor optional.
func checkKeys(what string, keys, required, optional []string) error {
	for _, k := range required {
		if !slices.Contains(keys, k) {
			return fmt.Errorf("%s lacks %q", what, k)
		}
	}
	for _, k := range keys {
		if !slices.Contains(required, k) && !slices.Contains(optional, k) {
			return fmt.Errorf("%s has an unknown key %q", what, k)
		}
	}
	return nil
}

// A TextCase is one case of the text level: a request line given byte by
// byte, and the outcome it must get. The text level checks the JSON text
// layer over the protocol (duplicate keys, lone surrogates, invalid UTF-8, a
// byte order mark, trailing data, nesting depth, huge numbers), which a
// CALL object, being a JSON value, cannot carry. A text case file is
// text/<id>.json; its id starts with "text.".
type TextCase struct {
	ID    string
	Title string
	Spec  string
	// pieces make the line: literal bytes, and one place for the seq.
	pieces []linePiece
	// expect is {"result": VALUE} or {"error": CODE}; {"error":
	// "INVALID_JSON"} means the line must be refused.
	expect *node
}

// A linePiece is literal bytes repeated times times (once for a string or
// hex piece), or (seq true) the call's seq in decimal. A repeat stays a
// repeat until the line is sent, so that the cases of 32 MiB lines hold
// kilobytes while they wait their turn.
type linePiece struct {
	bytes []byte
	times int
	seq   bool
}

// size is the length of the piece's bytes, a seq counting none.
func (p linePiece) size() int { return len(p.bytes) * p.times }

// appendLine appends the line pieces make for seq.
func appendLine(b []byte, pieces []linePiece, seq int64) []byte {
	size := 0
	for _, p := range pieces {
		size += p.size()
	}
	b = slices.Grow(b, size+20)
	for _, p := range pieces {
		if p.seq {
			b = strconv.AppendInt(b, seq, 10)
			continue
		}
		for range p.times {
			b = append(b, p.bytes...)
		}
	}
	return b
}

// Line returns the case's request line for the given seq, without the final
// newline.
func (c *TextCase) Line(seq int64) []byte { return appendLine(nil, c.pieces, seq) }

// Size returns the length of the case's line, its seq left out: what a
// caller looks at before it builds a line of 32 MiB.
func (c *TextCase) Size() int { return piecesSize(c.pieces) }

func piecesSize(pieces []linePiece) int {
	n := 0
	for _, p := range pieces {
		n += p.size()
	}
	return n
}

// Refused reports whether the line must be refused by the JSON text layer:
// the case expects {"error": "INVALID_JSON"}.
func (c *TextCase) Refused() bool {
	e, ok := c.expect.lookup("error")
	return ok && e.str == codeInvalidJSON
}

// Expect returns the JSON text of the expected outcome.
func (c *TextCase) Expect() []byte { return c.expect.appendJSON(nil) }

// Cite returns the spec field of a case that checks section of SPEC.md (this
// folder's specification): Cite("8.4") is "SPEC.md §8.4". It is for code
// outside this folder that writes cases, such as the fuzzer's
// counterexamples, where a citation is relative to the case file's place in
// a suite, not to the code.
func Cite(section string) string { return "SPEC.md §" + section }

// codeInvalidJSON is the JSON text layer's error code.
const codeInvalidJSON = "INVALID_JSON"

var textIDPattern = regexp.MustCompile(`^text(\.[a-z][a-z0-9-]*)+$`)

// LoadText reads every text case in fsys (text/*.json) and returns them
// sorted by id. It checks what the runner relies on; the JSON Schema
// text.schema.json describes the format in full.
func LoadText(fsys fs.FS) ([]*TextCase, error) {
	return loadFiles(fsys, "text", "text case", parseTextCase)
}

// TextCases returns the embedded text level, loaded with [LoadText].
func TextCases() ([]*TextCase, error) { return LoadText(Files) }

// maxRepeat bounds a line piece's "times", so that a case file cannot ask
// for a line of gigabytes.
const maxRepeat = 1 << 20

func parseTextCase(data []byte) (*TextCase, error) {
	c := &TextCase{}
	n, line, err := textForm.read(data, &c.ID, &c.Title, &c.Spec)
	if err != nil {
		return nil, err
	}
	seqs, size := 0, 0
	for i, p := range line {
		piece, err := parsePiece(p)
		if err != nil {
			return nil, fmt.Errorf("line[%d]: %v", i, err)
		}
		if piece.seq {
			seqs++
		}
		if bytes.IndexByte(piece.bytes, '\n') >= 0 {
			return nil, fmt.Errorf("line[%d]: a line cannot hold a newline byte", i)
		}
		if size += piece.size(); size > MaxLine {
			return nil, fmt.Errorf("line[%d]: the line is longer than %d bytes", i, MaxLine)
		}
		c.pieces = append(c.pieces, piece)
	}
	if seqs != 1 {
		return nil, fmt.Errorf(`"line" has %d {"seq": true} pieces, want exactly 1`, seqs)
	}
	expect, _ := n.lookup("expect")
	if expect.kind != kObject || len(expect.keys) != 1 ||
		expect.keys[0] != "result" && (expect.keys[0] != "error" || expect.vals[0].kind != kString) {
		return nil, fmt.Errorf(`"expect" is not {"result": VALUE} or {"error": CODE}`)
	}
	c.expect = expect
	return c, nil
}

// parsePiece reads one piece of a line: a string (its UTF-8 bytes),
// {"hex": "ef bb bf"} (raw bytes), {"repeat": STRING, "times": N} (the
// string N times) or {"seq": true} (the seq).
func parsePiece(p *node) (linePiece, error) {
	if p.kind == kString {
		return linePiece{bytes: []byte(p.str), times: 1}, nil
	}
	if p.kind != kObject || len(p.keys) == 0 {
		return linePiece{}, fmt.Errorf(`not a string, {"hex": ...}, {"repeat": ..., "times": ...} or {"seq": true}`)
	}
	switch p.keys[0] {
	case "hex":
		if err := onlyKeys(p, "hex piece", []string{"hex"}, nil); err != nil {
			return linePiece{}, err
		}
		h, _ := p.lookup("hex")
		b, err := hex.DecodeString(strings.ReplaceAll(h.str, " ", ""))
		if h.kind != kString || err != nil || len(b) == 0 {
			return linePiece{}, fmt.Errorf("hex %s is not pairs of hexadecimal digits", h)
		}
		return linePiece{bytes: b, times: 1}, nil
	case "repeat", "times":
		if err := onlyKeys(p, "repeat piece", []string{"repeat", "times"}, nil); err != nil {
			return linePiece{}, err
		}
		s, _ := p.lookup("repeat")
		t, _ := p.lookup("times")
		n, err := strconv.Atoi(t.lit)
		if s.kind != kString || s.str == "" || t.kind != kNumber || err != nil || n < 1 || n > maxRepeat {
			return linePiece{}, fmt.Errorf(`repeat is not a non-empty string repeated 1 to %d times`, maxRepeat)
		}
		return linePiece{bytes: []byte(s.str), times: n}, nil
	case "seq":
		if err := onlyKeys(p, "seq piece", []string{"seq"}, nil); err != nil {
			return linePiece{}, err
		}
		if v, _ := p.lookup("seq"); v.kind != kBool || v.lit != "true" {
			return linePiece{}, fmt.Errorf(`a seq piece is {"seq": true}`)
		}
		return linePiece{seq: true}, nil
	}
	return linePiece{}, fmt.Errorf("unknown piece key %q", p.keys[0])
}
