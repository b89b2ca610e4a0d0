package pack

import (
	"bytes"
	"compress/flate"
	"io"
)

// flateReader inflates with the standard library, independent of the writer.
func flateReader(data []byte) io.Reader { return flate.NewReader(bytes.NewReader(data)) }
