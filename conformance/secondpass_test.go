package conformance

import (
	"bytes"
	"strings"
	"testing"
)

// positionCache is an implementation that caches its outcomes by the
// position of the call in the session: right for the first n calls, and
// then it answers call i with the outcome of call i-n, as a port whose
// cache key is a counter would.
type positionCache struct {
	n     int
	calls int
	seen  [][]byte
}

func (p *positionCache) Info() PortInfo { return PortInfo{Name: "cache", Language: "Go", Version: "0"} }

func (p *positionCache) Call(call []byte) ([]byte, error) {
	p.calls++
	if p.calls > p.n {
		return p.seen[(p.calls-1)%p.n], nil
	}
	out, err := GoTarget("cache").Call(call)
	p.seen = append(p.seen, out)
	return out, err
}

// lengthCache caches outcomes by the length of the call.
type lengthCache struct{ seen map[int][]byte }

func (l *lengthCache) Info() PortInfo { return PortInfo{Name: "cache", Language: "Go", Version: "0"} }

func (l *lengthCache) Call(call []byte) ([]byte, error) {
	if out, ok := l.seen[len(call)]; ok {
		return out, nil
	}
	out, err := GoTarget("cache").Call(call)
	l.seen[len(call)] = out
	return out, err
}

// TestSecondPass checks that the plain run sends its checks a second time,
// in another order, and fails a case whose second outcome differs.
func TestSecondPass(t *testing.T) {
	cases := mustCases(t)
	checks := 0
	for _, c := range cases {
		checks += len(c.Checks)
	}
	tests := []struct {
		name     string
		target   Target
		once     bool
		wantOK   bool
		wantFail bool // some case failed in the second pass only
		reason   string
	}{
		{"correct", GoTarget("t"), false, true, false, "a correct implementation agrees with itself"},
		{"position cache", &positionCache{n: checks}, false, false, true, "answers by position pass the first pass and fail the second"},
		{"position cache, once", &positionCache{n: checks}, true, true, false, "without the second pass nothing catches it"},
		{"length cache", &lengthCache{seen: map[int][]byte{}}, false, false, false, "a cache by length is caught (in the first pass already, or the second)"},
	}
	for _, tt := range tests {
		rep := (&Runner{Target: tt.target, Once: tt.once}).RunCases(cases)
		if rep.OK() != tt.wantOK {
			var b bytes.Buffer
			rep.WriteText(&b)
			t.Errorf("%s: OK %v, want %v (%s)\n%s", tt.name, rep.OK(), tt.wantOK, tt.reason, b.String())
		}
		second := 0
		for _, c := range rep.Cases {
			if strings.Contains(c.Message, "the second pass disagrees with the first") {
				second++
				for _, chk := range c.Checks {
					if strings.HasPrefix(chk.Message, "second pass") && (chk.Second == nil || !strings.Contains(chk.Message, "the first pass got")) {
						t.Errorf("%s: %s check %d: message %q, second %s: want both outcomes", tt.name, c.ID, chk.Index, chk.Message, chk.Second)
					}
				}
			}
		}
		if (second > 0) != tt.wantFail {
			t.Errorf("%s: %d cases failed by the second pass, want some: %v (%s)", tt.name, second, tt.wantFail, tt.reason)
		}
		if rep.Passed+rep.Failed+rep.Skipped != len(rep.Cases) {
			t.Errorf("%s: %d passed + %d failed + %d skipped != %d cases", tt.name, rep.Passed, rep.Failed, rep.Skipped, len(rep.Cases))
		}
	}
	// The text report shows both outcomes.
	rep := (&Runner{Target: &positionCache{n: checks}}).RunCases(cases)
	var b bytes.Buffer
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "fail: second pass (the cases again, in reverse order, on the same port): got another outcome; the first pass got {") {
		t.Errorf("the text report does not show the second pass's disagreement:\n%s", b.String())
	}
}
