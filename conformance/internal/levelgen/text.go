// Package levelgen generates the files of the conformance suite's text
// level (conformance/text/) and protocol level (conformance/protocol/) from
// the tables here: each case is a row, written as a case file in the format
// of text.schema.json or protocol-case.schema.json. go generate
// ./conformance writes them (package write); the conformance package's
// tests fail while the files on disk differ from what the tables generate.
package levelgen

import (
	"fmt"
	"strings"
)

// A seg is one piece of a generated line: text (written to the case file
// as string pieces, with invisible and non-UTF-8 bytes as hex pieces), the
// seq, or a string repeated.
type seg struct {
	text   string
	seq    bool
	repeat string
	times  int
}

func tx(s string) seg { return seg{text: s} }

var seqSeg = seg{seq: true}

func rep(s string, n int) seg { return seg{repeat: s, times: n} }

// A genCase is one row of a generated case table.
type genCase struct {
	id, title, spec string
	line            []seg
	expect          string // JSON text
}

// The catalog of the text level: page.read, with a string field format
// (at most 16 code points) and a required integer field tab_id.
const (
	textCatalog = `[{"name":"page.read","family":"reading","effect":"read","enabled":true,"fields":{"format":{"type":"string","required":false,"max_length":16},"tab_id":{"type":"integer","required":true,"max_length":20}}}]`
	callHead    = `{"type":"call","seq":`
)

// catalogWith returns the text level's catalog with one of its parts
// replaced: `"family":"reading"` by `"family":X`, for example.
func catalogWith(old, new string) string {
	if !strings.Contains(textCatalog, old) {
		panic("no " + old + " in the catalog")
	}
	return strings.Replace(textCatalog, old, new, 1)
}

// validateLine is a validate_arguments call of page.read with the catalog
// and arguments given as segments.
func validateLine(catalog []seg, args []seg) []seg {
	line := []seg{tx(callHead), seqSeg, tx(`,"call":{"op":"validate_arguments","catalog":`)}
	line = append(line, catalog...)
	line = append(line, tx(`,"name":"page.read","arguments":`))
	line = append(line, args...)
	return append(line, tx("}}"))
}

// argsLine sends args with the text level's catalog; catLine sends the
// catalog cat with the arguments {"tab_id":1}.
func argsLine(args ...seg) []seg { return validateLine([]seg{tx(textCatalog)}, args) }
func catLine(cat string) []seg   { return validateLine([]seg{tx(cat)}, []seg{tx(`{"tab_id":1}`)}) }

const refused = `{"error": "INVALID_JSON"}`

func code(c string) string { return fmt.Sprintf(`{"error": %q}`, c) }

// validated is the result of validate_arguments of page.read with args.
func validated(args string) string {
	return `{"result": {"name": "page.read", "arguments": ` + args + `, "shape_valid": true, "authorized": false, "executed": false}}`
}

// Citations of the text level's cases.
const (
	citeUTF8     = "SPEC.md §2 J1 (UTF-8)"
	citeBOM      = "SPEC.md §2 J2 (byte order mark)"
	citeGrammar  = "SPEC.md §2 J3 (grammar)"
	citeNumber   = "SPEC.md §2 J3 (number grammar)"
	citeString   = "SPEC.md §2 J3 (string grammar)"
	citeSpace    = "SPEC.md §2 J3 (white space)"
	citeLiteral  = "SPEC.md §2 J3 (literals)"
	citeEscape   = "SPEC.md §2 J3, J4 (escapes)"
	citeSurr     = "SPEC.md §2 J4 (surrogates)"
	citeDup      = "SPEC.md §2 J5 (duplicate keys)"
	citeDepth    = "SPEC.md §2 J9 (depth)"
	citeArgValue = "; §7 V5 (values)"
	citeArgKeys  = "; §7 V4 (keys)"
	citeCatSpec  = "; §5 C7 (max_length)"
	citeCatLabel = "; §5 C3 (labels)"
	citeCatMeta  = "; §5 C5 (enabled)"
)

