package main

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/google/go-cmdtest"
)

var update = flag.Bool("update", false, "update the .ct transcripts in testdata with the actual output")

// TestCLI runs the go-cmdtest transcripts in testdata/*.ct with catalogkit
// running in-process. ${ROOT} is the repository root, so transcripts can name
// the synthetic catalog as ${ROOT}/conformance/synthetic-catalog.json.
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
	t.Setenv("CATALOG", filepath.Join(root, "conformance", "synthetic-catalog.json"))
	ts.Commands["catalogkit"] = cmdtest.InProcessProgram("catalogkit", Main)
	ts.Run(t, *update)
}
