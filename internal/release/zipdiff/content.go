package zipdiff

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"unicode/utf8"

	kflate "github.com/klauspost/compress/flate"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// content is what reading an entry's data found.
type content struct {
	SHA256 [32]byte // of the uncompressed bytes, if Err is ""
	Size   int64    // uncompressed bytes read
	Err    string   // why the content could not be read whole; "" if it was
	// Text is the content if it is UTF-8 text within the text limit. It is
	// the reader's buffer, valid until the reader's next entry.
	Text   []byte
	IsText bool
}

// stored is what hashing an entry's stored (compressed) bytes found.
type stored struct {
	SHA256 [32]byte // if Err is ""
	Err    string   // why they were not read
}

// reader holds what reading one archive's entries reuses: one inflater, the
// buffers. Only the entry being compared is held in memory.
type reader struct {
	flate   io.ReadCloser
	buf     []byte
	text    bytes.Buffer
	sha     hash.Hash
	stored  hash.Hash
	crc     hash.Hash32
	section io.SectionReader
}

// hashes returns the reader's hashes, reset.
func (rd *reader) hashes() (content, stored hash.Hash, crc hash.Hash32) {
	if rd.sha == nil {
		rd.sha, rd.stored, rd.crc = sha256.New(), sha256.New(), crc32.NewIEEE()
	}
	rd.sha.Reset()
	rd.stored.Reset()
	rd.crc.Reset()
	return rd.sha, rd.stored, rd.crc
}

// data returns a reader of n bytes of r at off.
func (rd *reader) data(r io.ReaderAt, off, n int64) *io.SectionReader {
	rd.section = *io.NewSectionReader(r, off, n)
	return &rd.section
}

func (rd *reader) buffer() []byte {
	if rd.buf == nil {
		rd.buf = make([]byte, 32<<10)
	}
	return rd.buf
}

// overlapErr is the reason an overlapping entry is not read.
func (a *Archive) overlapErr(e *Entry) string {
	if s, ok := a.overlapMsg[e.Overlaps]; ok {
		return s
	}
	o := a.Entries[e.Overlaps]
	s := fmt.Sprintf("its bytes overlap those of entry %d %s: not read", o.Index, quote(o.Central.Name))
	if a.overlapMsg == nil {
		a.overlapMsg = map[int]string{}
	}
	if len(a.overlapMsg) < 1<<10 {
		a.overlapMsg[e.Overlaps] = s
	}
	return s
}

// spend takes n bytes from the archive's read budget, or says why not.
func (a *Archive) spend(n int64) string {
	if n > a.read {
		return fmt.Sprintf("not read: the budget of %d bytes read from this archive (twice its size, plus 1 MiB) is spent", readBudget(a.Size))
	}
	a.read -= n
	return ""
}

// hashStored hashes e's stored bytes, within the read budget.
func (a *Archive) hashStored(rd *reader, e *Entry) stored {
	var s stored
	if e.Overlaps >= 0 {
		s.Err = a.overlapErr(e)
		return s
	}
	n := int64(e.Central.CompressedSize)
	if s.Err = a.spend(n); s.Err != "" {
		return s
	}
	_, h, _ := rd.hashes()
	if _, err := io.CopyBuffer(h, rd.data(a.r, e.DataAt, n), rd.buffer()); err != nil {
		s.Err = fmt.Sprintf("cannot read its data: %v", err)
		return s
	}
	h.Sum(s.SHA256[:0])
	return s
}

// hashRange hashes the bytes from..to of the archive, within the read
// budget; ok is false if they were not read.
func (a *Archive) hashRange(rd *reader, ranges []Gap) (sum [32]byte, ok bool) {
	_, h, _ := rd.hashes()
	for _, g := range ranges {
		if a.spend(g.To-g.From) != "" {
			return sum, false
		}
		if _, err := io.CopyBuffer(h, rd.data(a.r, g.From, g.To-g.From), rd.buffer()); err != nil {
			return sum, false
		}
	}
	h.Sum(sum[:0])
	return sum, true
}

// readContent inflates e's data within the archive's limits and budgets,
// writing the content to also if it is not nil.
func (a *Archive) readContent(rd *reader, e *Entry, also io.Writer) content {
	var c content
	h := e.Central
	lim := a.lim
	switch {
	case e.Overlaps >= 0:
		c.Err = a.overlapErr(e)
		return c
	case h.Flags&0x1 != 0:
		c.Err = "encrypted: content not compared"
		return c
	case h.Method != 0 && h.Method != 8:
		c.Err = fmt.Sprintf("compression method %d: content not compared", h.Method)
		return c
	}
	want := int64(h.Size)
	switch {
	case want > lim.MaxEntrySize:
		c.Err = fmt.Sprintf("declared size %d is over the limit of %d bytes: content not compared", want, lim.MaxEntrySize)
		return c
	case want > a.left:
		c.Err = fmt.Sprintf("the limit of %d bytes inflated from this archive was reached: content not compared", lim.MaxTotalSize)
		return c
	}
	if err := a.spend(int64(h.CompressedSize)); err != "" {
		c.Err = "content " + err
		return c
	}
	raw := rd.data(a.r, e.DataAt, int64(h.CompressedSize))
	var src io.Reader = raw
	if h.Method == 8 {
		if rd.flate == nil {
			rd.flate = flate.NewReader(raw)
		} else if err := rd.flate.(flate.Resetter).Reset(raw, nil); err != nil {
			c.Err = fmt.Sprintf("cannot inflate: %v", err)
			return c
		}
		src = rd.flate
	}
	sh, _, crc := rd.hashes()
	ws := []io.Writer{sh, crc}
	rd.text.Reset()
	if want <= lim.MaxTextSize {
		rd.text.Grow(int(want) + 1) // once for the largest text: the buffer is reused
		ws = append(ws, &rd.text)
	}
	if also != nil {
		ws = append(ws, also)
	}
	n, err := io.CopyBuffer(io.MultiWriter(ws...), io.LimitReader(src, want+1), rd.buffer()) // never more than declared, plus one byte to notice
	a.left -= n
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
	if want <= lim.MaxTextSize && isText(rd.text.Bytes()) {
		c.Text, c.IsText = rd.text.Bytes(), true
	}
	return c
}

// isText reports whether b looks like text: valid UTF-8 with no NUL.
func isText(b []byte) bool {
	return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0
}

// compressorName names the Deflate implementation and level of
// catalogkit's packager.
var compressorName = fmt.Sprintf("%s %s, level %d", archive.CompressModule, archive.CompressVersion, archive.FlateLevel)

// recompressor deflates content with catalogkit's packager's compressor
// ([archive.NewDeflater]), keeping only the hash and length of the result.
type recompressor struct {
	w   *kflate.Writer
	out countingHash
}

type countingHash struct {
	hash.Hash
	n int64
}

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.Hash.Write(p)
}

// reset starts a new content.
func (rc *recompressor) reset() {
	if rc.w == nil {
		rc.out.Hash = sha256.New()
		rc.w = archive.NewDeflater(&rc.out)
	}
	rc.out.Hash.Reset()
	rc.out.n = 0
	rc.w.Reset(&rc.out)
}

func (rc *recompressor) Write(p []byte) (int, error) { return rc.w.Write(p) }

// sum finishes the content: the hash and length of what catalogkit's
// packager would store for it.
func (rc *recompressor) sum() (sum [32]byte, n int64) {
	if err := rc.w.Close(); err != nil {
		return sum, -1
	}
	rc.out.Sum(sum[:0])
	return sum, rc.out.n
}
