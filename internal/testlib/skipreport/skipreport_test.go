package skipreport

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReportAppends(t *testing.T) {
	file := filepath.Join(t.TempDir(), "skips.txt")
	t.Setenv(Env, file)
	Report("a: one")
	Report("b: two")
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a: one\nb: two\n"; string(got) != want {
		t.Errorf("skip report = %q, want %q: one line per Report, in order", got, want)
	}
}

// stderrOf returns what f wrote to os.Stderr.
func stderrOf(t *testing.T, f func()) string {
	t.Helper()
	tmp, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = tmp
	f()
	os.Stderr = old
	tmp.Close()
	b, err := os.ReadFile(tmp.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReportStderr(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-dir", "skips.txt")
	tests := []struct {
		name   string
		env    string
		want   string
		reason string
	}{
		{"no report file", "", "WARNING: x: skipped\n", "outside make the warning still goes to stderr"},
		{"unwritable report file", missing, "WARNING: x: skipped\nWARNING: cannot write the skip report " + missing, "a report that cannot be written is said, not ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(Env, tt.env)
			got := stderrOf(t, func() { Report("x: skipped") })
			if len(got) < len(tt.want) || got[:len(tt.want)] != tt.want {
				t.Errorf("stderr = %q, want it to start with %q (%s)", got, tt.want, tt.reason)
			}
			if _, err := os.Stat(filepath.Dir(missing)); err == nil {
				t.Errorf("Report created the folder %s", filepath.Dir(missing))
			}
		})
	}
}
