package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// buildCatalogkit builds the command, without the race detector even when
// the test has it (its shadow memory would swamp the measure), and returns
// the binary's path.
func buildCatalogkit(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds catalogkit to run it in child processes")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build catalogkit with")
	}
	bin := filepath.Join(t.TempDir(), "catalogkit")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
