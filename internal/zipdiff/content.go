package zipdiff

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"io"
	"unicode/utf8"
)

// Content is what reading an entry's data found.
type Content struct {
	SHA256           [32]byte // of the uncompressed bytes, if Err is ""
	Size             int64    // uncompressed bytes read
	CompressedSHA256 [32]byte // of the stored (compressed) bytes
	Err              string   // why the content could not be read whole; "" if it was
	Text             []byte   // the content, if it is UTF-8 text within the text limit
	IsText           bool
}

// reader holds what reading entries reuses: one inflater, one buffer.
type reader struct {
	flate io.ReadCloser
	buf   []byte
}

// readContent inflates e's data within lim and the remaining total budget.
func (rd *reader) readContent(r io.ReaderAt, e *Entry, lim Limits, budget *int64) Content {
	var c Content
	h := e.Central
	raw := io.NewSectionReader(r, e.DataAt, int64(h.CompressedSize))
	zh := sha256.New()
	if rd.buf == nil {
		rd.buf = make([]byte, 32<<10)
	}
	if _, err := io.CopyBuffer(zh, raw, rd.buf); err != nil {
		c.Err = fmt.Sprintf("cannot read its data: %v", err)
		return c
	}
	zh.Sum(c.CompressedSHA256[:0])
	raw.Seek(0, io.SeekStart)

	var src io.Reader
	switch {
	case h.Flags&0x1 != 0:
		c.Err = "encrypted: content not compared"
		return c
	case h.Method == 0:
		src = raw
	case h.Method == 8:
		if rd.flate == nil {
			rd.flate = flate.NewReader(raw)
		} else if err := rd.flate.(flate.Resetter).Reset(raw, nil); err != nil {
			c.Err = fmt.Sprintf("cannot inflate: %v", err)
			return c
		}
		src = rd.flate
	default:
		c.Err = fmt.Sprintf("compression method %d: content not compared", h.Method)
		return c
	}
	want := int64(h.Size)
	switch {
	case want > lim.MaxEntrySize:
		c.Err = fmt.Sprintf("declared size %d is over the limit of %d bytes: content not compared", want, lim.MaxEntrySize)
		return c
	case want > *budget:
		c.Err = "the archive's total size limit was reached: content not compared"
		return c
	}
	sh, crc := sha256.New(), crc32.NewIEEE()
	w := io.MultiWriter(sh, crc)
	var text bytes.Buffer
	if want <= lim.MaxTextSize {
		w = io.MultiWriter(sh, crc, &text)
	}
	n, err := io.CopyBuffer(w, io.LimitReader(src, want+1), rd.buf) // never more than declared, plus one byte to notice
	*budget -= n
	c.Size = n
	switch {
	case err != nil:
		c.Err = fmt.Sprintf("bad compressed data after %d bytes: %v", n, err)
	case n > want:
		c.Err = fmt.Sprintf("more data than its declared size of %d bytes", want)
	case n < want:
		c.Err = fmt.Sprintf("%d bytes of data, but its declared size is %d", n, want)
	case crc.Sum32() != h.CRC32:
		c.Err = fmt.Sprintf("CRC-32 %08x does not match the declared %08x", crc.Sum32(), h.CRC32)
	}
	if c.Err != "" {
		return c
	}
	sh.Sum(c.SHA256[:0])
	if want <= lim.MaxTextSize && isText(text.Bytes()) {
		c.Text, c.IsText = text.Bytes(), true
	}
	return c
}

// isText reports whether b looks like text: valid UTF-8 with no NUL.
func isText(b []byte) bool {
	return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0
}
