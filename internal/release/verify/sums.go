package verify

import (
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// maxSums bounds the size of a SHA256SUMS file.
const maxSums = 1 << 20

// ReadSums returns the hex SHA-256 that the sha256sum-format file at path
// lists for name. Every line must be well formed; name must appear once.
// The file must be a regular file (a FIFO is refused, not read) of at most
// 1 MiB.
func ReadSums(path, name string) (string, *archive.Error) {
	data, err := readSumsFile(path)
	if err != nil {
		return "", err
	}
	return parseSums(data, path, name)
}

// readSumsFile reads a SHA256SUMS file of at most 1 MiB.
func readSumsFile(path string) ([]byte, *archive.Error) {
	data, _, err := ReadSmall(path, "sums file", maxSums, CodeSumsSyntax)
	return data, err
}

// parseSums returns the hash that the SHA256SUMS text data lists for name.
func parseSums(data []byte, path, name string) (string, *archive.Error) {
	found := ""
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		sum, file, ok := archive.ParseSumLine(line, true)
		if !ok {
			return "", errf(CodeSumsSyntax, path, "line %d is not %q", i+1, "<sha256>  <name>")
		}
		if file == name {
			if found != "" {
				return "", errf(CodeSumsSyntax, path, "lists %q twice", name)
			}
			found = sum
		}
	}
	if found == "" {
		return "", errf(CodeSumsNoEntry, path, "has no line for %q", name)
	}
	return found, nil
}
