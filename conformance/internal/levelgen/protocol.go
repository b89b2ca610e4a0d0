package levelgen

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
)

// discoverAll is a call every implementation answers with an empty list.
const discoverAll = `{"op":"discover","catalog":[],"family":"all"}`

// A genLine is one line of a generated protocol case.
type genLine struct {
	line   []seg
	end    string // "\n" when "", no ending at all when "none"
	expect string // JSON text
}

// A genProtocol is one row of the protocol level's table.
type genProtocol struct {
	id, title, spec  string
	fresh, pipelined bool
	lines            []genLine
}

// Citations of PROTOCOL.md's headings.
const (
	citeTransport = `PROTOCOL.md "Transport"`
	citeHandshake = `PROTOCOL.md "Handshake"`
	citeCalls     = `PROTOCOL.md "Calls"`
	citeEvery     = `PROTOCOL.md "Every line gets one reply"`
	citeMutate    = `PROTOCOL.md "CALL objects"`
	citeNoState   = `PROTOCOL.md "Timeouts and failures"` // "A port holds no state between calls"
)

const helloLine = `{"type":"hello","protocol":"catalogkit-conformance/1"}`

// callWith is a call line with the seq literal seq and the call object.
func callWith(seq, call string) string {
	return `{"type":"call","seq":` + seq + `,"call":` + call + `}`
}

func replyOf(seq, outcome string) string { return `{"reply": ` + outcome + `, "seq": ` + seq + `}` }
func errorOf(seq string) string          { return `{"error": {"seq": ` + seq + `}}` }

const (
	emptyResult       = `{"result": []}`
	anyNotImplemented = `{"not_implemented": true}`
	helloReply        = `{"hello": true}`
)

// goOn is the line that shows the session goes on after a bad one: a call
// that is answered.
func goOn(seq string) genLine {
	return genLine{line: []seg{tx(callWith(seq, discoverAll))}, expect: replyOf(seq, emptyResult)}
}

func oneLine(s string) []seg { return []seg{tx(s)} }

