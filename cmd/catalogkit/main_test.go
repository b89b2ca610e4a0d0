package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmdtest"
)

var update = flag.Bool("update", false, "update the .ct transcripts in testdata with the actual output")

// TestCLI runs the go-cmdtest transcripts in testdata/*.ct with catalogkit
// running in-process. ${ROOT} is the repository root and ${REPOCATALOG} the
// synthetic catalog in it; ${CATALOG} is a copy of that catalog in each
// transcript's own directory, which go-cmdtest prints as ${ROOTDIR}, so
// that no transcript shows where the repository happens to be.
func TestCLI(t *testing.T) {
	ts, err := cmdtest.Read("testdata")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOT", root)
	synthetic := filepath.Join(root, "conformance", "synthetic-catalog.json")
	data, err := os.ReadFile(synthetic)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("REPOCATALOG", synthetic)
	ts.Setup = func(dir string) error {
		copyPath := filepath.Join(dir, "synthetic-catalog.json")
		os.Setenv("CATALOG", copyPath) // restored by t.Setenv below
		return os.WriteFile(copyPath, data, 0o644)
	}
	t.Setenv("CATALOG", "")
	ts.Commands["catalogkit"] = cmdtest.InProcessProgram("catalogkit", Main)
	ts.Run(t, *update)
}
