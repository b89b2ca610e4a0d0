package conformance

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
)

// serveLine answers one line as Serve does in a session whose hello came
// (a hello is answered as the first one): for fake ports that answer line
// by line.
func serveLine(line []byte, target Target, info PortInfo) []byte {
	s := &session{target: target, info: info, greeted: true}
	if msg, err := catalog.ParseJSON(line); err == nil {
		if t, _ := msg.Lookup("type"); t.String() == `"hello"` {
			s.greeted = false
		}
	}
	return s.answer(line, false)
}

// A CornerLine is one line of [ProtocolCorners] and the reply it must get.
type CornerLine struct {
	Line string
	// Want is the reply, compared as JSON after [normalizeReply]: an error
	// line's message, an error's detail and a not_implemented reason are
	// "*", a hello's port is "*".
	Want   string
	Reason string
}

const discoverAll = `{"op":"discover","catalog":[],"family":"all"}`

// ProtocolCorners is one session, from its first line, of lines that test
// the rules of PROTOCOL.md's "Every line gets one reply": every port of the
// repository (catalogkit port, the Python port) must answer each line with
// exactly the reply given, and the last line has no newline.
var ProtocolCorners = []CornerLine{
	{`{"type":"call","seq":1,"call":` + discoverAll + `}`, `{"type":"error","seq":1,"message":"*"}`, "a call before the hello is an error line; the session goes on"},
	{``, `{"type":"error","seq":null,"message":"*"}`, "an empty line gets an error line"},
	{`{"type":"hello","protocol":"catalogkit-conformance/1"}`, `{"type":"hello","protocol":"catalogkit-conformance/1","port":"*"}`, "the hello"},
	{`{"type":"hello","protocol":"catalogkit-conformance/1"}`, `{"type":"error","seq":null,"message":"*"}`, "a second hello is an error line"},
	{" \t ", `{"type":"error","seq":null,"message":"*"}`, "a line of white space is empty"},
	{`not json`, `{"type":"error","seq":null,"message":"*"}`, "a line that is not JSON, with no seq to read"},
	{`[1,2]`, `{"type":"error","seq":null,"message":"*"}`, "a message that is not an object"},
	{`{"type":"call","seq":2,"call":` + discoverAll + `}`, `{"type":"reply","seq":2,"outcome":{"result":[]}}`, "a call after all that is answered"},
	{`{"type":"call","seq":3,"call":[]}`, `{"type":"error","seq":3,"message":"*"}`, "a call that is not an object"},
	{`{"type":"call","seq":4,"call":{"family":"all"}}`, `{"type":"error","seq":4,"message":"*"}`, "a call without an op"},
	{`{"type":"call","seq":5,"call":{"op":7}}`, `{"type":"error","seq":5,"message":"*"}`, "an op that is not a string"},
	{`{"type":"call","seq":6,"call":{"op":"frobnicate"}}`, `{"type":"reply","seq":6,"outcome":{"not_implemented":"*"}}`, "an unknown op is not implemented"},
	{`{"type":"call","seq":7,"call":{"op":"mutate_and_repeat","call":{"op":"mutate_and_repeat","call":` + discoverAll + `}}}`, `{"type":"error","seq":7,"message":"*"}`, "a nested mutate_and_repeat is an error line"},
	{`{"type":"call","seq":8,"call":{"op":"mutate_and_repeat","call":{"op":"frobnicate"}}}`, `{"type":"reply","seq":8,"outcome":{"not_implemented":"*"}}`, "an unknown inner op is not implemented"},
	{`{"type":"call","seq":9,"call":{"op":"mutate_and_repeat","call":"discover"}}`, `{"type":"error","seq":9,"message":"*"}`, "an inner call that is not an object"},
	{`{"type":"call","seq":10,"call":{"op":"mutate_and_repeat","call":{"op":null}}}`, `{"type":"error","seq":10,"message":"*"}`, "an inner call without a string op"},
	{`{"type":"call","seq":11,"call":{"op":"mutate_and_repeat","call":` + discoverAll + `}}`, `{"type":"reply","seq":11,"outcome":{"result":{"first":[],"second":[],"catalog":[],"arguments":null}}}`, "a mutate_and_repeat"},
	{`{"type":"call","seq":0,"call":` + discoverAll + `}`, `{"type":"error","seq":null,"message":"*"}`, "seq 0 is not positive"},
	{`{"type":"call","seq":"12","call":` + discoverAll + `}`, `{"type":"error","seq":null,"message":"*"}`, "a seq that is a string"},
	{`{"type":"call","seq":12.0,"call":` + discoverAll + `}`, `{"type":"error","seq":null,"message":"*"}`, "a seq that is not an integer literal"},
	{`{"type":"call","call":` + discoverAll + `}`, `{"type":"error","seq":null,"message":"*"}`, "a call without a seq"},
	{`{"type":"bye","seq":13}`, `{"type":"error","seq":13,"message":"*"}`, "an unknown type, with a readable seq"},
	{`{"seq":14}`, `{"type":"error","seq":14,"message":"*"}`, "no type"},
	{`{"type":"call","seq":15,"call":` + discoverAll + `,"call":{}}`, `{"type":"reply","seq":15,"outcome":{"error":"INVALID_JSON","detail":"*"}}`, "a refused line whose seq can be read gets INVALID_JSON"},
	{`{"seq":16,"type":"call","call":{},"call":{}}`, `{"type":"error","seq":null,"message":"*"}`, "a refused line that does not start as the runner's lines do: its seq is not read"},
	{`{"type":"call","seq":17,"call":` + discoverAll + `} x`, `{"type":"reply","seq":17,"outcome":{"error":"INVALID_JSON","detail":"*"}}`, "trailing data is refused"},
	{`{"type":"call","seq":18,"call":` + discoverAll, `{"type":"reply","seq":18,"outcome":{"error":"INVALID_JSON","detail":"*"}}`, "a cut line is refused"},
	{"\xef\xbb\xbf" + `{"type":"call","seq":19,"call":` + discoverAll + `}`, `{"type":"error","seq":null,"message":"*"}`, "a byte order mark hides the seq"},
	{`{"type":"call","seq":20,"call":` + discoverAll + "}\r", `{"type":"reply","seq":20,"outcome":{"result":[]}}`, "a \\r before the \\n is white space"},
	{`{"type":"call","seq":123456789012345678901234567890,"call":` + discoverAll + `}`, `{"type":"reply","seq":123456789012345678901234567890,"outcome":{"result":[]}}`, "a seq of any size is echoed exactly"},
	{`{"type":"call","seq":21,"call":` + discoverAll + `,"trace":"x"}`, `{"type":"reply","seq":21,"outcome":{"result":[]}}`, "other members of a message are ignored"},
	{`{"type":"call","seq":22,"call":` + discoverAll + `}`, `{"type":"reply","seq":22,"outcome":{"result":[]}}`, "a last line without a newline is answered"},
}