// textTable returns the text level: every production of RFC 8259's grammar
// that a port can get wrong, at the two places a port reads JSON text in a
// call (the catalog and the arguments), and the rules J1-J9 of SPEC.md §2.
func textTable() []genCase {
	var cs []genCase
	add := func(id, title, spec string, line []seg, expect string) {
		cs = append(cs, genCase{"text." + id, title, spec, line, expect})
	}

	// Numbers: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
	nearMisses := []struct{ name, lit, why string }{
		{"leading-zero", "01", "a leading zero"},
		{"leading-zeros", "00", "two zeros"},
		{"negative-leading-zero", "-01", "a leading zero after the minus"},
		{"leading-zero-fraction", "01.5", "a leading zero before a fraction"},
		{"plus", "+1", "a leading plus"},
		{"leading-dot", ".5", "no digit before the dot"},
		{"negative-leading-dot", "-.5", "no digit between the minus and the dot"},
		{"trailing-dot", "1.", "no digit after the dot"},
		{"dot-exponent", "1.e1", "no digit between the dot and the exponent"},
		{"lone-dot", ".", "a dot alone"},
		{"exponent-no-digits", "1e", "an exponent without digits"},
		{"exponent-sign-no-digits", "1E+", "an exponent with a sign and no digits"},
		{"exponent-minus-no-digits", "1e-", "an exponent with a minus and no digits"},
		{"exponent-only", "e1", "an exponent without a mantissa"},
		{"exponent-fraction", "1e1.5", "a fraction in the exponent"},
		{"double-exponent", "1e1e1", "two exponents"},
		{"two-dots", "1.5.3", "two dots"},
		{"lone-minus", "-", "a minus alone"},
		{"double-minus", "--1", "two minus signs"},
		{"minus-plus", "-+1", "a minus then a plus"},
		{"minus-space", "- 1", "white space after the minus"},
		{"hex", "0x1F", "hexadecimal"},
		{"infinity", "Infinity", "Infinity"},
		{"negative-infinity", "-Infinity", "-Infinity"},
		{"nan", "NaN", "NaN"},
		{"underscore", "1_000", "a digit separator"},
		{"fullwidth-digit", "\uff11", "a full-width digit"},
	}
	for _, n := range nearMisses {
		add("number."+n.name+".arguments", fmt.Sprintf("An argument written %s (%s) is refused", n.lit, n.why), citeNumber,
			argsLine(tx(`{"tab_id":`+n.lit+`}`)), refused)
		add("number."+n.name+".catalog", fmt.Sprintf("A max_length written %s (%s) is refused", n.lit, n.why), citeNumber,
			catLine(catalogWith(`"max_length":16`, `"max_length":`+n.lit)), refused)
	}
	digits400 := strings.Repeat("1234567890", 40)
	valid := []struct {
		name, lit string
		integer   bool // an integer literal: tab_id echoes it
		inRange   bool // an integer from 1 to 20000: a valid max_length
		what      string
	}{
		{"zero", "0", true, false, "0"},
		{"negative-zero", "-0", true, false, "-0, an integer literal"},
		{"zero-exponent", "0e0", false, false, "0e0, not an integer literal"},
		{"upper-exponent-plus", "1E+2", false, false, "1E+2, not an integer literal"},
		{"exponent", "1e2", false, false, "1e2, not an integer literal"},
		{"negative-exponent", "1e-2", false, false, "1e-2"},
		{"negative-zero-fraction", "-0.0", false, false, "-0.0, not an integer literal"},
		{"fraction", "16.0", false, false, "16.0, an integral value that is not an integer literal"},
		{"fraction-exponent", "123.456e-789", false, false, "123.456e-789"},
		{"exponent-leading-zero", "1e05", false, false, "1e05 (an exponent may have leading zeros), not an integer literal"},
		{"max-safe-plus-one", "9007199254740993", true, false, "2^53 + 1, exactly"},
		{"big-negative", "-" + digits400, true, false, "a 400-digit negative integer"},
		{"huge-exponent-upper", "1E400", false, false, "1E400, beyond every float"},
		{"tiny-exponent", "-1e-400", false, false, "-1e-400, below every float"},
		{"exponent-beyond-int32", "1e9999999999", false, false, "1e9999999999, an exponent beyond 32 and 33 bits"},
		{"negative-exponent-beyond-int32", "-1E-9999999999", false, false, "-1E-9999999999, a negative exponent beyond 32 bits"},
		{"int64-max", "9223372036854775807", true, false, "2^63 - 1, the largest int64, exactly"},
		{"int64-max-plus-one", "9223372036854775808", true, false, "2^63, one over the largest int64, exactly (never clamped)"},
		{"int64-min-minus-one", "-9223372036854775809", true, false, "-2^63 - 1, one under the smallest int64, exactly"},
		{"nineteen-nines", "9999999999999999999", true, false, "19 nines, over int64 with as many digits as its largest, exactly"},
		{"uint64-max-plus-one", "18446744073709551616", true, false, "2^64, one over the largest uint64, exactly (never wrapped)"},
		{"max-length-limit", "20000", true, true, "20000, the largest max_length"},
		{"max-length-over", "20001", true, false, "20001, one over the largest max_length"},
	}
	for _, v := range valid {
		argOut := code("INVALID_ARGUMENT_VALUE")
		if v.integer {
			argOut = validated(`{"tab_id": ` + v.lit + `}`)
		}
		title := fmt.Sprintf("An argument written %s is read", v.what)
		if v.integer {
			title += " and echoed exactly"
		} else {
			title += ": a number that is not an integer, INVALID_ARGUMENT_VALUE"
		}
		add("number."+v.name+".arguments", title, citeNumber+", J7 (number literals)"+citeArgValue,
			argsLine(tx(`{"tab_id":`+v.lit+`}`)), argOut)
		catOut, catTitle := code("INVALID_SPEC"), fmt.Sprintf("A max_length written %s is read, and is not an integer from 1 to 20000: INVALID_SPEC", v.what)
		if v.inRange {
			catOut, catTitle = validated(`{"tab_id": 1}`), fmt.Sprintf("A max_length written %s is read and valid", v.what)
		}
		add("number."+v.name+".catalog", catTitle, citeNumber+", J7 (number literals)"+citeCatSpec,
			catLine(catalogWith(`"max_length":16`, `"max_length":`+v.lit)), catOut)
	}
	add("number.big-integer", "A 400-digit integer is read and echoed exactly, never through a float", "SPEC.md §2 J7 (number literals); §7 V5 (integers)",
		argsLine(tx(`{"tab_id":`), tx(digits400), tx(`}`)), validated(`{"tab_id": `+digits400+`}`))
	digits5001 := strings.Repeat("1234567890", 500) + "1"
	add("number.huge-integer", "A 5001-digit integer is read and echoed exactly: no limit on digits (Python's default of 4300 is one)", "SPEC.md §2 J7 (number literals); §7 V5 (integers)",
		argsLine(tx(`{"tab_id":`), tx(digits5001), tx(`}`)), validated(`{"tab_id": `+digits5001+`}`))
	add("number.huge-exponent", "1e400, beyond every float, is a number that is not an integer: INVALID_ARGUMENT_VALUE, not a refusal", "SPEC.md §2 J7 (number literals); §7 V5 (integers)",
		argsLine(tx(`{"tab_id":1e400}`)), code("INVALID_ARGUMENT_VALUE"))
	add("number.big-integer.catalog", "A 400-digit max_length is read, and is out of range: INVALID_SPEC", citeNumber+", J7 (number literals)"+citeCatSpec,
		catLine(catalogWith(`"max_length":16`, `"max_length":`+digits400)), code("INVALID_SPEC"))

	// Strings: every raw character below U+0020 (but LF, which ends the
	// line), in an argument, and some in the catalog.
	for c := 0; c < 0x20; c++ {
		if c == '\n' {
			continue
		}
		raw := string(rune(c))
		add(fmt.Sprintf("string.raw-control.u%04x.arguments", c), fmt.Sprintf("A raw U+%04X inside a string argument is refused: control characters must be escaped", c), citeString,
			argsLine(tx(`{"tab_id":1,"format":"a`+raw+`b"}`)), refused)
		if c == 0 || c == '\t' || c == '\r' || c == 0x1f {
			add(fmt.Sprintf("string.raw-control.u%04x.catalog", c), fmt.Sprintf("A raw U+%04X inside a string of the catalog is refused", c), citeString,
				catLine(catalogWith(`"family":"reading"`, `"family":"read`+raw+`ing"`)), refused)
		}
	}
	add("string.raw-control.u0009.key", "A raw TAB inside an object key is refused", citeString,
		argsLine(tx("{\"tab_id\":1,\"for\tmat\":\"a\"}")), refused)
	for _, v := range []struct{ name, raw, want, what string }{
		{"raw-del", "a\x7fb", `"a\u007fb"`, "a raw DEL (U+007F), which needs no escape"},
		{"raw-line-separator", "a\u2028b", `"a\u2028b"`, "a raw U+2028 LINE SEPARATOR, which JSON allows in strings"},
		{"raw-nbsp", "a\u00a0b", `"a\u00a0b"`, "a raw U+00A0 NO-BREAK SPACE"},
		{"raw-bom-inside", "a\ufeffb", `"a\ufeffb"`, "a raw U+FEFF inside a string, which J2 allows there"},
		{"raw-c1-control", "a\u0085b", `"a\u0085b"`, "a raw U+0085 NEXT LINE, a C1 control character, which needs no escape"},
		{"raw-below-surrogates", "a\ud7ffb", `"a\ud7ffb"`, "a raw U+D7FF (ED 9F BF), the last code point before the surrogates: the lead byte ED alone is no error"},
		{"raw-fffe", "a\ufffeb", `"a\ufffeb"`, "a raw noncharacter U+FFFE, which is a code point"},
		{"raw-replacement", "a\ufffdb", `"a\ufffdb"`, "a raw U+FFFD REPLACEMENT CHARACTER (EF BF BD), valid UTF-8: only malformed bytes are refused"},
	} {
		add("string."+v.name+".arguments", fmt.Sprintf("A string argument holding %s is read: 3 code points", v.what), citeString+citeArgValue,
			argsLine(tx(`{"tab_id":1,"format":"`+v.raw+`"}`)), validated(`{"tab_id": 1, "format": `+v.want+`}`))
	}

	for _, v := range []struct{ name, text, want, what string }{
		{"escaped-nul", `a\u0000b`, `"a\u0000b"`, `an escaped NUL (\u0000)`},
		{"escaped-noncharacter", `a\uFDD0b`, `"a\ufdd0b"`, `an escaped noncharacter (\uFDD0), which is a code point`},
		{"escaped-ffff", `a\uFFFFb`, `"a\uffffb"`, `an escaped noncharacter U+FFFF (\uFFFF), which is a code point`},
		{"escaped-replacement", `a\uFFFDb`, `"a\ufffdb"`, `an escaped U+FFFD REPLACEMENT CHARACTER (\uFFFD), a code point like any other`},
		{"raw-noncharacter", "a\U0010FFFEb", `"a\udbff\udffeb"`, "a raw noncharacter U+10FFFE, which is a code point"},
		{"escaped-unit-separator", `a\u001fb`, `"a\u001fb"`, `an escaped U+001F (\u001f), the last control character, which the reply must escape too`},
		{"escaped-backslash-u", `\u005cnb`, `"\\nb"`, `"\u005cn": an escaped backslash, then the letter n, not an escape (decoded once)`},
	} {
		add("string."+v.name+".arguments", fmt.Sprintf("A string argument holding %s is read: 3 code points", v.what), citeString+citeArgValue,
			argsLine(tx(`{"tab_id":1,"format":"`+v.text+`"}`)), validated(`{"tab_id": 1, "format": `+v.want+`}`))
	}
	add("string.nul-counted.arguments", `A string argument of 21 code points, the second U+0000, is over format's 16: the NUL is a code point like any other`, citeString+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":"a\u0000bcdefghijklmnopqrst"}`)), code("INVALID_ARGUMENT_VALUE"))
	// CR LF is two code points wherever it sits, and a lone CR one.
	add("string.crlf-at-limit.arguments", `A string argument of 16 code points holding CR LF (\r\n) is at format's 16: read, and shape-valid`, citeString+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":"abcdefghijklmn\r\n"}`)), validated(`{"tab_id": 1, "format": "abcdefghijklmn\r\n"}`))
	add("string.crlf-counted.arguments", `A string argument of 17 code points holding CR LF (\r\n) is over format's 16: CR LF is two code points, not one line break`, citeString+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":"abcdefg\r\nhijklmno"}`)), code("INVALID_ARGUMENT_VALUE"))
	add("string.lone-cr-counted.arguments", `A string argument of 17 code points, the last a lone CR (\r), is over format's 16`, citeString+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":"abcdefghijklmnop\r"}`)), code("INVALID_ARGUMENT_VALUE"))
	add("key.empty.arguments", `An empty key "" is a key: read, and not a field (INVALID_ARGUMENT_KEYS)`, citeString+citeArgKeys,
		argsLine(tx(`{"tab_id":1,"":1}`)), code("INVALID_ARGUMENT_KEYS"))
	add("key.escaped-nul.arguments", `A key holding an escaped NUL is a key: read, and not a field (INVALID_ARGUMENT_KEYS)`, citeString+citeArgKeys,
		argsLine(tx(`{"tab_id":1,"a\u0000":1}`)), code("INVALID_ARGUMENT_KEYS"))

	// Escapes: the eight of RFC 8259, and ones that are not.
	for _, e := range []struct{ name, esc string }{
		{"quote", `\"`}, {"backslash", `\\`}, {"slash", `\/`}, {"backspace", `\b`},
		{"form-feed", `\f`}, {"newline", `\n`}, {"carriage-return", `\r`}, {"tab", `\t`},
	} {
		add("escape."+e.name+".arguments", fmt.Sprintf("The escape %s in a string argument is read as one character", e.esc), citeEscape+citeArgValue,
			argsLine(tx(`{"tab_id":1,"format":"a`+e.esc+`b"}`)), validated(`{"tab_id": 1, "format": "a`+e.esc+`b"}`))
	}
	add("escape.tab.catalog", `A family "read\tina" holds a TAB once decoded: read, then not a label (INVALID_LABEL)`, citeEscape+citeCatLabel,
		catLine(catalogWith(`"family":"reading"`, `"family":"read\ting"`)), code("INVALID_LABEL"))
	invalidEscapes := []struct{ name, esc, what string }{
		{"x", `\x41`, `\x, which JSON does not have`},
		{"single-quote", `\'`, `\', which JSON does not have`},
		{"upper-u", `\U0041`, `\U: only a lower-case u escapes`},
		{"a", `\a`, `\a`},
		{"zero", `\0`, `\0`},
		{"v", `\v`, `\v, which JSON does not have`},
		{"e", `\e`, `\e`},
		{"space", `\ `, "a backslash before a space"},
		{"tab", "\\\t", "a backslash before a raw TAB"},
		{"non-ascii", `\é`, "a backslash before é"},
		{"u-short", `\u12`, `\u with two hex digits`},
		{"u-three", `\u123`, `\u with three hex digits`},
		{"u-none", `\u`, `\u with no hex digit`},
		{"u-bad-digit", `\u12G4`, `\u with a G among its digits`},
		{"u-space", `\u 123`, `\u with a space among its digits`},
		{"u-plus", `\u+123`, `\u with a plus sign`},
		{"u-underscore", `\u1_23`, `\u with an underscore among its digits`},
		{"u-0x", `\u0x41`, `\u written 0x41`},
	}
	for _, e := range invalidEscapes {
		add("escape.invalid-"+e.name+".arguments", fmt.Sprintf("A string argument with %s is refused", e.what), citeEscape,
			argsLine(tx(`{"tab_id":1,"format":"a`+e.esc+`z"}`)), refused)
		switch e.name {
		case "x", "single-quote", "upper-u", "u-short", "u-bad-digit":
			add("escape.invalid-"+e.name+".catalog", fmt.Sprintf("A string of the catalog with %s is refused", e.what), citeEscape,
				catLine(catalogWith(`"family":"reading"`, `"family":"read`+e.esc+`ing"`)), refused)
		}
	}
	add("escape.invalid-x.key", `An object key with \x is refused`, citeEscape,
		argsLine(tx(`{"tab_id":1,"form\x61t":"a"}`)), refused)
	add("escape.backslash-at-end.arguments", `A string argument whose last character is a backslash (the quote is escaped, the string never ends) is refused`, citeEscape,
		argsLine(tx(`{"tab_id":1,"format":"a\"}`)), refused)
	// Hex digits of either case.
	for _, h := range []struct{ name, esc, want, what string }{
		{"lower-hex", `\u00e9`, `"\u00e9"`, "lower-case hex digits"},
		{"upper-hex", `\u00E9`, `"\u00e9"`, "upper-case hex digits"},
		{"mixed-hex", `\u00eA`, `"\u00ea"`, "hex digits of both cases"},
	} {
		add("escape."+h.name+".arguments", fmt.Sprintf(`A \u escape with %s (%s) is read`, h.what, h.esc), citeEscape+citeArgValue,
			argsLine(tx(`{"tab_id":1,"format":"`+h.esc+`"}`)), validated(`{"tab_id": 1, "format": `+h.want+`}`))
	}
	add("escape.upper-hex.catalog", `A tool name written "page\u002Eread" (upper-case hex) is page.read`, citeEscape+"; §7 V3 (names)",
		catLine(catalogWith(`"name":"page.read"`, `"name":"page\u002Eread"`)), validated(`{"tab_id": 1}`))
	add("escape.lower-hex.catalog", `A tool name written "page\u002eread" (lower-case hex) is page.read`, citeEscape+"; §7 V3 (names)",
		catLine(catalogWith(`"name":"page.read"`, `"name":"page\u002eread"`)), validated(`{"tab_id": 1}`))

	// Surrogate escapes.
	for _, p := range []struct{ name, esc, want, what string }{
		{"pair", `\ud83d\ude00`, `"\ud83d\ude00"`, "a surrogate pair, one code point"},
		{"pair-upper", `\uD83D\uDE00`, `"\ud83d\ude00"`, "a surrogate pair in upper-case hex"},
		{"pair-first", `\ud800\udc00`, `"\ud800\udc00"`, "the first pair, U+10000"},
		{"pair-last", `\udbff\udfff`, `"\udbff\udfff"`, "the last pair, U+10FFFF"},
		{"pair-then-escape", `\ud83d\ude00\n`, `"\ud83d\ude00\n"`, "a pair followed by another escape"},
	} {
		add("surrogate."+p.name+".arguments", fmt.Sprintf("A string argument holding %s (%s) is read", p.what, p.esc), citeSurr+citeArgValue,
			argsLine(tx(`{"tab_id":1,"format":"`+p.esc+`"}`)), validated(`{"tab_id": 1, "format": `+p.want+`}`))
	}
	add("surrogate.pair-sixteen.arguments", "Sixteen surrogate pairs are 16 code points, not 32 UTF-16 units: they fit a max_length of 16", citeSurr+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":"`+strings.Repeat(`\ud83d\ude00`, 16)+`"}`)), validated(`{"tab_id": 1, "format": "`+strings.Repeat(`\ud83d\ude00`, 16)+`"}`))
	add("surrogate.lone-high", "A lone high surrogate escape in a string is refused, not counted as one code point", "SPEC.md §2 J4 (lone surrogates)",
		argsLine(tx(`{"tab_id":1,"format":"\ud83d"}`)), refused)
	add("surrogate.lone-low", "A lone low surrogate escape in a string is refused", "SPEC.md §2 J4 (lone surrogates)",
		argsLine(tx(`{"tab_id":1,"format":"a\ude00b"}`)), refused)
	lone := []struct{ name, esc, what string }{
		{"reversed", `\ude00\ud83d`, "a low then a high surrogate (a pair in the wrong order)"},
		{"high-high", `\ud83d\ud83d`, "two high surrogates"},
		{"low-low", `\ude00\ude00`, "two low surrogates"},
		{"high-high-low", `\ud83d\ud83d\ude00`, "a high surrogate before a valid pair"},
		{"low-at-end", `\ude00`, "a low surrogate alone at the end of the string"},
		{"low-before-escape", `\ude00\n`, "a low surrogate alone before another escape"},
		{"high-at-end", `a\ud83d`, "a high surrogate at the end of the string"},
		{"high-before-escape", `\ud83d\n`, "a high surrogate before another escape"},
		{"high-before-bmp-escape", `\ud83d\u0041`, "a high surrogate before a \\u escape that is not a low surrogate"},
		{"high-before-escaped-backslash", `\ud83d\\ude00`, "a high surrogate before an escaped backslash"},
		{"high-before-raw-low", `\ud83d` + "\xed\xb8\x80", "a high surrogate before a low surrogate written in (invalid) UTF-8"},
	}
	for _, l := range lone {
		add("surrogate."+l.name+".arguments", fmt.Sprintf("A string argument with %s is refused", l.what), citeSurr,
			argsLine(tx(`{"tab_id":1,"format":"`+l.esc+`"}`)), refused)
		switch l.name {
		case "reversed", "high-high", "low-at-end", "high-at-end":
			add("surrogate."+l.name+".catalog", fmt.Sprintf("A string of the catalog with %s is refused", l.what), citeSurr,
				catLine(catalogWith(`"family":"reading"`, `"family":"`+l.esc+`"`)), refused)
		}
	}
	add("label.arabic-indic-digit.catalog", `A name "page.v\u0663" ends in ARABIC-INDIC DIGIT THREE, a digit but not an ASCII one: INVALID_LABEL`, "SPEC.md §5 C3 (labels)",
		catLine(catalogWith(`"name":"page.read"`, `"name":"page.v\u0663"`)), code("INVALID_LABEL"))
	add("surrogate.pair.catalog", `A family holding a surrogate pair is read, and is not a label: INVALID_LABEL`, citeSurr+citeCatLabel,
		catLine(catalogWith(`"family":"reading"`, `"family":"\ud83d\ude00"`)), code("INVALID_LABEL"))
	add("surrogate.pair.key", `An argument key holding a surrogate pair is read, and is not a field: INVALID_ARGUMENT_KEYS`, citeSurr+citeArgKeys,
		argsLine(tx(`{"tab_id":1,"\ud83d\ude00":1}`)), code("INVALID_ARGUMENT_KEYS"))
	add("surrogate.lone.key", `An argument key holding a lone surrogate escape is refused`, citeSurr,
		argsLine(tx(`{"tab_id":1,"\ud83d":1}`)), refused)
	add("surrogate.reversed.key", `A field name in the catalog holding a reversed pair is refused`, citeSurr,
		catLine(catalogWith(`"format":{`, `"\ude00\ud83d":{`)), refused)

	// Keys: unescaped before they are compared.
	add("duplicate-key.arguments", `A duplicate argument key ("tab_id": "one", then 1) is refused`, citeDup,
		argsLine(tx(`{"tab_id":"one","tab_id":1}`)), refused)
	add("duplicate-key.call", `A duplicate key in the call (a second "catalog") is refused`, citeDup,
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"validate_arguments","catalog":[],"catalog":`), tx(textCatalog), tx(`,"name":"page.read","arguments":{"tab_id":1}}}`)}, refused)
	add("duplicate-key.field-spec", `A duplicate key in a field spec ("max_length": 4, then 16) is refused`, citeDup,
		validateLine([]seg{tx(catalogWith(`"max_length":16`, `"max_length":4,"max_length":16`))}, []seg{tx(`{"tab_id":1,"format":"markdown"}`)}), refused)
	add("duplicate-key.message", `A duplicate key at the top of the message (a second "call") is refused, not read as the first or the last`, citeDup,
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"discover","catalog":`), tx(textCatalog), tx(`,"family":"nosuch"}`), tx(`,"call":{"op":"discover","catalog":`), tx(textCatalog), tx(`,"family":"reading"}}`)}, refused)
	add("duplicate-key.tool", `A duplicate key in a tool definition ("enabled": false, then "enabled": true) is refused: it must not smuggle a value past a reviewer`, citeDup,
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"discover","catalog":`), tx(catalogWith(`"enabled":true,"fields":{"format":{"type":"string","required":false,"max_length":16},"tab_id":{"type":"integer","required":true,"max_length":20}}`, `"enabled":false,"fields":{"format":{"type":"string","required":false,"max_length":16},"tab_id":{"type":"integer","required":true,"max_length":20}},"enabled":true`)), tx(`,"family":"reading"}}`)}, refused)
	// The first of a pair may be of any kind, null included: a reader
	// that looks for a key's value to find it given twice misses a null.
	for _, first := range []struct{ name, value string }{
		{"null", "null"}, {"false", "false"}, {"zero", "0"}, {"empty-string", `""`}, {"empty-array", "[]"}, {"empty-object", "{}"},
	} {
		add("duplicate-key.first-"+first.name+".arguments", fmt.Sprintf(`A duplicate argument key whose first value is %s ("format": %s, then "a") is refused`, first.value, first.value), citeDup,
			argsLine(tx(`{"tab_id":1,"format":`+first.value+`,"format":"a"}`)), refused)
	}
	add("duplicate-key.inside-value.arguments", `A duplicate key inside an argument's value ({"a":1,"a":2}) is refused: J5 holds at any depth, not only in the objects the contract reads`, citeDup,
		argsLine(tx(`{"tab_id":1,"format":{"a":1,"a":2}}`)), refused)
	add("duplicate-key.ignored-member", `A duplicate key inside a member of the message that a port ignores ("trace") is refused: the text level holds for the whole line`, citeDup,
		[]seg{tx(callHead), seqSeg, tx(`,"trace":{"a":1,"a":2},"call":{"op":"validate_arguments","catalog":`), tx(textCatalog), tx(`,"name":"page.read","arguments":{"tab_id":1}}}`)}, refused)
	add("duplicate-key.ignored-call-member", `A duplicate key inside a member of the call that validate_arguments ignores ("family") is refused`, citeDup,
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"validate_arguments","catalog":`), tx(textCatalog), tx(`,"family":{"a":1,"a":2},"name":"page.read","arguments":{"tab_id":1}}}`)}, refused)
	for _, d := range []struct{ name, args, what string }{
		{"escaped.arguments", `{"tab_id":1,"format":"a","form\u0061t":"b"}`, `"format" and "form\u0061t"`},
		{"escaped-upper.arguments", `{"tab_id":1,"format":"a","\u0066ORMAT":"b","\u0066ormat":"c"}`, `"format" and "\u0066ormat"`},
		{"escaped-both.arguments", `{"t\u0061b_id":1,"\u0074ab_id":2}`, `"t\u0061b_id" and "\u0074ab_id"`},
		{"pair-and-raw.arguments", `{"tab_id":1,"\ud83d\ude00":1,"😀":2}`, `"\ud83d\ude00" and a raw 😀`},
		{"escaped-slash.arguments", `{"tab_id":1,"a/b":1,"a\/b":2}`, `"a/b" and "a\/b"`},
		{"large-object.arguments", `{"k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"k7":1,"k8":1,"k9":1,"tab_id":1,"k\u0035":2}`, `"k5" and "k\u0035" in an object of 11 members`},
	} {
		add("duplicate-key."+d.name, fmt.Sprintf("Keys %s are the same key once unescaped: refused", d.what), citeDup,
			argsLine(tx(d.args)), refused)
	}
	add("duplicate-key.escaped.catalog", `Field names "format" and "form\u0061t" are the same key once unescaped: refused`, citeDup,
		catLine(catalogWith(`,"tab_id":{`, `,"form\u0061t":{"type":"string","required":false,"max_length":16},"tab_id":{`)), refused)
	add("duplicate-key.escaped-tool.catalog", `Tool keys "enabled" and "en\u0061bled" are the same key once unescaped: refused`, citeDup,
		catLine(catalogWith(`"enabled":true`, `"enabled":true,"en\u0061bled":false`)), refused)
	for _, d := range []struct{ name, args, what string }{
		{"case.arguments", `{"tab_id":1,"format":"a","Format":"b"}`, `"format" and "Format"`},
		{"trailing-space.arguments", `{"tab_id":1,"format":"a","format ":"b"}`, `"format" and "format "`},
		{"large-object.arguments", `{"k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"k7":1,"k8":1,"k9":1,"tab_id":1,"k10":2}`, `"k1" to "k10" in an object of 11 members`},
		{"unnormalized.arguments", `{"tab_id":1,"\u00e9":1,"e\u0301":2}`, `"\u00e9" and "e\u0301" (the same text once normalized; keys are never normalized)`},
		{"after-nul.arguments", `{"tab_id":1,"a":1,"a\u0000b":2}`, `"a" and "a\u0000b" (a key does not end at U+0000)`},
		{"hash-collision.arguments", `{"tab_id":1,"Aa":1,"BB":2}`, `"Aa" and "BB" (the same Java hashCode; keys are compared code point by code point)`},
	} {
		add("distinct-key."+d.name, fmt.Sprintf("Keys %s are different keys: read (the unknown one is INVALID_ARGUMENT_KEYS)", d.what), citeDup+citeArgKeys,
			argsLine(tx(d.args)), code("INVALID_ARGUMENT_KEYS"))
	}
	add("key.escaped.arguments", `An argument key written "form\u0061t" is the field format`, citeEscape+citeArgKeys,
		argsLine(tx(`{"tab_id":1,"form\u0061t":"x"}`)), validated(`{"tab_id": 1, "format": "x"}`))
	add("key.escaped.catalog", `A field name written "t\u0061b_id" is the field tab_id`, citeEscape+"; §5 C7 (field names)",
		catLine(catalogWith(`"tab_id":{`, `"t\u0061b_id":{`)), validated(`{"tab_id": 1}`))

	// White space: space, tab and CR are allowed between every token (LF
	// ends a line of the protocol); no other character is.
	for _, w := range []struct{ name, ws string }{{"space", " "}, {"tab", "\t"}, {"cr", "\r"}} {
		s := w.ws
		add("space."+w.name+".arguments", fmt.Sprintf("A %s between every token of the arguments is white space", strings.ToUpper(w.name)), citeSpace+citeArgValue,
			argsLine(tx(s+`{`+s+`"tab_id"`+s+`:`+s+`1`+s+`,`+s+`"format"`+s+`:`+s+`[`+s+`]`+s+`}`+s)), code("INVALID_ARGUMENT_VALUE"))
		add("space."+w.name+".catalog", fmt.Sprintf("A %s between every token of the catalog is white space", strings.ToUpper(w.name)), citeSpace,
			catLine(s+`[`+s+`{`+s+`"name"`+s+`:`+s+`"page.read"`+s+`,`+s+`"family":"reading","effect":"read","enabled"`+s+`:`+s+`true`+s+`,"fields":{"format":{"type":"string","required":false,"max_length"`+s+`:`+s+`16`+s+`},"tab_id":{"type":"integer","required":true,"max_length":20}}`+s+`}`+s+`]`+s), validated(`{"tab_id": 1}`))
		add("space."+w.name+".message", fmt.Sprintf("A %s before and after the message is white space", strings.ToUpper(w.name)), citeSpace,
			append(append([]seg{tx(s)}, argsLine(tx(`{"tab_id":1}`))...), tx(s)), validated(`{"tab_id": 1}`))
	}
	for _, w := range []struct{ name, ws string }{
		{"form-feed", "\f"}, {"vertical-tab", "\v"}, {"nul", "\x00"}, {"nbsp", "\u00a0"}, {"nel", "\u0085"},
		{"line-separator", "\u2028"}, {"paragraph-separator", "\u2029"}, {"bom", "\ufeff"}, {"ideographic-space", "\u3000"},
		{"zero-width-space", "\u200b"}, {"word-joiner", "\u2060"},
	} {
		what := fmt.Sprintf("U+%04X", []rune(w.ws)[0])
		spec := citeSpace
		if w.name == "bom" {
			spec += ", J2 (U+FEFF outside a string)"
		}
		add("space.not-"+w.name+".arguments", fmt.Sprintf("A %s between tokens of the arguments is not white space: refused", what), spec,
			argsLine(tx(`{"tab_id":`+w.ws+`1}`)), refused)
		add("space.not-"+w.name+".catalog", fmt.Sprintf("A %s between tokens of the catalog is not white space: refused", what), spec,
			catLine(catalogWith(`"enabled":true`, `"enabled":`+w.ws+`true`)), refused)
		if w.name == "form-feed" || w.name == "vertical-tab" || w.name == "nul" || w.name == "bom" {
			add("space.not-"+w.name+".after-message", fmt.Sprintf("A %s after the message is not white space: refused", what), spec,
				append(argsLine(tx(`{"tab_id":1}`)), tx(w.ws)), refused)
		}
	}
	add("bom", "A byte order mark (EF BB BF) before the message is refused", citeBOM,
		append([]seg{tx("\ufeff")}, argsLine(tx(`{"tab_id":1}`))...), refused)
	add("bom.after-space", "A byte order mark after white space, before the message, is refused", citeBOM,
		append([]seg{tx(" \ufeff")}, argsLine(tx(`{"tab_id":1}`))...), refused)

	// UTF-8.
	for _, u := range []struct{ name, pre, bytes, what string }{
		{"ff", "", "\xff", "The byte FF, never valid in UTF-8, is refused"},
		{"overlong", "", "\xc0\xaf", `An overlong UTF-8 encoding (C0 AF for "/") is refused, not decoded or replaced`},
		{"surrogate", "", "\xed\xa0\x80", "A surrogate encoded in UTF-8 (ED A0 80 for U+D800) is refused"},
		{"truncated", "a", "\xe2\x82", "A truncated UTF-8 sequence (E2 82, the first two bytes of €) is refused"},
		{"above-max", "", "\xf4\x90\x80\x80", "A code point above U+10FFFF (F4 90 80 80) is refused"},
		{"continuation", "", "\x80", "A stray continuation byte (80) is refused"},
		{"overlong-three", "", "\xe0\x80\xaf", "A three-byte overlong encoding (E0 80 AF) is refused"},
		{"surrogate-pair", "", "\xed\xa0\xbd\xed\xb8\x80", "A surrogate pair encoded in UTF-8 (CESU-8: ED A0 BD ED B8 80 for U+1F600) is refused, not read as U+1F600"},
		{"overlong-c1", "", "\xc1\xa1", `An overlong encoding led by C1 (C1 A1 for "a") is refused: C1, like C0, never starts a valid sequence`},
		{"overlong-four", "", "\xf0\x81\x81\x81", `A four-byte overlong encoding (F0 81 81 81 for "A") is refused`},
	} {
		add("utf8."+u.name, u.what, citeUTF8, argsLine(tx(`{"tab_id":1,"format":"`+u.pre+u.bytes+`"}`)), refused)
	}
	add("utf8.ff.catalog", "The byte FF in a string of the catalog is refused", citeUTF8,
		catLine(catalogWith(`"family":"reading"`, "\"family\":\"read\xffing\"")), refused)
	add("utf8.ff.key", "The byte FF in an object key is refused", citeUTF8,
		argsLine(tx("{\"tab_id\":1,\"\xff\":1}")), refused)
	add("utf8.ff.between-tokens", "The byte FF between tokens is refused", citeUTF8,
		argsLine(tx("{\"tab_id\":\xff1}")), refused)

	// Literals.
	for _, l := range []string{"tru", "True", "TRUE", "fals", "False", "nul", "NULL", "None", "truee", "nulll", "t", "undefined"} {
		add("literal."+strings.ToLower(l)+hexCase(l)+".arguments", fmt.Sprintf("An argument written %s is not a JSON literal: refused", l), citeLiteral,
			argsLine(tx(`{"tab_id":1,"format":`+l+`}`)), refused)
	}
	for _, l := range []string{"tru", "True", "nul", "fals", "truex"} {
		add("literal."+strings.ToLower(l)+hexCase(l)+".catalog", fmt.Sprintf(`An "enabled" written %s is not a JSON literal: refused`, l), citeLiteral,
			catLine(catalogWith(`"enabled":true`, `"enabled":`+l)), refused)
	}
	for _, l := range []string{"true", "false", "null"} {
		add("literal."+l+".arguments", fmt.Sprintf("An argument %s is read, and does not fit a string field: INVALID_ARGUMENT_VALUE", l), citeLiteral+citeArgValue,
			argsLine(tx(`{"tab_id":1,"format":`+l+`}`)), code("INVALID_ARGUMENT_VALUE"))
	}
	add("literal.false.catalog", `"enabled": false is read: the tool is disabled`, citeLiteral+"; §7 V3 (disabled tools)",
		catLine(catalogWith(`"enabled":true`, `"enabled":false`)), code("TOOL_NOT_AVAILABLE_IN_FAMILY"))
	add("literal.null.catalog", `"enabled": null is read, and is not a boolean: INVALID_METADATA`, citeLiteral+citeCatMeta,
		catLine(catalogWith(`"enabled":true`, `"enabled":null`)), code("INVALID_METADATA"))
	add("literal.null-required.catalog", `"required": null is read, and is not a boolean: INVALID_SPEC (null is not false)`, citeLiteral+"; §5 C7 (required)",
		catLine(catalogWith(`"required":false`, `"required":null`)), code("INVALID_SPEC"))
	add("string.effect-substring.catalog", `An effect "ead", a part of "read", is not "read" or "change": INVALID_METADATA`, citeString+"; §5 C5 (effect)",
		catLine(catalogWith(`"effect":"read"`, `"effect":"ead"`)), code("INVALID_METADATA"))
	// Catalog rules a port can get half right: a disabled tool is checked
	// like any other; labels as the pattern has them; null where an object
	// is due.
	disabledTool := strings.TrimSuffix(strings.TrimPrefix(catalogWith(`"enabled":true`, `"enabled":false`), "["), "]")
	enabledTool := strings.TrimSuffix(strings.TrimPrefix(textCatalog, "["), "]")
	add("catalog.duplicate-after-disabled", "A tool named as an earlier disabled tool is a duplicate: DUPLICATE_TOOL (disabled tools count)", "SPEC.md §5 C4 (duplicate names)",
		catLine("["+disabledTool+","+enabledTool+"]"), code("DUPLICATE_TOOL"))
	add("catalog.disabled-bad-spec", "A disabled tool with a bad field type rejects the catalog: INVALID_SPEC (disabled tools are checked too)", "SPEC.md §5 C7 (field specs)",
		catLine("["+enabledTool+","+strings.Replace(strings.Replace(disabledTool, `"page.read"`, `"page.off"`, 1), `"type":"integer"`, `"type":"float"`, 1)+"]"), code("INVALID_SPEC"))
	add("catalog.disabled-bad-family", `A disabled tool whose family "Reading" is not a label rejects the catalog: INVALID_LABEL`, "SPEC.md §5 C3 (labels)",
		catLine("["+enabledTool+","+strings.Replace(strings.Replace(disabledTool, `"page.read"`, `"page.off"`, 1), `"family":"reading"`, `"family":"Reading"`, 1)+"]"), code("INVALID_LABEL"))
	for _, l := range []struct{ name, old, new, what string }{
		{"family-trailing-dot", `"family":"reading"`, `"family":"reading."`, `a family "reading." ending in a dot`},
		{"family-double-dot", `"family":"reading"`, `"family":"read..ing"`, `a family "read..ing" with two dots in a row`},
		{"family-dot", `"family":"reading"`, `"family":"web.reading"`, `a family "web.reading" with a dot`},
		{"field-dot", `"format":{`, `"out.format":{`, `a field name "out.format" with a dot`},
		{"field-80", `"format":{`, `"` + strings.Repeat("f", 80) + `":{`, "a field name of 80 characters, the longest label"},
		{"field-underscore-end", `"format":{`, `"format_":{`, `a field name "format_" ending in an underscore`},
	} {
		add("label."+l.name+".catalog", fmt.Sprintf("A catalog with %s is valid: a label is [a-z][a-z0-9._-]{0,79}, nothing more", l.what), "SPEC.md §3.1 (labels); §5 C3, C7",
			catLine(catalogWith(l.old, l.new)), validated(`{"tab_id": 1}`))
	}
	for _, n := range []struct{ name, old, new, code, what string }{
		{"tool", textCatalog, `[null]`, "INVALID_FIELDS", "a tool that is null"},
		{"fields", `"fields":{"format":{"type":"string","required":false,"max_length":16},"tab_id":{"type":"integer","required":true,"max_length":20}}`, `"fields":null`, "INVALID_FIELDS", "fields that are null"},
		{"spec", `{"type":"string","required":false,"max_length":16}`, `null`, "INVALID_FIELDS", "a field spec that is null"},
	} {
		add("null."+n.name+".catalog", fmt.Sprintf("A catalog with %s is refused: %s (null is not an object, nor an empty one)", n.what, n.code), citeLiteral+"; §5 C2, C6, C7",
			catLine(catalogWith(n.old, n.new)), code(n.code))
	}
	optional := catalogWith(`"required":true`, `"required":false`)
	for _, a := range []struct{ name, args string }{{"null", "null"}, {"array", "[]"}} {
		add("arguments."+a.name+".no-required", fmt.Sprintf("Arguments %s, for a tool with no required field, are not an object: INVALID_ARGUMENT_KEYS (never taken for {})", a.args), "SPEC.md §7 V4 (keys)",
			validateLine([]seg{tx(optional)}, []seg{tx(a.args)}), code("INVALID_ARGUMENT_KEYS"))
	}
	add("name.empty.validate", `validate_arguments with name "" is refused: INVALID_LABEL (not the first tool)`, "SPEC.md §7 V2 (name)",
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"validate_arguments","catalog":`), tx(textCatalog), tx(`,"name":"","arguments":{"tab_id":1}}}`)}, code("INVALID_LABEL"))
	add("name.astral-at-80.validate", "A name of 79 letters and an emoji is not a label: INVALID_LABEL, and a detail quoting it must stay valid JSON (no cut inside a surrogate pair)", "SPEC.md §7 V2 (name); §2 J4",
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"validate_arguments","catalog":`), tx(textCatalog), tx(`,"name":"` + strings.Repeat("a", 79) + `\ud83d\ude00","arguments":{"tab_id":1}}}`)}, code("INVALID_LABEL"))
	// A detail that quotes a bad name is cut somewhere: wherever it is cut,
	// one of these two names has a surrogate pair there, in UTF-16.
	for _, a := range []struct{ name, pre string }{{"even", ""}, {"odd", "a"}} {
		add("name.astral-run-"+a.name+".validate", fmt.Sprintf("A name of %s100 emoji is not a label: INVALID_LABEL, and a detail quoting any part of it must stay valid JSON (no cut inside a surrogate pair, wherever the cut is)", map[string]string{"": "", "a": "a letter and "}[a.pre]), "SPEC.md §7 V2 (name); §2 J4",
			[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"validate_arguments","catalog":`), tx(textCatalog), tx(`,"name":"` + a.pre), rep(`\ud83d\ude00`, 100), tx(`","arguments":{"tab_id":1}}}`)}, code("INVALID_LABEL"))
	}
	// Every character a string writer might escape its own way: a result
	// must be JSON, whatever the echoed string holds.
	for _, e := range []struct{ name, text, what string }{
		{"controls-low", `\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\u000b\f\r\u000e\u000f`, "U+0001 to U+000F but LF (BEL and VT among them: C's \\a and \\v are not JSON escapes)"},
		{"controls-high", `\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f`, "U+0010 to U+001F"},
		{"punctuation", `it's<a/>&\u007f\u0085\u2028\u2029\ufeff`, "an apostrophe, <, >, /, &, DEL, NEL, U+2028, U+2029 and U+FEFF (a JavaScript or HTML escaper writes \\' or &amp;)"},
	} {
		add("echo."+e.name+".arguments", fmt.Sprintf("A string argument holding %s is echoed as the same string, in a reply that is JSON", e.what), citeEscape+"; §8.2 (arguments echoed whole)",
			argsLine(tx(`{"tab_id":1,"format":"`+e.text+`"}`)), validated(`{"tab_id": 1, "format": "`+e.text+`"}`))
	}
	// Catalog rules a port may check in the wrong order, only for enabled
	// tools, or by a looser test than the contract's.
	secondTool := `,{"name":"b.tool","family":"reading","effect":"read","enabled":true,"fields":{},"extra":1}]`
	for _, c := range []struct{ name, old, new, code, title, spec string }{
		{"key-case", `"name":"page.read"`, `"Name":"page.read"`, "INVALID_FIELDS", `A tool key written "Name" is not "name": keys are compared exactly, never case-folded (as Go's encoding/json matches struct fields)`, "SPEC.md §4; §5 C2"},
		{"spec-key-case", `{"type":"string","required":false,"max_length":16}`, `{"Type":"string","required":false,"max_length":16}`, "INVALID_FIELDS", `A field spec key written "Type" is not "type": INVALID_FIELDS`, "SPEC.md §4; §5 C7"},
		{"first-tool-first", `"name":"page.read"`, `"name":"Page.Read"`, "INVALID_LABEL", `A bad name in tool 1 wins over an extra key in tool 2: each tool is checked through C2 to C7 before the next (never C2 on every tool first)`, "SPEC.md §5 (order); §9"},
		{"field-label-before-spec", `"format":{"type":"string","required":false,"max_length":16}`, `"Zoom":{"type":"string","required":false}`, "INVALID_LABEL", `A field "Zoom" whose spec also lacks max_length: the field name is checked first (INVALID_LABEL), then the spec's keys`, "SPEC.md §5 C7 (order)"},
		{"integer-max-length-over", `"max_length":20}`, `"max_length":20001}`, "INVALID_SPEC", "An integer field with max_length 20001 is refused: the range 1 to 20000 holds for every field, whatever its type", "SPEC.md §4; §10 R4"},
		{"disabled-bad-effect", `"effect":"read","enabled":true`, `"effect":"write","enabled":false`, "INVALID_METADATA", `A disabled tool whose effect is "write" rejects the catalog: INVALID_METADATA (disabled tools are checked too)`, "SPEC.md §5 C5"},
		{"name-true", `"name":"page.read"`, `"name":true`, "INVALID_LABEL", "A tool name true is not a label, though a regular expression's test of its text would match (JavaScript's RegExp.test converts it to \"true\")", "SPEC.md §3.1 (a value that is not a string is never a label)"},
		{"family-array", `"family":"reading"`, `"family":["reading"]`, "INVALID_LABEL", `A family ["reading"] is not a label: not a string`, "SPEC.md §3.1 (a value that is not a string is never a label)"},
		{"type-constructor", `"type":"integer"`, `"type":"constructor"`, "INVALID_SPEC", `A field type "constructor" is not one of the three (JavaScript's "constructor" in {...} is true)`, "SPEC.md §4 (type); §5 C7"},
		{"type-tostring", `"type":"integer"`, `"type":"toString"`, "INVALID_SPEC", `A field type "toString" is not one of the three`, "SPEC.md §4 (type); §5 C7"},
		{"field-81", `"format":{`, `"` + strings.Repeat("f", 81) + `":{`, "INVALID_LABEL", "A field name of 81 characters, one over the longest label, is refused: field names are labels", "SPEC.md §3.1 (labels); §5 C7"},
	} {
		cat := catalogWith(c.old, c.new)
		if c.name == "first-tool-first" {
			cat = strings.TrimSuffix(cat, "]") + secondTool
		}
		add("catalog."+c.name, c.title+": "+c.code, c.spec, catLine(cat), code(c.code))
	}
	discoverReading := func(cat, rest string) []seg {
		return []seg{tx(callHead), seqSeg, tx(`,"call":{"op":"discover","catalog":` + cat + `,"family":"reading"` + rest + `}}`)}
	}
	add("discover.family-array", `discover with family ["reading"], not a string, is refused: INVALID_LABEL (never UNKNOWN_FAMILY)`, "SPEC.md §3.1; §6 D2",
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"discover","catalog":` + textCatalog + `,"family":["reading"]}}`)}, code("INVALID_LABEL"))
	add("discover.name-true", `discover with name true, not a string, is refused: INVALID_LABEL (never TOOL_NOT_AVAILABLE_IN_FAMILY)`, "SPEC.md §3.1; §6 D3",
		discoverReading(textCatalog, `,"name":true`), code("INVALID_LABEL"))
	add("string.spaces-around.arguments", "A string of 16 letters with two spaces at each end is 20 code points, over format's 16: INVALID_ARGUMENT_VALUE (never trimmed before it is counted)", "SPEC.md §7 V5 (strings)",
		argsLine(tx(`{"tab_id":1,"format":"  abcdefghijklmnop  "}`)), code("INVALID_ARGUMENT_VALUE"))
	add("string.empty-for-integer.arguments", `An empty string for the integer tab_id is not an integer: INVALID_ARGUMENT_VALUE (never taken for "not filled in")`, "SPEC.md §7 V5 (integers)",
		argsLine(tx(`{"tab_id":""}`)), code("INVALID_ARGUMENT_VALUE"))
	dotted := catalogWith(`"format":{`, `"out.format":{`)
	add("label.field-dot.discover", `A field "out.format" is one member of inputSchema.properties, a name with a dot, not nested as {"out": {"format": ...}}`, "SPEC.md §3.1 (labels); §8.1",
		discoverReading(dotted, ""), `{"result": [{"name": "page.read", "family": "reading", "effect": "read", "inputSchema": {"type": "object", "properties": {"out.format": {"type": "string", "maxLength": 16}, "tab_id": {"type": "integer"}}, "required": ["tab_id"], "additionalProperties": false}, "executes": false}]}`)
	add("label.field-dot.arguments", `An argument of the field "out.format" is echoed under that key, a name with a dot, not nested as {"out": {"format": ...}}`, "SPEC.md §3.1 (labels); §8.2 (arguments echoed whole)",
		validateLine([]seg{tx(dotted)}, []seg{tx(`{"tab_id":1,"out.format":"x"}`)}), validated(`{"tab_id": 1, "out.format": "x"}`))
	longest := catalogWith(`"max_length":16`, `"max_length":20000`)
	add("string.at-largest-max-length.arguments", "A string of 20000 code points, at the largest max_length, is accepted and echoed whole (never cut by a buffer)", "SPEC.md §7 V5 (strings); §8.2",
		validateLine([]seg{tx(longest)}, []seg{tx(`{"tab_id":1,"format":"`), rep("ab", 10000), tx(`"}`)}), validated(`{"tab_id": 1, "format": "`+strings.Repeat("ab", 10000)+`"}`))
	add("string.over-largest-max-length.arguments", "A string of 20001 code points, one over the largest max_length, is refused: INVALID_ARGUMENT_VALUE (never truncated to fit)", "SPEC.md §7 V5 (strings)",
		validateLine([]seg{tx(longest)}, []seg{tx(`{"tab_id":1,"format":"`), rep("ab", 10000), tx(`c"}`)}), code("INVALID_ARGUMENT_VALUE"))
	add("member.family-in-validate", `A "family" member in a validate_arguments call is ignored: the call is validated as without it`, "SPEC.md §7 (validate_arguments takes no family)",
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"validate_arguments","catalog":`), tx(textCatalog), tx(`,"family":"input","name":"page.read","arguments":{"tab_id":1}}}`)}, validated(`{"tab_id": 1}`))
	add("order.unknown-tool-before-arguments", `Arguments that are not an object for a name no enabled tool has: the tool is looked up first (V3, TOOL_NOT_AVAILABLE_IN_FAMILY), before the arguments (V4)`, "SPEC.md §7 V3, V4 (order)",
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"validate_arguments","catalog":`), tx(textCatalog), tx(`,"name":"page.print","arguments":[]}}`)}, code("TOOL_NOT_AVAILABLE_IN_FAMILY"))

	// Structure.
	for _, s := range []struct{ name, args, what string }{
		{"trailing-comma-object", `{"tab_id":1,}`, "a trailing comma in an object"},
		{"trailing-comma-array", `{"tab_id":1,"format":[1,]}`, "a trailing comma in an array"},
		{"missing-comma-object", `{"tab_id":1 "format":"x"}`, "two members without a comma"},
		{"missing-comma-array", `{"tab_id":1,"format":[1 2]}`, "two elements without a comma"},
		{"missing-colon", `{"tab_id" 1}`, "a member without its colon"},
		{"double-colon", `{"tab_id"::1}`, "two colons"},
		{"comma-for-colon", `{"tab_id",1}`, "a comma instead of a colon"},
		{"colon-for-comma", `{"tab_id":1:"format":"x"}`, "a colon instead of a comma"},
		{"leading-comma-object", `{,"tab_id":1}`, "a comma before the first member"},
		{"double-comma-object", `{"tab_id":1,,"format":"x"}`, "two commas between members"},
		{"leading-comma-array", `{"tab_id":1,"format":[,1]}`, "a comma before the first element"},
		{"double-comma-array", `{"tab_id":1,"format":[1,,2]}`, "two commas between elements"},
		{"missing-value", `{"tab_id":}`, "a member without a value"},
		{"single-quoted-key", `{'tab_id':1}`, "a single-quoted key"},
		{"single-quoted-string", `{"tab_id":1,"format":'x'}`, "a single-quoted string"},
		{"unquoted-key", `{tab_id:1}`, "an unquoted key"},
		{"number-key", `{1:1}`, "a number as a key"},
		{"block-comment", `{"tab_id":1/* c */}`, "a /* */ comment"},
		{"line-comment", `{"tab_id":1// c` + "\r}", "a // comment"},
		{"hash-comment", `{"tab_id":1# c` + "\r}", "a # comment"},
		{"unclosed-object", `{"tab_id":1`, "an object that is never closed"},
		{"unclosed-array", `{"tab_id":1,"format":[1}`, "an array that is never closed"},
		{"unclosed-string", `{"tab_id":1,"format":"x}`, "a string that is never closed"},
		{"mismatched-bracket", `{"tab_id":1]`, "an object closed by ]"},
		{"extra-close", `{"tab_id":1}}`, "one } too many"},
	} {
		add("structure."+s.name+".arguments", fmt.Sprintf("Arguments with %s are refused", s.what), citeGrammar,
			argsLine(tx(s.args)), refused)
	}
	for _, s := range []struct{ name, old, new, what string }{
		{"trailing-comma-array", `}}}]`, `}}},]`, "a trailing comma after the last tool"},
		{"trailing-comma-object", `"enabled":true,`, `"enabled":true,,`, "two commas in a tool"},
		{"trailing-comma-fields", `"max_length":20}}`, `"max_length":20},}`, "a trailing comma in fields"},
		{"missing-comma", `"effect":"read",`, `"effect":"read" `, "two members of a tool without a comma"},
		{"missing-colon", `"effect":"read"`, `"effect" "read"`, "a member without its colon"},
		{"single-quotes", `"effect":"read"`, `'effect':'read'`, "single quotes"},
		{"comment", `[{"name"`, `[/* tools */{"name"`, "a comment"},
		{"unclosed-tool", `}}}]`, `}}]`, "a tool that is never closed"},
		{"unclosed-catalog", `}}}]`, `}}}`, "a catalog array that is never closed"},
	} {
		add("structure."+s.name+".catalog", fmt.Sprintf("A catalog with %s is refused", s.what), citeGrammar,
			catLine(catalogWith(s.old, s.new)), refused)
	}
	add("structure.empty-containers.arguments", "Empty containers are read: [] does not fit a string field", citeGrammar+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":[]}`)), code("INVALID_ARGUMENT_VALUE"))
	add("structure.empty-object.arguments", "An empty object is read: it lacks the required tab_id", citeGrammar+citeArgKeys,
		argsLine(tx(`{}`)), code("INVALID_ARGUMENT_KEYS"))
	add("trailing-data", `Data after the message (an extra "}") is refused, not ignored`, "SPEC.md §2 J3 (trailing data)",
		append(argsLine(tx(`{"tab_id":1}`)), tx("}")), refused)
	add("trailing-data.second-message", "A second message on the same line is refused", "SPEC.md §2 J3 (trailing data)",
		append(argsLine(tx(`{"tab_id":1}`)), tx(`{"type":"hello"}`)), refused)
	add("trailing-data.comma", "A comma after the message is refused", "SPEC.md §2 J3 (trailing data)",
		append(argsLine(tx(`{"tab_id":1}`)), tx(",")), refused)

	// Depth, counted over the whole line: the message is depth 1, the call
	// 2, the arguments 3 and the catalog 3 (a field spec at 6).
	add("depth.at-limit", "Nesting at exactly 64, counted over the whole line with the message object at depth 1, is read: the call gets the contract's answer", citeDepth,
		argsLine(tx(`{"tab_id":1,"format":`), rep("[", 61), rep("]", 61), tx("}")), code("INVALID_ARGUMENT_VALUE"))
	add("depth.scalar-at-limit", "A scalar inside arrays nested to exactly 64 adds no depth: read, and the call gets the contract's answer", citeDepth+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":`), rep("[", 61), tx("1"), rep("]", 61), tx("}")), code("INVALID_ARGUMENT_VALUE"))
	add("depth.string-at-limit", "A string inside objects nested to exactly 64 adds no depth: read", citeDepth+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":`), rep(`{"a":`, 61), tx(`"x"`), rep("}", 61), tx("}")), code("INVALID_ARGUMENT_VALUE"))
	add("depth.over-limit", "Nesting at 65, one over the limit, is refused", citeDepth,
		argsLine(tx(`{"tab_id":1,"format":`), rep("[", 62), rep("]", 62), tx("}")), refused)
	add("depth.objects-at-limit", `Objects nested to exactly 64 ({"a":{"a":...}}) are read`, citeDepth+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":`), rep(`{"a":`, 60), tx("{}"), rep("}", 60), tx("}")), code("INVALID_ARGUMENT_VALUE"))
	add("depth.objects-over-limit", "Objects nested to 65 are refused", citeDepth,
		argsLine(tx(`{"tab_id":1,"format":`), rep(`{"a":`, 61), tx("{}"), rep("}", 61), tx("}")), refused)
	add("depth.brackets-in-string", "Brackets inside a string add no depth: 70 of them are a string, too long for format (INVALID_ARGUMENT_VALUE), not nesting", citeDepth+citeArgValue,
		argsLine(tx(`{"tab_id":1,"format":"`), rep("[", 70), tx(`"}`)), code("INVALID_ARGUMENT_VALUE"))
	add("depth.after-escaped-backslash", `Nesting at 65 after a string ending in an escaped backslash ("a\\") is refused: the string ends at its quote`, citeDepth,
		argsLine(tx(`{"tab_id":1,"format":"a\\","x":`), rep("[", 62), rep("]", 62), tx("}")), refused)
	add("depth.mixed-over-limit", "Arrays and objects nested alternately to 65 are refused: both count", citeDepth,
		argsLine(tx(`{"tab_id":1,"format":`), rep(`[{"a":`, 31), tx("0"), rep("}]", 31), tx("}")), refused)
	add("depth.far-over-limit", "Arrays nested 100,000 deep in the arguments are refused like 65: a reader that recurses without a bound must not overflow its stack", citeDepth,
		argsLine(tx(`{"tab_id":1,"format":`), rep("[", 100000), rep("]", 100000), tx("}")), refused)
	specAt := strings.Index(textCatalog, `"max_length":16`)
	add("depth.catalog-far-over-limit", "A max_length nested 100,000 deep in the catalog is refused like 65", citeDepth,
		validateLine([]seg{tx(textCatalog[:specAt] + `"max_length":`), rep("[", 100000), rep("]", 100000), tx(textCatalog[specAt+len(`"max_length":16`):])}, []seg{tx(`{"tab_id":1}`)}), refused)
	add("depth.catalog-at-limit", "A max_length nested to exactly 64 (the field spec is at depth 6) is read, and is not an integer: INVALID_SPEC", citeDepth+citeCatSpec,
		validateLine([]seg{tx(textCatalog[:specAt] + `"max_length":`), rep("[", 58), rep("]", 58), tx(textCatalog[specAt+len(`"max_length":16`):])}, []seg{tx(`{"tab_id":1}`)}), code("INVALID_SPEC"))
	add("depth.catalog-over-limit", "A max_length nested to 65 is refused", citeDepth,
		validateLine([]seg{tx(textCatalog[:specAt] + `"max_length":`), rep("[", 59), rep("]", 59), tx(textCatalog[specAt+len(`"max_length":16`):])}, []seg{tx(`{"tab_id":1}`)}), refused)
	// The family "all" is a label a catalog may use; discover("all") still
	// lists every family (SPEC.md §3.1, D5). The two tools share no family
	// but "all".
	allCatalog := `[{"name":"a.tool","family":"all","effect":"read","enabled":true,"fields":{}},{"name":"b.tool","family":"reading","effect":"change","enabled":true,"fields":{}}]`
	desc := func(name, family, effect string) string {
		return `{"name": "` + name + `", "family": "` + family + `", "effect": "` + effect + `", "inputSchema": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}, "executes": false}`
	}
	discoverLine := func(rest string) []seg {
		return []seg{tx(callHead), seqSeg, tx(`,"call":{"op":"discover","catalog":`), tx(allCatalog), tx(rest + `}}`)}
	}
	add("family-all.lists-every-family", `With a tool whose family is literally "all", discover("all") still lists the tools of every family`, "SPEC.md §3.1 (the family all); §6 D5",
		discoverLine(`,"family":"all"`), `{"result": [`+desc("a.tool", "all", "read")+`, `+desc("b.tool", "reading", "change")+`]}`)
	// A family is a label, not a namespace: web.reading is not in web,
	// read is not reading.
	dottedCatalog := `[{"name":"a.tool","family":"web","effect":"read","enabled":true,"fields":{}},{"name":"b.tool","family":"web.reading","effect":"change","enabled":true,"fields":{}},{"name":"c.tool","family":"reading","effect":"read","enabled":true,"fields":{}}]`
	dottedLine := func(cat, family string) []seg {
		return []seg{tx(callHead), seqSeg, tx(`,"call":{"op":"discover","catalog":`), tx(cat), tx(`,"family":"` + family + `"}}`)}
	}
	add("family.dotted-parent", `discover("web") lists the tools of family web only, not those of web.reading: a family is one label, not a namespace`, "SPEC.md §6 D4, D5",
		dottedLine(dottedCatalog, "web"), `{"result": [`+desc("a.tool", "web", "read")+`]}`)
	add("family.dotted-child", `discover("web.reading") lists the tools of web.reading only`, "SPEC.md §6 D4, D5",
		dottedLine(dottedCatalog, "web.reading"), `{"result": [`+desc("b.tool", "web.reading", "change")+`]}`)
	add("family.only-dotted-children", `discover("web") where only web.reading has tools is UNKNOWN_FAMILY: no tool has family web`, "SPEC.md §6 D4",
		dottedLine(strings.Replace(dottedCatalog, `"family":"web",`, `"family":"reading",`, 1), "web"), code("UNKNOWN_FAMILY"))
	add("family.prefix", `discover("read") is UNKNOWN_FAMILY beside a family reading: families match whole`, "SPEC.md §6 D4",
		dottedLine(dottedCatalog, "read"), code("UNKNOWN_FAMILY"))
	// The catalog's limit: 1000 tools, every one listed (no page of 100),
	// and 1001 refused.
	tools := func(n int) (string, string) {
		var cat, res []string
		for i := range n {
			name := fmt.Sprintf("t%d", i)
			cat = append(cat, `{"name":"`+name+`","family":"x","effect":"read","enabled":true,"fields":{}}`)
			res = append(res, desc(name, "x", "read"))
		}
		return "[" + strings.Join(cat, ",") + "]", "[" + strings.Join(res, ", ") + "]"
	}
	cat1000, res1000 := tools(1000)
	add("catalog.tools-at-limit", `A catalog of 1000 tools, the limit, is valid, and discover("all") lists every one of them in catalog order`, "SPEC.md §5 C1 (at most 1000 tools); §6 D5",
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"discover","catalog":` + cat1000 + `,"family":"all"}}`)}, `{"result": `+res1000+`}`)
	cat1001, _ := tools(1001)
	add("catalog.tools-over-limit", "A catalog of 1001 tools, one over the limit, is refused: INVALID_CATALOG", "SPEC.md §5 C1 (at most 1000 tools)",
		[]seg{tx(callHead), seqSeg, tx(`,"call":{"op":"discover","catalog":` + cat1001 + `,"family":"all"}}`)}, code("INVALID_CATALOG"))
	add("family-all.not-in-other-families", `A tool whose family is literally "all" is not listed by discover("reading"): only discover("all") lists it`, "SPEC.md §3.1 (the family all); §6 D5",
		discoverLine(`,"family":"reading"`), `{"result": [`+desc("b.tool", "reading", "change")+`]}`)
	add("family-all.by-name", `discover("all", name) of the tool of another family finds it, though a tool's family is "all"`, "SPEC.md §3.1 (the family all); §6 D5",
		discoverLine(`,"family":"all","name":"b.tool"`), `{"result": [`+desc("b.tool", "reading", "change")+`]}`)
	return cs
}

