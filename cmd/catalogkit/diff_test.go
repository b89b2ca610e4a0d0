package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmdtest"
)

// TestDiffCLI runs the transcripts in testdata/diff, each in a directory
// that holds copies of the archives internal/release/zipdiff's tests make (a
// truncated one, a reordered one), so that transcripts name them without
// the repository's path.
func TestDiffCLI(t *testing.T) {
	ts, err := cmdtest.Read(filepath.Join("testdata", "diff"))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "internal", "release", "zipdiff", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	fixtures, err := filepath.Glob(filepath.Join(dir, "*.zip")) // absolute: Setup runs in the transcript's directory
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures in internal/release/zipdiff/testdata (err %v)", err)
	}
	ts.Setup = func(dir string) error {
		for _, f := range fixtures {
			data, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	ts.Commands["catalogkit"] = cmdtest.InProcessProgram("catalogkit", Main)
	ts.Run(t, *update)
}