// CornerInput returns the bytes of the [ProtocolCorners] session.
func CornerInput() []byte {
	var b []byte
	for i, c := range ProtocolCorners {
		b = append(b, c.Line...)
		if i < len(ProtocolCorners)-1 {
			b = append(b, '\n')
		}
	}
	return b
}

// CheckCornerReplies checks a port's output for the [ProtocolCorners]
// session: exactly one valid reply line per line, each the one wanted.
func CheckCornerReplies(t *testing.T, who string, out []byte) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(ProtocolCorners) {
		t.Errorf("%s wrote %d lines for %d lines of input:\n%s", who, len(lines), len(ProtocolCorners), out)
	}
	for i, c := range ProtocolCorners[:min(len(lines), len(ProtocolCorners))] {
		got, err := parseJSON([]byte(lines[i]))
		if err != nil {
			t.Errorf("%s: line %d (%s): reply is not valid JSON (%v): %s", who, i, c.Reason, err, lines[i])
			continue
		}
		if !equalJSON(mustParse(c.Want), normalizeReply(got)) {
			t.Errorf("%s: line %d (%s):\n  sent %q\n  got  %s\n  want %s", who, i, c.Reason, c.Line, lines[i], c.Want)
		}
	}
}

// normalizeReply replaces the parts of a reply that are free text with "*".
func normalizeReply(n *node) *node {
	n = n.clone()
	star := newString("*")
	if t, _ := n.lookup("type"); t != nil && t.str == "error" {
		if _, ok := n.lookup("message"); ok {
			n.set("message", star)
		}
	}
	if t, _ := n.lookup("type"); t != nil && t.str == "hello" {
		if _, ok := n.lookup("port"); ok {
			n.set("port", star)
		}
	}
	if o, ok := n.lookup("outcome"); ok {
		for _, k := range []string{"detail", "not_implemented"} {
			if _, ok := o.lookup(k); ok {
				o.set(k, star)
			}
		}
	}
	return n
}

