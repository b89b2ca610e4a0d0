package verify

import (
	"io"

	"github.com/catalogkit/catalogkit/internal/pack"
)

// defaultRepack packs a release tree with the module's packager, as
// catalogkit pack does.
func defaultRepack(dir string, w io.Writer) (*pack.Result, error) {
	return pack.Pack(dir, w, pack.Options{})
}
