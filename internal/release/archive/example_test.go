package archive_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// ExamplePack packs a three-file tree (notes.txt is not in the allowlist).
// The archive's SHA-256 pins every byte of the format: it changes only if the
// rules or the compressor change. The tree hash does not depend on the
// compressor: it equals `sha256sum README.md VERSION go.mod | sha256sum`.
func ExamplePack() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for name, data := range map[string]string{
		"VERSION":   "0.1.0\n",
		"go.mod":    "module example.com/x\n\ngo 1.26.0\n",
		"README.md": "# x\n",
		"notes.txt": "not allowlisted, so not packed\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	var buf bytes.Buffer
	res, err := archive.Pack(context.Background(), dir, &buf, archive.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Name, res.Size, "bytes")
	fmt.Println("sha256:", res.SHA256)
	fmt.Printf("%s", res.Manifest)
	// Output:
	// catalogkit-0.1.0.zip 1003 bytes
	// sha256: d91193d0d41ffa2658ebced41d9c7a3239f01c7a1d1205678b4ad6a663aac6e6
	// # catalogkit-manifest/1
	// # version: 0.1.0
	// # compressor: github.com/klauspost/compress v1.20.4 flate level 8
	// # method: deflate when strictly smaller, else store
	// # timestamp: 1980-01-01T00:00:00Z
	// # files: 3
	// # bytes: 42
	// # tree-hash: h1:Ym0xnT9Taxs6LW8XSgAM+6+R6XZQlOwTr7XKc6VxfHY=
	// # tree-sha256: 626d319d3f536b1b3a2d6f174a000cfbaf91e9765094ec13afb5ca73a5717c76
	// 253b610bd786f2543252c8d4b45bb40eb375882587f825cb9ce1fd1241f66f1e  README.md
	// e9dd8507f4bf0c6f42458e41aea833ad0bd3f6127272335eee9bf4d58541ed67  VERSION
	// 95ef04684c15b04571fc14210415437aea1d53f7283af2ffb237c166bf8b1328  go.mod
}
