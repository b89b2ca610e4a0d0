package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
)

// replyShapes are the shapes of reply that cost most per byte, 8 MiB each.
func replyShapes() []struct {
	name string
	line []byte
} {
	const size = 8 << 20
	repeat := func(open, unit, last, close string) []byte {
		b := []byte(`{"type":"reply","seq":1,"outcome":{"result":` + open)
		b = append(b, bytes.Repeat([]byte(unit), size/len(unit))...)
		return append(b, last+close+`}}`...)
	}
	var keys bytes.Buffer
	keys.WriteString(`{"type":"reply","seq":1,"outcome":{"result":{`)
	for i := 0; keys.Len() < size; i++ {
		fmt.Fprintf(&keys, `"%07x":0,`, i)
	}
	keys.WriteString(`"end":0}}}`)
	return []struct {
		name string
		line []byte
	}{
		{"zeros", repeat("[", "0,", "0", "]")},
		{"empty-arrays", repeat("[", "[],", "[]", "]")},
		{"empty-objects", repeat("[", "{},", "{}", "]")},
		{"empty-strings", repeat("[", `"",`, `""`, "]")},
		{"keys", keys.Bytes()},
		{"long-string", repeat(`"`, "a", "", `"`)},
	}
}

// BenchmarkReply measures what the runner allocates to check one reply line
// and judge its outcome (decodeReply, then judge), in bytes per byte of the
// line, for each costly shape; beside it, as anchors, a tree of the runner's
// own nodes (what it built before), catalog.ParseJSON, and encoding/json
// decoding into any.
func BenchmarkReply(b *testing.B) {
	cases, err := Cases()
	if err != nil {
		b.Fatal(err)
	}
	chk := cases[0].Checks[0]
	for _, shape := range replyShapes() {
		for _, how := range []struct {
			name string
			read func([]byte)
		}{
			{"runner", func(line []byte) {
				out, err := decodeReply(line, 1)
				if err != nil {
					b.Fatal(err)
				}
				(&Runner{}).judge(chk.expect, &CheckResult{}, out, LineDiff)
			}},
			{"tape", func(line []byte) {
				if _, err := parseTape(line); err != nil {
					b.Fatal(err)
				}
			}},
			{"tree", func(line []byte) { parseJSON(line) }},
			// catalog's strict reader, the one the issue of one JSON
			// reader proposed for replies: it keeps a copy of the line
			// and an 8-byte node a value, where the tape keeps 4.
			{"catalog-parsejson", func(line []byte) {
				if _, err := catalog.ParseJSON(line); err != nil {
					b.Fatal(err)
				}
			}},
			{"encoding-json", func(line []byte) {
				var v any
				json.Unmarshal(line, &v)
			}},
		} {
			b.Run(shape.name+"/"+how.name, func(b *testing.B) {
				b.SetBytes(int64(len(shape.line)))
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for b.Loop() {
					how.read(shape.line)
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(shape.line)), "allocB/B")
			})
		}
	}
}
