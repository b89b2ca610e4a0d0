package archive

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLimitsOneRule checks that the writer and the reader apply one set of
// limits: the writer refuses a tree the reader would refuse with the same
// limits, and whatever the writer writes passes the reader.
func TestLimitsOneRule(t *testing.T) {
	if DefaultLimits.MaxEntries != MaxEntries {
		t.Errorf("DefaultLimits.MaxEntries = %d, want every entry the format allows (%d)", DefaultLimits.MaxEntries, MaxEntries)
	}
	zeros := strings.Repeat("\x00", 8<<20) // deflates about 1000:1
	tests := []struct {
		name     string
		reason   string
		file     string
		lim      Limits
		wantCode Code // "" means written, and read back
	}{
		{name: "defaults", reason: "an ordinary tree", file: "hello\n"},
		{name: "ratio", reason: "8 MiB of zeros expand more than 100:1", file: zeros, wantCode: CodeRatio},
		{name: "ratio-raised", reason: "the same tree with the limit raised", file: zeros, lim: Limits{MaxRatio: 2000}},
		{name: "file-size", reason: "one file over the per-file limit", file: "hello\n", lim: Limits{MaxFileSize: 3}, wantCode: CodeFileTooLarge},
		{name: "total", reason: "the files and the manifest over the total limit", file: "hello\n", lim: Limits{MaxTotalSize: 100}, wantCode: CodeTotalTooLarge},
		{name: "entries", reason: "more entries than allowed", file: "hello\n", lim: Limits{MaxEntries: 3}, wantCode: CodeTooManyEntries},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, []tfile{
				{path: "VERSION", data: []byte("0.1.0\n")},
				{path: "go.mod", data: []byte("module x\n")},
				{path: "testdata/f", data: []byte(tt.file)},
			}, plain)
			var buf bytes.Buffer
			_, err := Pack(context.Background(), dir, &buf, Options{Limits: tt.lim})
			if tt.wantCode != "" {
				var re *RefusalError
				if !errors.As(err, &re) || re.Problems[0].Code != tt.wantCode {
					t.Fatalf("%s: Pack = %v, want a %s refusal", tt.reason, err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: Pack: %v", tt.reason, err)
			}
			r, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), tt.lim)
			if err != nil {
				t.Fatalf("%s: the reader refuses what the writer wrote: %v", tt.reason, err)
			}
			for _, e := range r.Entries {
				if _, err := io.Copy(io.Discard, r.Open(e)); err != nil {
					t.Fatalf("%s: %s: %v", tt.reason, e.Name, err)
				}
			}
		})
	}
}

// TestReaderRefusesHugeFile checks that a file larger than any archive of
// the format is refused before a byte of it is read.
func TestReaderRefusesHugeFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.zip")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(MaxSize + 1); err != nil {
		t.Skipf("SKIPPED: cannot make a sparse file here: %v", err)
	}
	if _, err := NewReader(f, MaxSize+1, Limits{}); CodeOf(err) != CodeTooLarge {
		t.Errorf("NewReader on a 4 GiB file: %v, want %s", err, CodeTooLarge)
	}
}
