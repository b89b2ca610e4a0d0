package sign

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckScryptMemory: a limit that leaves less than scrypt needs is a
// *MemoryError naming it, before any password is asked for; enough room,
// or no limit, is nil.
func TestCheckScryptMemory(t *testing.T) {
	defer func(f func() []memoryLimit) { limits = f }(limits)
	tests := []struct {
		limits []memoryLimit
		want   string
	}{
		{nil, ""},
		{[]memoryLimit{{"ulimit -v", 4 << 30}}, ""},
		{[]memoryLimit{{"ulimit -v", 4 << 30}, {"memory.max", 512 << 20}}, "memory.max leaves this process 512 MiB"},
		{[]memoryLimit{{"ulimit -v", -5}}, "ulimit -v leaves this process 0 MiB"},
	}
	for _, tt := range tests {
		limits = func() []memoryLimit { return tt.limits }
		err := CheckScryptMemory(ScryptMemory)
		var me *MemoryError
		if tt.want == "" && err != nil || tt.want != "" && (!errors.As(err, &me) || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("limits %v: %v, want %q", tt.limits, err, tt.want)
		}
	}
	// A key's own memory limit decides: this one's is 1 MiB, so a limit
	// of 200 MiB is room enough, and one of 100 KiB is not (before the
	// password is asked for).
	kp, err := encryptCheaply("pw")
	if err != nil {
		t.Fatal(err)
	}
	limits = func() []memoryLimit { return []memoryLimit{{"memory.max", 200 << 20}} }
	if _, err := ParseSecretKey("k", kp.Secret, func() (string, error) { return "pw", nil }); err != nil {
		t.Errorf("a cheap key under a 200 MiB limit: %v", err)
	}
	limits = func() []memoryLimit { return []memoryLimit{{"memory.max", 100 << 10}} }
	asked := false
	_, err = ParseSecretKey("k", kp.Secret, func() (string, error) { asked = true; return "pw", nil })
	if !errors.As(err, new(*MemoryError)) || asked {
		t.Errorf("a cheap key under a 100 KiB limit: %v (password asked: %v), want a *MemoryError first", err, asked)
	}
	if _, err := GenerateKey(KeyOptions{Password: "pw"}); !errors.As(err, new(*MemoryError)) {
		t.Errorf("GenerateKey under a 100 KiB limit: %v, want a *MemoryError", err)
	}
}
