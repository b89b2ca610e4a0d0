// Package termsafe escapes text that a hostile party controls (an archive's
// names and contents, a port's output) before it reaches a terminal or a
// JSON report: control characters, bidirectional formatting characters and
// invalid UTF-8 never pass through raw.
//
// It is the one terminal escaper of catalogkit: the release side (verify,
// diff) and the conformance runner both use it.
package termsafe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Printable returns s with every byte or character that could act on a
// terminal escaped, Go style: control characters (NUL, ESC, CR, tab, DEL,
// and the C1 range) as \x00 or \u0085, bidirectional formatting characters
// as \u202e, and each byte of invalid UTF-8 as \xff. Backslashes are left
// alone: the result is for reading, not for decoding.
func Printable(s string) string { return printable(s, false) }

// PrintableLines is [Printable] for multi-line text such as a port's
// stderr: it keeps newlines and tabs.
func PrintableLines(s string) string { return printable(s, true) }

func printable(s string, lines bool) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || Unsafe(r) && !(lines && (r == '\n' || r == '\t')) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case lines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Unsafe reports whether r could act on a terminal or reorder the text
// around it: what [Printable] escapes.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, 0x80 <= r && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true // bidirectional formatting
	}
	return false
}

// Escape rewrites, in valid UTF-8 text, every character at or above DEL
// that [Unsafe] names with format (given the rune): a JSON or XML escape
// that keeps the character's meaning. Characters below DEL are left alone:
// encoding/json and encoding/xml have escaped them already, or they are the
// document's own layout.
func Escape(text []byte, format string) []byte {
	var out []byte
	last := 0
	for i, r := range string(text) {
		if r >= 0x7f && Unsafe(r) {
			out = fmt.Appendf(append(out, text[last:i]...), format, r)
			last = i + utf8.RuneLen(r)
		}
	}
	if out == nil {
		return text
	}
	return append(out, text[last:]...)
}

// JSON is [Escape] for the output of encoding/json: DEL, C1 controls and
// bidirectional formatting characters become \u escapes, so that the
// document decodes to the same values and is safe to print.
func JSON(doc []byte) []byte { return Escape(doc, `\u%04x`) }

// WriteJSON writes v to w as indented JSON (encoding/json's encoder, two
// spaces), escaped by [JSON]: the one way a report that holds strings a
// hostile party controls is written as JSON.
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(JSON(buf.Bytes()))
	return err
}

// Cut returns s, or when s is longer than n bytes its longest prefix of at
// most n bytes that ends at a character boundary: a message quotes a
// bounded part of what a hostile party sent, and never half a character.
func Cut[T string | []byte](s T, n int) T {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
