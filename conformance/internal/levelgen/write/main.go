// Command write writes the conformance suite's generated levels into the
// folders text/, protocol/ and format2/ of the current directory (go generate runs it
// in conformance/): every file a table generates, and no other .json file.
// Each file is written only if its bytes changed.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/catalogkit/catalogkit/conformance/internal/levelgen"
)

func main() {
	levels, err := levelgen.Levels()
	if err != nil {
		fmt.Fprintln(os.Stderr, "levelgen:", err)
		os.Exit(1)
	}
	for _, l := range levels {
		if err := write(l); err != nil {
			fmt.Fprintln(os.Stderr, "levelgen:", err)
			os.Exit(1)
		}
	}
}

func write(l levelgen.Level) error {
	if err := os.MkdirAll(l.Dir, 0o755); err != nil {
		return err
	}
	existing, err := filepath.Glob(filepath.Join(l.Dir, "*.json"))
	if err != nil {
		return err
	}
	for _, name := range existing {
		if _, ok := l.Files[filepath.Base(name)]; !ok {
			if err := os.Remove(name); err != nil {
				return err
			}
		}
	}
	changed := 0
	for name, data := range l.Files {
		path := filepath.Join(l.Dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		changed++
	}
	fmt.Printf("levelgen: %s/: %d files, %d written\n", l.Dir, len(l.Files), changed)
	return nil
}
