package levelgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// How a generated case is written: its lines as string pieces, with the
// bytes a reader cannot see written as hex pieces.

// hexCase tells apart ids that differ only by case: "True" is "true-cap".
func hexCase(s string) string {
	switch {
	case s == strings.ToUpper(s) && s != strings.ToLower(s) && len(s) > 1:
		return "-upper"
	case s != strings.ToLower(s):
		return "-cap"
	}
	return ""
}

// encodeCase writes a generated case file: pretty in the layout of the
// hand-written files, one piece a line.
func encodeCase(c genCase, schemaKeys func(b *bytes.Buffer)) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"id\": %s,\n  \"title\": %s,\n  \"spec\": %s,\n", jsonString(c.id), jsonString(c.title), jsonString(c.spec))
	if schemaKeys != nil {
		schemaKeys(&b)
	}
	b.WriteString("  \"line\": [\n")
	writePieces(&b, c.line, "    ")
	fmt.Fprintf(&b, "  ],\n  \"expect\": %s\n}\n", c.expect)
	return b.Bytes()
}

// writePieces writes segments as the pieces of a line, one a line, each
// line but the last ended by a comma.
func writePieces(b *bytes.Buffer, line []seg, indent string) {
	var pieces []string
	for _, s := range line {
		switch {
		case s.seq:
			pieces = append(pieces, `{"seq": true}`)
		case s.times > 0:
			pieces = append(pieces, fmt.Sprintf(`{"repeat": %s, "times": %d}`, jsonString(s.repeat), s.times))
		default:
			pieces = append(pieces, textPieces(s.text)...)
		}
	}
	for i, p := range pieces {
		b.WriteString(indent + p)
		if i < len(pieces)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
}

// textPieces splits text into string pieces and hex pieces: bytes that are
// not UTF-8, and characters that do not show, go in hex.
func textPieces(text string) []string {
	var out []string
	var str strings.Builder
	var hex []string
	flush := func() {
		if str.Len() > 0 {
			out = append(out, jsonString(str.String()))
			str.Reset()
		}
		if len(hex) > 0 {
			out = append(out, fmt.Sprintf(`{"hex": "%s"}`, strings.Join(hex, " ")))
			hex = nil
		}
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		visible := !(r == utf8.RuneError && size == 1) && (unicode.IsPrint(r) || r == ' ')
		if visible {
			if len(hex) > 0 {
				flush()
			}
			str.WriteString(text[i : i+size])
		} else {
			if str.Len() > 0 {
				flush()
			}
			for _, c := range []byte(text[i : i+size]) {
				hex = append(hex, fmt.Sprintf("%02x", c))
			}
		}
		i += size
	}
	flush()
	return out
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
