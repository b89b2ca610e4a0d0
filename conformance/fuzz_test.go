package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

// fuzzLimit is the reply limit of FuzzPortReply: small, so that inputs cross
// it.
const fuzzLimit = 4 << 10

// FuzzPortReply feeds arbitrary bytes to the runner as a port's stdout: the
// first line is the hello, every later line the reply to the next call. For
// every input the runner must classify every line (a hello or an error; an
// outcome judged PASS, FAIL or SKIP, or an ERROR), never read a line past the
// limit, keep only valid JSON in the report, and write reports that are safe
// on a terminal; a panic or a hang fails the fuzzer. Its seeds, in
// testdata/fuzz/FuzzPortReply, run with every go test; go test -fuzz
// FuzzPortReply ./conformance fuzzes (its argument is a plain []byte, as
// continuous fuzzing services want).
func FuzzPortReply(f *testing.F) {
	cases, err := Cases()
	if err != nil {
		f.Fatal(err)
	}
	var checks []*Check
	for _, c := range cases {
		checks = append(checks, c.Checks...)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := make(chan lineOrErr, 1)
		quit := make(chan struct{})
		defer close(quit)
		go readLines(bytes.NewReader(data), lines, quit, fuzzLimit)
		rep := &Report{}
		for seq := int64(0); ; seq++ {
			l := <-lines
			if l.err != nil {
				if errors.Is(l.err, errLineTooLong) && !slices.ContainsFunc(bytes.Split(data, []byte("\n")), func(l []byte) bool { return len(l) > fuzzLimit }) {
					t.Fatalf("line refused as longer than %d bytes, but none is", fuzzLimit)
				}
				break
			}
			if len(l.line) > fuzzLimit {
				t.Fatalf("line of %d bytes read past the limit of %d", len(l.line), fuzzLimit)
			}
			if seq == 0 {
				info, err := parseHello(l.line)
				if err == nil && (info.Name == "" || info.Language == "" || info.Version == "") {
					t.Fatalf("hello accepted with an empty field: %+v", info)
				}
				rep.Port = info
				continue
			}
			chk := checks[int(seq)%len(checks)]
			cr := &CheckResult{Index: int(seq), Call: json.RawMessage(chk.Display()), Want: chk.Expect()}
			res := &CaseResult{ID: "fuzz", Checks: []*CheckResult{cr}}
			rep.Cases = append(rep.Cases, res)
			out, err := decodeReply(l.line, seq)
			if err != nil {
				cr.Status, cr.Message = Error, err.Error()
				res.Status, res.Message = Error, err.Error()
				continue
			}
			if !json.Valid(out) || !bytes.Contains(l.line, out) {
				t.Fatalf("outcome %q of reply %q is not valid JSON text from the line", out, l.line)
			}
			cr.Got = out
			(&Runner{}).judge(chk.expect, cr, out, LineDiff)
			switch cr.Status {
			case Pass, Fail, Skip, Error:
			default:
				t.Fatalf("reply %q judged %q, want PASS, FAIL, SKIP or ERROR", l.line, cr.Status)
			}
			res.Status, res.Message = cr.Status, cr.Message
		}
		var text, js bytes.Buffer
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if bad := unsafeByte(text.Bytes()); bad != "" {
			t.Fatalf("text report: %s:\n%s", bad, text.Bytes())
		}
		if err := rep.WriteJSON(&js); err != nil || !json.Valid(js.Bytes()) {
			t.Fatalf("JSON report: %v", err)
		}
	})
}
