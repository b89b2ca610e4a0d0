package conformance

import "strings"

// Number literals in reports. The cases and the ports' replies carry number
// literals no standard reader takes as they are: a 5001-digit integer
// (Python's json refuses more than 4300 digits), 1e400 (Go's encoding/json
// refuses it into any, JavaScript and Python make it Infinity), -1e-400
// (every double reader makes it -0), 2^53+1 (JavaScript makes it 2^53). The
// reports echo those values (call, want, got, second; the diff and messages
// quote them), so they rewrite the ones a reader could refuse or change.

// numberMember is the only member of the object that stands in the JSON
// report for a number literal [portableNumber] does not keep.
//
// An object, not a string: a string is a value a case or a port may really
// have (a port that echoes 1e400 as "1e400" is wrong, and its report must
// show that), and a reader must never take one for the other. No case has
// a "$number" key (their only $-key is a catalog's "$ref").
const numberMember = "$number"

// portableNumber reports whether the JSON number literal lit reads as
// itself with every common standard reader: it has at most 15 significant
// digits (the digits from the first nonzero to the last nonzero, so that
// a double holds it to the last digit: 15 is DBL_DIG) and it is zero or its
// magnitude is in [1e-307, 1e308) (a normal double, never Infinity nor a
// subnormal or zero). An integer literal that passes has at most 308 digits,
// under Python's 4300.
func portableNumber(lit []byte) bool {
	s := lit
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	mant, exp := s, []byte(nil)
	for i, c := range s {
		if c == 'e' || c == 'E' {
			mant, exp = s[:i], s[i+1:]
			break
		}
	}
	intLen := len(mant) // digits before the point
	first, last := -1, -1
	at := 0 // index among the digits of the mantissa, the point left out
	for i, c := range mant {
		if c == '.' {
			intLen = i
			continue
		}
		if c != '0' {
			if first < 0 {
				first = at
			}
			last = at
		}
		at++
	}
	if first < 0 {
		return true // zero, whatever its exponent
	}
	if last-first+1 > 15 {
		return false
	}
	// The value is d.ddd × 10^(intLen-1-first+e).
	e, neg := int64(0), false
	if len(exp) > 0 && (exp[0] == '+' || exp[0] == '-') {
		neg = exp[0] == '-'
		exp = exp[1:]
	}
	for _, c := range exp {
		if e < 1_000_000_000 { // far past the range: stop before overflow
			e = e*10 + int64(c-'0')
		}
	}
	if neg {
		e = -e
	}
	sci := int64(intLen-1-first) + e
	return -307 <= sci && sci <= 307
}

// portableNumbers returns the JSON document doc with every number literal
// [portableNumber] does not keep replaced by {"$number": "LITERAL"}, the
// literal cut in the middle as [showLine] cuts a request line when it is
// longer (" <... N bytes ...> " in place of all but its first and last 300
// bytes). Every other byte is kept.
func portableNumbers(doc []byte) []byte {
	return rewriteNumbers(doc, true, func(lit []byte) ([]byte, bool) {
		if portableNumber(lit) {
			return nil, false
		}
		return []byte(`{"` + numberMember + `": "` + showLine(lit) + `"}`), true
	})
}

// cutNumbers returns s, a diff, a call or a message of a report for people,
// with every run of number characters longer than a request line may be
// cut as [showLine] cuts the line: an expected value of 5000 digits is
// shown as its first and last 300.
func cutNumbers(s string) string {
	out := rewriteNumbers([]byte(s), false, func(lit []byte) ([]byte, bool) {
		if cut := showLine(lit); len(cut) != len(lit) {
			return []byte(cut), true
		}
		return nil, false
	})
	return string(out)
}

// rewriteNumbers returns text with each number literal for which repl
// returns true replaced by what it returns; every other byte is kept. A
// number literal starts with a digit, or a '-' followed by a digit, and
// runs on over digits, '.', 'e', 'E', '+' and '-'. When isJSON is set, text
// is valid JSON and nothing inside a string is a number; otherwise text is
// anything (a diff, a message) and a run of digits inside quotes counts too.
func rewriteNumbers(text []byte, isJSON bool, repl func(lit []byte) ([]byte, bool)) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case isJSON && c == '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			i++ // the closing quote
		case isDigit(c) || c == '-' && i+1 < len(text) && isDigit(text[i+1]):
			j := i + 1
			for j < len(text) && (isDigit(text[j]) || strings.IndexByte(".eE+-", text[j]) >= 0) {
				j++
			}
			if r, ok := repl(text[i:j]); ok {
				out = append(append(out, text[last:i]...), r...)
				last = j
			}
			i = j
		default:
			i++
		}
	}
	if out == nil {
		return text
	}
	return append(out, text[last:]...)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