// A Level is the files of one generated level: its folder under
// conformance/ and each file's name and bytes.
type Level struct {
	Dir   string
	Files map[string][]byte
}

// Levels returns the text, protocol and format 2 levels as the tables generate them;
// a table with two cases of one id is an error.
func Levels() ([]Level, error) {
	text := map[string][]byte{}
	for _, c := range textTable() {
		name := c.id + ".json"
		if _, dup := text[name]; dup {
			return nil, fmt.Errorf("the text table has two cases %s", c.id)
		}
		text[name] = encodeCase(c, nil)
	}
	protocol := map[string][]byte{}
	for _, c := range protocolTable() {
		for i := range c.lines {
			switch c.lines[i].end {
			case "":
				c.lines[i].end = "\n"
			case "none":
				c.lines[i].end = ""
			}
		}
		name := c.id + ".json"
		if _, dup := protocol[name]; dup {
			return nil, fmt.Errorf("the protocol table has two cases %s", c.id)
		}
		protocol[name] = encodeProtocolCase(c)
	}
	format2 := map[string][]byte{}
	for _, c := range format2Table() {
		name := c.id + ".json"
		if _, dup := format2[name]; dup {
			return nil, fmt.Errorf("the format 2 table has two cases %s", c.id)
		}
		data, err := encodeF2Case(c)
		if err != nil {
			return nil, err
		}
		format2[name] = data
	}
	return []Level{{Dir: "text", Files: text}, {Dir: "protocol", Files: protocol}, {Dir: "format2", Files: format2}}, nil
}
