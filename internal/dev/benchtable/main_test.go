package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const goBench = `goos: linux
goarch: amd64
pkg: github.com/catalogkit/catalogkit/catalog
cpu: Some CPU
BenchmarkParse-2   	      50	  21000000 ns/op	 8600000 B/op	   11000 allocs/op
BenchmarkParse-2   	      50	  23000000 ns/op	 8600000 B/op	   11000 allocs/op
BenchmarkParse-2   	      50	  22000000 ns/op	 8600000 B/op	   11000 allocs/op
BenchmarkFuzz-2    	       7	    500000 ns/op	      2138 calls/s
PASS
ok  	github.com/catalogkit/catalogkit/catalog	12.3s
`

const scriptOut = `2 CPUs; GOMAXPROCS default; load average 3.1 2.0 1.0; 5 runs each
                                                           ours       tool   ratio
hash of 1 GiB vs sha256sum                                1.110      4.180    0.27
release: --no-exec vs sha256sum -c + unzip -tq            0.086      0.023    3.74
`

func TestWritesTheBlock(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	readme := write("README.md", "# x\n\n"+beginMarker+"\nstale figures\n"+endMarker+"\n\nafter\n")
	at := func() time.Time { return time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC) }
	var stderr bytes.Buffer
	code := run([]string{"-doc", readme, "-load-before", "1.00 2.00 3.00", write("catalog.txt", goBench), write("verify.txt", scriptOut)}, &stderr, at)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, _ := os.ReadFile(readme)
	text := string(got)
	for _, want := range []string{
		"# x\n\n" + beginMarker + "\nWritten by `make bench` (`internal/dev/benchtable`) on 2026-12-02 05:00 UTC, on ",
		"load average 1.00 2.00 3.00 when the\nbenchmarks began",
		"| `catalog` | `BenchmarkParse` | 3 | 22 ms | 8.6 MB | 11000 | — |\n",
		"| `catalog` | `BenchmarkFuzz` | 1 | 500 µs | — | — | 2138 calls/s |\n",
		"| `verify` | hash of 1 GiB vs sha256sum | 1.110 | 4.180 | 0.27× |\n",
		"| `verify` | release: --no-exec vs sha256sum -c + unzip -tq | 0.086 | 0.023 | 3.74× |\n\n" + endMarker + "\n\nafter\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README lacks %q; it is:\n%s", want, text)
		}
	}
	if strings.Contains(text, "stale figures") {
		t.Error("the old block is still there")
	}
}

func TestRefuses(t *testing.T) {
	dir := t.TempDir()
	noMarkers := filepath.Join(dir, "README.md")
	os.WriteFile(noMarkers, []byte("# x\n"), 0o644)
	results := filepath.Join(dir, "r.txt")
	os.WriteFile(results, []byte(goBench), 0o644)
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, []byte("PASS\n"), 0o644)
	tests := []struct {
		name   string
		args   []string
		reason string
	}{
		{"no markers", []string{"-doc", noMarkers, results}, "nowhere to write: an error, not a README with figures appended somewhere"},
		{"no figures", []string{"-doc", noMarkers, empty}, "empty results would erase the figures"},
		{"no results", []string{"-doc", noMarkers}, "bad usage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(noMarkers)
			var stderr bytes.Buffer
			if code := run(tt.args, &stderr, time.Now); code != 1 {
				t.Errorf("exit %d, want 1 (%s)", code, tt.reason)
			}
			after, _ := os.ReadFile(noMarkers)
			if diff := cmp.Diff(string(before), string(after)); diff != "" {
				t.Errorf("the README changed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{duration(0), "0 ns"},
		{duration(999), "999 ns"},
		{duration(1000), "1 µs"},
		{duration(37.6e6), "37.6 ms"},
		{duration(1.11e9), "1.11 s"},
		{duration(3600e9), "3600 s"},
		{size(18), "18 B"},
		{size(999.9e3), "1000 kB"},
		{size(8.61e6), "8.61 MB"},
		{size(2e12), "2000 GB"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q; want %q", tc.got, tc.want)
		}
	}
}