// protocolTable returns the protocol level: every rule of PROTOCOL.md a
// port can get wrong, as lines the runner sends and the replies they get.
func protocolTable() []genProtocol {
	var cs []genProtocol
	add := func(id, title, spec string, fresh bool, lines ...genLine) {
		cs = append(cs, genProtocol{"protocol." + id, title, spec, fresh, false, lines})
	}
	bad := func(s, expect string) genLine { return genLine{line: oneLine(s), expect: expect} }

	// Rule 1: empty lines and lines of white space.
	for _, b := range []struct{ name, line, end, what string }{
		{"empty", "", "\n", "An empty line"},
		{"space", " ", "\n", "A line of one space"},
		{"tab", "\t", "\n", "A line of one tab"},
		{"cr", "", "\r\n", "A line of only a CR before its LF"},
		{"mixed", " \t \t", "\r\n", "A line of spaces, tabs and a CR"},
	} {
		add("blank."+b.name, b.what+" gets an error line with seq null, and the session goes on", citeEvery, false,
			genLine{line: []seg{tx(b.line)}, end: b.end, expect: errorOf("null")}, goOn("1"))
	}

	// Seq: echoed exactly when it is a positive integer literal.
	for _, s := range []struct{ name, seq, what string }{
		{"one", "1", "1"},
		{"max-safe-plus-one", "9007199254740993", "2^53 + 1, which a float64 turns into 2^53"},
		{"forty-digits", "1234567890123456789012345678901234567890", "a 40-digit seq"},
		{"int64-plus-one", "9223372036854775808", "2^63, one over the largest int64 (never clamped)"},
		{"uint64-plus-one", "18446744073709551616", "2^64, one over the largest uint64 (never wrapped)"},
		{"not-increasing", "3", "a seq lower than the one before (the runner's seq is not reset, but a port must not expect it to grow)"},
	} {
		add("seq."+s.name, fmt.Sprintf("A call with seq %s gets a reply echoing it exactly", s.what), citeCalls, false,
			goOn(s.seq))
	}
	for _, s := range []struct{ name, seq, what string }{
		{"zero", "0", "0"}, {"negative", "-1", "-1"}, {"negative-zero", "-0", "-0"},
		{"fraction", "1.5", "1.5"}, {"integral-fraction", "12.0", "12.0"}, {"exponent", "1e2", "1e2"},
		{"string", `"12"`, `the string "12"`}, {"null", "null", "null"}, {"true", "true", "true"},
		{"array", "[12]", "[12]"},
	} {
		add("seq.not-positive-integer."+s.name, fmt.Sprintf("A call whose seq is %s gets an error line with seq null", s.what), citeEvery, false,
			bad(callWith(s.seq, discoverAll), errorOf("null")), goOn("2"))
	}
	add("seq.missing", "A call without a seq gets an error line with seq null", citeEvery, false,
		bad(`{"type":"call","call":`+discoverAll+`}`, errorOf("null")), goOn("2"))
	add("seq.after-call", `A call whose seq comes after its "call" member is read like any object: the reply echoes the seq`, citeEvery, false,
		bad(`{"call":`+discoverAll+`,"seq":7,"type":"call"}`, replyOf("7", emptyResult)))
	add("other-members", "Other members of a message are ignored", citeEvery, false,
		bad(`{"type":"call","seq":8,"call":`+discoverAll+`,"trace":{"id":"x"}}`, replyOf("8", emptyResult)))

	// Handshake.
	add("hello.first", "The hello is answered with the hello reply, a call after it with its reply, and at the end of input the port exits with status 0", citeHandshake+"; "+citeTransport, true,
		bad(helloLine, helloReply), goOn("1"))
	add("hello.call-before", "A call before the hello gets an error line with its seq; the hello after it is answered, and so is the next call", citeEvery, true,
		bad(callWith("5", discoverAll), errorOf("5")), bad(helloLine, helloReply), goOn("6"))
	add("hello.second", "A second hello gets an error line (seq null: a hello has no seq), and the session goes on", citeEvery, false,
		bad(helloLine, errorOf("null")), goOn("3"))
	add("hello.second-with-seq", "A second hello carrying a seq gets an error line with that seq", citeEvery, false,
		bad(`{"type":"hello","protocol":"catalogkit-conformance/1","seq":4}`, errorOf("4")), goOn("5"))

	// Messages that are not calls.
	for _, m := range []struct{ name, msg, what string }{
		{"array", `[1,2]`, "an array"}, {"string", `"call"`, "a string"}, {"number", `7`, "a number"},
		{"null", `null`, "null"}, {"true", `true`, "true"},
	} {
		add("message.not-object."+m.name, fmt.Sprintf("A message that is %s gets an error line with seq null", m.what), citeEvery, false,
			bad(m.msg, errorOf("null")), goOn("2"))
	}
	for _, m := range []struct{ name, msg, what string }{
		{"unknown", `{"type":"bye","seq":13}`, `an unknown type "bye"`},
		{"reply", `{"type":"reply","seq":13,"outcome":{"result":[]}}`, `the type "reply", which only a port sends`},
		{"not-string", `{"type":7,"seq":13}`, "a type that is not a string"},
		{"missing", `{"seq":13}`, "no type"},
		{"unknown.escapes", `{"type":"by\te\u0001\"\\'","seq":13}`, `an unknown type holding a TAB, U+0001, a quote, a backslash and an apostrophe (an error message that quotes it must still be JSON)`},
	} {
		add("type."+m.name, fmt.Sprintf("A message with %s gets an error line with its readable seq", m.what), citeEvery, false,
			bad(m.msg, errorOf("13")), goOn("14"))
	}
	for _, m := range []struct{ name, seq, want, what string }{
		{"zero", "0", "null", "0, not a positive integer: seq null"},
		{"negative", "-3", "null", "-3, not a positive integer: seq null"},
		{"fraction", "13.0", "null", "13.0, not an integer literal: seq null"},
		{"max-safe-plus-one", "9007199254740993", "9007199254740993", "2^53 + 1: echoed exactly, never through a float"},
		{"forty-digits", "1234567890123456789012345678901234567890", "1234567890123456789012345678901234567890", "40 digits: echoed exactly"},
	} {
		add("type.unknown.seq-"+m.name, fmt.Sprintf("An unknown type with seq %s", m.what), citeEvery, false,
			bad(`{"type":"bye","seq":`+m.seq+`}`, errorOf(m.want)), goOn("15"))
	}

	// Calls that are not calls.
	for _, c := range []struct{ name, call, what string }{
		{"array", `[]`, "an array"}, {"string", `"discover"`, "a string"}, {"null", `null`, "null"},
		{"no-op", `{"catalog":[],"family":"all"}`, "an object with no op"},
		{"op-number", `{"op":7}`, "an object whose op is a number"},
		{"op-null", `{"op":null}`, "an object whose op is null"},
	} {
		add("call.not-a-call."+c.name, fmt.Sprintf("A call whose call is %s gets an error line with its seq", c.what), citeEvery, false,
			bad(callWith("21", c.call), errorOf("21")), goOn("22"))
	}
	add("call.missing", `A call message with no "call" member gets an error line with its seq`, citeEvery, false,
		bad(`{"type":"call","seq":21}`, errorOf("21")), goOn("22"))
	add("call.unknown-op", "An op the port does not know is not implemented (a SKIP), so that a newer runner can add operations", citeEvery, false,
		bad(callWith("23", `{"op":"frobnicate","catalog":[]}`), replyOf("23", anyNotImplemented)), goOn("24"))

	// Absent parameters: a value that is not of the right kind, refused by
	// the step that reads it, never an error line.
	for _, c := range []struct{ name, call, code, what string }{
		{"discover.no-catalog", `{"op":"discover","family":"all"}`, "INVALID_CATALOG", "a discover with no catalog is refused at C1"},
		{"discover.no-family", `{"op":"discover","catalog":[]}`, "INVALID_LABEL", "a discover with no family is refused at D2"},
		{"validate.no-catalog", `{"op":"validate_arguments","name":"page.read","arguments":{"tab_id":1}}`, "INVALID_CATALOG", "a validate_arguments with no catalog is refused at C1"},
		{"validate.no-arguments", `{"op":"validate_arguments","catalog":` + catalogWith(`"required":true`, `"required":false`) + `,"name":"page.read"}`, "INVALID_ARGUMENT_KEYS", "a validate_arguments with no arguments, for a tool with no required field (so {} would be shape-valid), is refused at V4"},
	} {
		add("absent."+c.name, fmt.Sprintf("An absent parameter is a value of the wrong kind: %s (%s), not an error line", c.what, c.code), citeMutate+"; "+citeEvery, false,
			bad(callWith("25", c.call), replyOf("25", code(c.code))), goOn("26"))
	}

	// mutate_and_repeat.
	add("mutate-and-repeat.nested", "A mutate_and_repeat inside a mutate_and_repeat gets an error line", citeEvery, false,
		bad(callWith("31", `{"op":"mutate_and_repeat","call":{"op":"mutate_and_repeat","call":`+discoverAll+`}}`), errorOf("31")), goOn("32"))
	add("mutate-and-repeat.inner-not-object", "A mutate_and_repeat whose inner call is not an object gets an error line", citeEvery, false,
		bad(callWith("31", `{"op":"mutate_and_repeat","call":"discover"}`), errorOf("31")), goOn("32"))
	add("mutate-and-repeat.inner-missing", "A mutate_and_repeat with no inner call gets an error line", citeEvery, false,
		bad(callWith("31", `{"op":"mutate_and_repeat"}`), errorOf("31")), goOn("32"))
	for _, c := range []struct{ name, op, what string }{
		{"no-op", "null", "null"}, {"op-number", "7", "a number"}, {"op-true", "true", "true"},
	} {
		add("mutate-and-repeat.inner-"+c.name, fmt.Sprintf("A mutate_and_repeat whose inner op is %s (not a string) gets an error line, not not_implemented", c.what), citeEvery, false,
			bad(callWith("31", `{"op":"mutate_and_repeat","call":{"op":`+c.op+`}}`), errorOf("31")), goOn("32"))
	}
	add("mutate-and-repeat.inner-unknown-op", "A mutate_and_repeat of an op the port does not know is not implemented", citeEvery, false,
		bad(callWith("31", `{"op":"mutate_and_repeat","call":{"op":"frobnicate"}}`), replyOf("31", anyNotImplemented)), goOn("32"))
	add("mutate-and-repeat.discover-with-arguments", `A mutate_and_repeat of a discover that carries an "arguments" member echoes "arguments": null: discover has no arguments`, citeMutate, false,
		bad(callWith("33", `{"op":"mutate_and_repeat","call":{"op":"discover","catalog":[],"family":"all","arguments":{"tab_id":1}}}`),
			replyOf("33", `{"result": {"first": [], "second": [], "catalog": [], "arguments": null}}`)))

	add("mutate-and-repeat.inner-error", "A mutate_and_repeat whose inner call fails is answered with that call's error outcome, not a result around it", citeMutate, false,
		bad(callWith("34", `{"op":"mutate_and_repeat","call":{"op":"discover","catalog":[],"family":"reading"}}`), replyOf("34", code("UNKNOWN_FAMILY"))))
	add("hello.other-version", "A hello asking for another protocol version is answered with the port's own version, catalogkit-conformance/1, for the runner to decide", citeHandshake, true,
		bad(`{"type":"hello","protocol":"catalogkit-conformance/2"}`, helloReply))

	// Line endings and the last line.
	add("crlf", `A call line ended by "\r\n" is answered: the CR is white space`, citeTransport, false,
		genLine{line: oneLine(callWith("41", discoverAll)), end: "\r\n", expect: replyOf("41", emptyResult)})
	add("last-line.no-newline", "A last line with no newline is a line: it is answered, then the port exits with status 0", citeTransport, true,
		bad(helloLine, helloReply), genLine{line: oneLine(callWith("2", discoverAll)), end: "none", expect: replyOf("2", emptyResult)})
	add("last-line.no-newline-refused", "A last line with no newline that the text layer refuses gets its refusal, then the port exits with status 0", citeTransport+"; "+citeEvery, true,
		bad(helloLine, helloReply), genLine{line: oneLine(`{"type":"call","seq":2,"call":` + discoverAll), end: "none", expect: replyOf("2", `{"error": "INVALID_JSON"}`)})
	add("last-line.blank-no-newline", "A last line of white space with no newline is a line: an error line with seq null, then the port exits with status 0", citeTransport+"; "+citeEvery, true,
		bad(helloLine, helloReply), genLine{line: oneLine(" "), end: "none", expect: errorOf("null")})
	add("last-line.error-line", "A session whose last reply is an error line still ends with exit status 0", citeTransport, true,
		bad(helloLine, helloReply), bad(`{"type":"bye"}`, errorOf("null")))

	// Rule 2: refused lines, whose seq is read only from the runner's
	// prefix.
	add("refused.seq-readable", `A refused line that starts {"type":"call","seq":N, gets a reply with INVALID_JSON and seq N`, citeEvery, false,
		bad(callWith("51", discoverAll)+" x", replyOf("51", `{"error": "INVALID_JSON"}`)), goOn("52"))
	add("refused.seq-readable-big", "A refused line's seq is read and echoed exactly, whatever its size", citeEvery, false,
		bad(callWith("90071992547409931", `{"op":"discover","catalog":[],"family":"all","family":"x"}`), replyOf("90071992547409931", `{"error": "INVALID_JSON"}`)))
	add("refused.seq-readable-huge", "A refused line's seq of 30 digits, beyond every fixed-size integer, is read and echoed exactly", citeEvery, false,
		bad(callWith("123456789012345678901234567890", `{"op":"discover","catalog":[],"family":"all","family":"x"}`), replyOf("123456789012345678901234567890", `{"error": "INVALID_JSON"}`)))
	for _, r := range []struct{ name, line, what string }{
		{"other-order", `{"seq":53,"type":"call","call":{},"call":{}}`, "whose members come in another order"},
		{"leading-space", ` {"type":"call","seq":53,"call":{},"call":{}}`, "that starts with a space"},
		{"seq-zero", `{"type":"call","seq":0,"call":{},"call":{}}`, "whose seq is 0"},
		{"seq-leading-zero", `{"type":"call","seq":053,"call":{}}`, "whose seq has a leading zero"},
		{"spaced", `{"type": "call", "seq": 53, "call": {}, "call": {}}`, "written with spaces"},
		{"bom", "\ufeff" + `{"type":"call","seq":53,"call":{}}`, "after a byte order mark"},
		{"seq-fraction", `{"type":"call","seq":53.5,"call":{},"call":{}}`, "whose seq 53.5 is not followed by a comma"},
		{"seq-exponent", `{"type":"call","seq":1e2,"call":{},"call":{}}`, "whose seq 1e2 is not an integer followed by a comma"},
	} {
		add("refused.seq-unreadable."+r.name, fmt.Sprintf("A refused line %s does not start with the runner's prefix: an error line with seq null", r.what), citeEvery, false,
			bad(r.line, errorOf("null")), goOn("54"))
	}
	// Nesting far past the limit: a reader that recurses without a bound
	// overflows its stack, which is no reason to lose the readable seq.
	deep := func(seq, head, tail string) genLine {
		return genLine{line: []seg{tx(`{"type":"call","seq":` + seq + `,"call":` + head), rep("[", 100000), rep("]", 100000), tx(tail)},
			expect: replyOf(seq, `{"error": "INVALID_JSON"}`)}
	}
	add("refused.depth-far-over.arguments", "A line with arrays nested 100,000 deep in its arguments is refused like any other: INVALID_JSON with its readable seq", citeEvery, false,
		deep("55", `{"op":"validate_arguments","catalog":[],"name":"t","arguments":{"a":`, `}}}`), goOn("56"))
	add("refused.depth-far-over.catalog", "A line with arrays nested 100,000 deep in its catalog is refused like any other: INVALID_JSON with its readable seq", citeEvery, false,
		deep("57", `{"op":"discover","catalog":`, `,"family":"all"}}`), goOn("58"))
	add("refused.before-hello", "A refused line before the hello is refused as any line (the text layer decides first), and the hello still works", citeEvery, true,
		bad(`{"type":"call","seq":5,"call":{},"call":{}}`, replyOf("5", `{"error": "INVALID_JSON"}`)), bad(helloLine, helloReply), goOn("6"))

	// No state between calls: the same catalog or arguments again, in
	// another form, get their own answer.
	toolWith := func(effect, fields string) string {
		return `[{"name":"t","family":"x","effect":"` + effect + `","enabled":true,"fields":{` + fields + `}}]`
	}
	discoverX := func(cat string) string { return `{"op":"discover","catalog":` + cat + `,"family":"x"}` }
	described := func(effect, properties, required string) string {
		return `[{"name": "t", "family": "x", "effect": "` + effect + `", "inputSchema": {"type": "object", "properties": {` + properties + `}, "required": [` + required + `], "additionalProperties": false}, "executes": false}]`
	}
	fieldA, fieldB := `"a":{"type":"string","required":true,"max_length":5}`, `"b":{"type":"integer","required":false,"max_length":5}`
	schemaA, schemaB := `"a": {"type": "string", "maxLength": 5}`, `"b": {"type": "integer"}`
	add("state.field-order", "The same tool with its fields in another order is described in that order: nothing is cached by the fields' set", citeNoState+"; "+citeCalls, false,
		bad(callWith("81", discoverX(toolWith("read", fieldA+","+fieldB))), replyOf("81", `{"result": `+described("read", schemaA+", "+schemaB, `"a"`)+`}`)),
		bad(callWith("82", discoverX(toolWith("read", fieldB+","+fieldA))), replyOf("82", `{"result": `+described("read", schemaB+", "+schemaA, `"a"`)+`}`)))
	add("state.effect", "The same tool name with another effect is described with that effect: nothing is cached by name", citeNoState+"; "+citeCalls, false,
		bad(callWith("83", discoverX(toolWith("read", ""))), replyOf("83", `{"result": `+described("read", "", "")+`}`)),
		bad(callWith("84", discoverX(toolWith("change", ""))), replyOf("84", `{"result": `+described("change", "", "")+`}`)))
	fieldN := `"n":{"type":"integer","required":true,"max_length":5}`
	validateN := func(args string) string {
		return `{"op":"validate_arguments","catalog":` + toolWith("read", fieldN) + `,"name":"t","arguments":` + args + `}`
	}
	add("state.true-after-one", `Arguments {"n": true} after {"n": 1} are refused: true is not 1, whatever a cache keyed by value equality says`, citeNoState+"; "+citeCalls, false,
		bad(callWith("85", validateN(`{"n":1}`)), replyOf("85", `{"result": {"name": "t", "arguments": {"n": 1}, "shape_valid": true, "authorized": false, "executed": false}}`)),
		bad(callWith("86", validateN(`{"n":true}`)), replyOf("86", code("INVALID_ARGUMENT_VALUE"))))
	add("state.mutate-empty-required", `A mutate_and_repeat of a tool with no fields changes neither its second result nor a later call's "required": []`, citeNoState+"; "+citeMutate, false,
		bad(callWith("87", `{"op":"mutate_and_repeat","call":`+discoverX(toolWith("read", ""))+`}`),
			replyOf("87", `{"result": {"first": `+described("read", "", "")+`, "second": `+described("read", "", "")+`, "catalog": `+toolWith("read", "")+`, "arguments": null}}`)),
		bad(callWith("88", discoverX(toolWith("read", ""))), replyOf("88", `{"result": `+described("read", "", "")+`}`)))

	fieldS := func(typ string) string { return `"s":{"type":"` + typ + `","required":true,"max_length":3}` }
	validateS := func(typ, args string) string {
		return `{"op":"validate_arguments","catalog":` + toolWith("read", fieldS(typ)) + `,"name":"t","arguments":` + args + `}`
	}
	validS := func(args string) string {
		return `{"result": {"name": "t", "arguments": ` + args + `, "shape_valid": true, "authorized": false, "executed": false}}`
	}
	add("state.field-type", `Arguments {"s": "abc"} fit a string field s, then not an integer field s of a tool of the same name: nothing is cached by the tool's and fields' names`, citeNoState+"; "+citeCalls, false,
		bad(callWith("89", validateS("string", `{"s":"abc"}`)), replyOf("89", validS(`{"s": "abc"}`))),
		bad(callWith("90", validateS("integer", `{"s":"abc"}`)), replyOf("90", code("INVALID_ARGUMENT_VALUE"))))
	add("state.canonical-equivalence", `"e\u0301e\u0301" after "\u00e9\u00e9" is 4 code points, over max_length 3, though canonically equivalent to the 2 before it: nothing is compared after normalization`, citeNoState+"; "+citeCalls, false,
		bad(callWith("91", validateS("string", `{"s":"\u00e9\u00e9"}`)), replyOf("91", validS(`{"s": "\u00e9\u00e9"}`))),
		bad(callWith("92", validateS("string", `{"s":"e\u0301e\u0301"}`)), replyOf("92", code("INVALID_ARGUMENT_VALUE"))))
	named := func(name string) string {
		return `[{"name":"` + name + `","family":"x","effect":"read","enabled":true,"fields":{}}]`
	}
	describedAs := func(name string) string {
		return `{"result": [{"name": "` + name + `", "family": "x", "effect": "read", "inputSchema": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}, "executes": false}]}`
	}
	add("state.hash-collision", `A catalog whose tool "c0" is renamed "an" is described with the new name, though Java's String.hashCode of the two names, and so of the two lines, is the same: nothing is cached by a hash alone`, citeNoState+"; "+citeCalls, false,
		bad(callWith("93", discoverX(named("c0"))), replyOf("93", describedAs("c0"))),
		bad(callWith("93", discoverX(named("an"))), replyOf("93", describedAs("an"))))
	add("seq.repeated", "Two calls in a row with the same seq each get their own answer: a seq is echoed, never taken for a retransmission", citeCalls+"; "+citeNoState, false,
		bad(callWith("94", discoverAll), replyOf("94", emptyResult)),
		bad(callWith("94", `{"op":"discover","catalog":[],"family":"reading"}`), replyOf("94", code("UNKNOWN_FAMILY"))))

	// More of the handshake.
	add("hello.first-with-seq", "A first hello carrying a seq is answered with the hello reply, which has exactly its keys: no seq", citeHandshake, true,
		bad(`{"type":"hello","protocol":"catalogkit-conformance/1","seq":4}`, helloReply), goOn("5"))
	// A hello is a hello whatever its other members: rule 5 looks at the
	// type alone.
	for _, h := range []struct{ name, line, what string }{
		{"no-protocol", `{"type":"hello"}`, "no protocol member"},
		{"protocol-number", `{"type":"hello","protocol":1}`, "a protocol that is a number"},
		{"protocol-null", `{"type":"hello","protocol":null}`, "a protocol that is null"},
	} {
		add("hello.first-"+h.name, fmt.Sprintf("A first hello with %s is the session's hello: the hello reply, then a second hello gets an error line and a call its reply", h.what), citeHandshake+"; "+citeEvery, true,
			bad(h.line, helloReply), bad(helloLine, errorOf("null")), goOn("1"))
	}
	add("hello.other-version-then-hello", "A hello asking for another version is the session's hello: the port goes on reading, a hello after it gets an error line, and a call its reply", citeHandshake+"; "+citeEvery+"; "+citeTransport, true,
		bad(`{"type":"hello","protocol":"catalogkit-conformance/2"}`, helloReply), bad(helloLine, errorOf("null")), goOn("1"))
	add("hello.refused", "A hello line the text layer refuses (a duplicate key) is no hello: an error line with seq null, and a call after it is a call before the hello", citeEvery, true,
		bad(`{"type":"hello","protocol":"catalogkit-conformance/1","protocol":"catalogkit-conformance/1"}`, errorOf("null")),
		bad(callWith("1", discoverAll), errorOf("1")), bad(helloLine, helloReply), goOn("2"))
	add("hello.unknown-op-before", "A call of an op the port does not know, or a mutate_and_repeat of one, before the hello is a call before the hello: an error line with its seq, not not_implemented", citeEvery, true,
		bad(callWith("5", `{"op":"frobnicate"}`), errorOf("5")),
		bad(callWith("6", `{"op":"mutate_and_repeat","call":{"op":"frobnicate"}}`), errorOf("6")), bad(helloLine, helloReply), goOn("7"))

	// The line limit: 32 MiB, counted without the "\n" and with a "\r".
	// The family is filled with fill, a 1-byte or a 2-byte character.
	limitLineOf := func(seq string, size int, fill string) []seg {
		head := `{"type":"call","seq":` + seq + `,"call":{"op":"discover","catalog":[],"family":"`
		tail := `"}}`
		n := size - len(head) - len(tail)
		block := strings.Repeat(fill, 1024/len(fill))
		return []seg{tx(head), rep(block, n/1024), tx(strings.Repeat("a", n%1024) + tail)}
	}
	limitLine := func(seq string, size int) []seg { return limitLineOf(seq, size, "a") }
	max := catalog.MaxInputBytes
	invalidLabel := `{"error": "INVALID_LABEL"}`
	add("line-limit.at", fmt.Sprintf("A line of exactly %d bytes (32 MiB) is read: the call gets its contract answer", max), citeTransport, false,
		genLine{line: limitLine("61", max), expect: replyOf("61", invalidLabel)}, goOn("62"))
	add("line-limit.over", fmt.Sprintf("A line of %d bytes, one over the limit, is refused with its seq, and the session goes on", max+1), citeTransport+"; "+citeEvery, false,
		genLine{line: limitLine("63", max+1), expect: replyOf("63", `{"error": "INVALID_JSON"}`)}, goOn("64"))
	add("line-limit.at-with-cr", fmt.Sprintf(`A line of %d bytes and a "\r" before its "\n" is at the limit (the CR counts, the LF does not): read`, max-1), citeTransport, false,
		genLine{line: limitLine("65", max-1), end: "\r\n", expect: replyOf("65", invalidLabel)}, goOn("66"))
	add("line-limit.over-with-cr", fmt.Sprintf(`A line of %d bytes and a "\r" before its "\n" is one over the limit: refused`, max), citeTransport+"; "+citeEvery, false,
		genLine{line: limitLine("67", max), end: "\r\n", expect: replyOf("67", `{"error": "INVALID_JSON"}`)}, goOn("68"))
	add("line-limit.over-multibyte", fmt.Sprintf(`A line of %d bytes, most of them "\u00e9" (2 bytes each, so fewer characters than the limit), is one over the limit: bytes count, not characters`, max+1), citeTransport+"; "+citeEvery, false,
		genLine{line: limitLineOf("69", max+1, "\u00e9"), expect: replyOf("69", `{"error": "INVALID_JSON"}`)}, goOn("70"))
	add("line-limit.over-by-mib", fmt.Sprintf("A line of %d bytes, 1 MiB over the limit, is one line: refused with its seq, exactly one reply (never a reply for each buffer's worth), and the session goes on", max+1<<20), citeTransport+"; "+citeEvery, false,
		genLine{line: limitLine("71", max+1<<20), expect: replyOf("71", `{"error": "INVALID_JSON"}`)}, goOn("72"))
	add("line-limit.pipelined", fmt.Sprintf("Three lines written before any reply is read, a line of %d bytes (slow to read), a blank line and a call, are answered in their order, whatever each takes", max), citeTransport+"; "+citeEvery, false,
		genLine{line: limitLine("73", max), expect: replyOf("73", invalidLabel)}, genLine{line: oneLine(" "), expect: errorOf("null")}, goOn("74"))
	cs[len(cs)-1].pipelined = true
	return cs
}

// encodeProtocolCase writes a generated protocol case file.
func encodeProtocolCase(c genProtocol) []byte {
	var b bytes.Buffer
	session := "shared"
	if c.fresh {
		session = "fresh"
	}
	fmt.Fprintf(&b, "{\n  \"id\": %s,\n  \"title\": %s,\n  \"spec\": %s,\n  \"session\": %q,\n", jsonString(c.id), jsonString(c.title), jsonString(c.spec), session)
	if c.pipelined {
		b.WriteString("  \"pipelined\": true,\n")
	}
	b.WriteString("  \"lines\": [\n")
	for i, l := range c.lines {
		b.WriteString("    {\n      \"line\": [\n")
		writePieces(&b, l.line, "        ")
		b.WriteString("      ],\n")
		if l.end != "\n" {
			fmt.Fprintf(&b, "      \"end\": %s,\n", jsonString(l.end))
		}
		fmt.Fprintf(&b, "      \"expect\": %s\n    }", l.expect)
		if i < len(c.lines)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes()
}

// TestProtocolCasesUpToDate checks that protocol/*.json are exactly the
// files protocolTable generates, and that each loads.