// TestServeCorners runs the ProtocolCorners session through Serve.
func TestServeCorners(t *testing.T) {
	var out bytes.Buffer
	if err := Serve(bytes.NewReader(CornerInput()), &out, GoTarget("t"), PortInfo{Name: "n", Language: "Go", Version: "v"}); err != nil {
		t.Fatal(err)
	}
	CheckCornerReplies(t, "Serve", out.Bytes())
}

// TestServeLongLine checks that a line over the text layer's limit is
// refused with its seq, and that the session goes on.
func TestServeLongLine(t *testing.T) {
	long := `{"type":"call","seq":2,"call":{"op":"discover","catalog":[],"family":"` + strings.Repeat("a", catalog.MaxInputBytes) + `"}}`
	in := strings.Join([]string{
		`{"type":"hello","protocol":"catalogkit-conformance/1"}`,
		long,
		`{"type":"call","seq":3,"call":` + discoverAll + `}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := Serve(strings.NewReader(in), &out, GoTarget("t"), PortInfo{Name: "n", Language: "Go", Version: "v"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], `{"type":"reply","seq":2,"outcome":{"error":"INVALID_JSON","detail":"the line is longer than the limit`) ||
		lines[2] != `{"type":"reply","seq":3,"outcome":{"result":[]}}` {
		t.Errorf("Serve wrote %q, want the hello, INVALID_JSON for seq 2 and a result for seq 3", lines)
	}
}

// TestServedTarget checks the in-process LineTarget: calls and raw lines go
// through Serve, an error line comes back as a line, and Close ends Serve.
func TestServedTarget(t *testing.T) {
	s := Served(GoTarget("t"))
	info, err := s.Hello()
	if err != nil || info.Name != "catalogkit" {
		t.Fatalf("Hello() = %+v, %v, want catalogkit's hello", info, err)
	}
	out, err := s.Call([]byte(discoverAll))
	if err != nil || string(out) != `{"result":[]}` {
		t.Errorf("Call = %s, %v, want {\"result\":[]}", out, err)
	}
	line, err := s.CallLine(func(seq int64) []byte { return []byte("\xff") })
	if err != nil || !strings.HasPrefix(string(line), `{"type":"error","seq":null,`) {
		t.Errorf("CallLine(0xff) = %s, %v, want an error line", line, err)
	}
	if _, err := s.CallLine(func(seq int64) []byte { return []byte("{}\n{}") }); err == nil {
		t.Errorf("CallLine with a newline in the line succeeded, want an error")
	}
	line, err = s.CallLine(func(seq int64) []byte {
		return []byte(`{"type":"call","seq":` + strconv.FormatInt(seq, 10) + `,"call":` + discoverAll + `}`)
	})
	if err != nil || !strings.HasSuffix(string(line), `"outcome":{"result":[]}}`) {
		t.Errorf("CallLine(a call) = %s, %v, want a reply", line, err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close() = %v", err)
	}
}
