package conformance

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestTapeEscapedKeys: objects whose keys mix plain and escaped ones, small
// (checked key by key) and large (checked by sorting), are read without a
// false duplicate and without writing over the text, and a real duplicate
// spelled with an escape is found. (Decoding an escaped key into a buffer
// that was a slice of the text once wrote over the text: a false duplicate,
// or a panic.)
func TestTapeEscapedKeys(t *testing.T) {
	var large strings.Builder
	large.WriteString("{")
	for i := range 20 {
		fmt.Fprintf(&large, `"k%d":{"type":"string"},`, i)
	}
	tests := []struct {
		text, dup string
	}{
		{`{"ab":1,"x":2,"\u0063d":3}`, ""},
		{`{"ab":1,"xyz":2,"\u0063":3,"\u0064e":4}`, ""},
		{large.String() + `"\u0061b":1,"\uff50age":2}`, ""},
		{large.String() + `"ab":1,"\u0061b":2}`, "ab"},
		{`{"ab":1,"x":2,"\u0061b":3}`, "ab"},
	}
	for _, tt := range tests {
		data := []byte(tt.text)
		before := bytes.Clone(data)
		_, err := parseTape(data)
		switch {
		case tt.dup == "" && err != nil:
			t.Errorf("%.60s...: %v, want it read", tt.text, err)
		case tt.dup != "" && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("duplicate object key %q", tt.dup))):
			t.Errorf("%.60s...: %v, want the duplicate %q", tt.text, err, tt.dup)
		}
		if !bytes.Equal(data, before) {
			t.Errorf("%.60s...: the text was changed to %.60s...", tt.text, data)
		}
	}
}
