package archive

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/catalogkit/catalogkit/internal/release/zipfmt"
	"github.com/catalogkit/catalogkit/internal/shared/regfile"
	"github.com/klauspost/compress/flate"
)

// Options tune how an archive is built. They never change its bytes.
type Options struct {
	// Concurrency is the number of files read and compressed at once;
	// 0 or less means runtime.GOMAXPROCS(0).
	Concurrency int
	// Limits the archive must stay within; zero fields mean DefaultLimits.
	// A tree whose archive would exceed them is refused, so that what the
	// writer writes passes a reader with the same limits.
	Limits Limits
	// Sign, if set, makes the signature files that [WriteRelease] publishes
	// with the archive. It never changes the archive's bytes.
	Sign Signer
}

// A Signer returns the files that vouch for a release, named as in
// [SidecarNames]: it is given the archive's result and the exact bytes of
// SHA256SUMS. [WriteRelease] calls it under the output folder's lock, after
// the archive and SHA256SUMS are written and before anything is in place;
// an error leaves the folder as it was.
type Signer func(res *Result, sums []byte) ([]Sidecar, error)

// A Sidecar is one file a [Signer] returns.
type Sidecar struct {
	Name string
	Data []byte
}

// A Result describes an archive that was built.
type Result struct {
	Version    string // from VERSION
	Name       string // "catalogkit-<v>.zip"
	Files      []File // packed files, sorted, excluding the manifest
	Manifest   []byte // MANIFEST.sha256 bytes
	TreeHash   string // "h1:" + base64 SHA-256 of the manifest's file lines
	TreeSHA256 string // the same SHA-256 in hex: grep -v '^#' MANIFEST.sha256 | sha256sum
	SHA256     string // hex of the archive bytes written
	Size       int64  // archive bytes written
}

// Pack builds the archive of the release tree rooted at dir and writes it to
// w: it selects the files with [Select], reads the version with
// [ReadVersion] and calls [Build].
func Pack(ctx context.Context, dir string, w io.Writer, opts Options) (*Result, error) {
	version, files, err := selectRelease(dir)
	if err != nil {
		return nil, err
	}
	return Build(ctx, dir, version, files, w, opts)
}

// selectRelease returns the version and the files of the release tree dir:
// the files first, so that a missing VERSION is listed with every other
// problem of the tree.
func selectRelease(dir string) (string, []File, error) {
	files, err := Select(dir)
	if err != nil {
		return "", nil, err
	}
	version, err := ReadVersion(dir)
	return version, files, err
}

// entry is one file read and compressed.
type entry struct {
	File
	crc    uint32
	method uint16
	data   []byte // compressed (Deflate) or raw (Store) bytes
}

// Build writes the archive of the given files of the tree dir under the top
// folder [TopFolder](version), with a generated manifest. Only the files'
// paths are used; each is read again (never following a symlink) and its
// size, mode and SHA-256 in the result come from that read. [Pack] is Build
// over [Select]; Build alone serves trees that are not catalogkit releases,
// such as the benchmark's. Files are read and compressed in parallel and
// written in order, so the bytes are the same for any Concurrency. The
// manifest, which sorts before most entries, needs every file's hash, so
// Build holds the compressed entries in memory until it writes them (about
// 37 MB for the 129 MB benchmark tree). Cancelling ctx stops the workers
// at the next file and returns ctx's error.
func Build(ctx context.Context, dir, version string, files []File, w io.Writer, opts Options) (*Result, error) {
	if err := CheckVersion(version); err != nil {
		return nil, err
	}
	lim := opts.Limits.OrDefault()
	if err := lim.Check(); err != nil {
		return nil, err
	}
	if len(files)+1 > lim.MaxEntries {
		return nil, refuse([]*Error{Errorf(CodeTooManyEntries, "", "%d files and the manifest, the limit is %d entries", len(files), lim.MaxEntries)})
	}
	files = append([]File(nil), files...)
	sortFiles(files)
	if err := check(files, nil); err != nil {
		return nil, err
	}
	entries, err := readAll(ctx, dir, files, opts.Concurrency, lim)
	if err != nil {
		return nil, err
	}

	res := &Result{Version: version, Name: ArchiveName(version)}
	for _, e := range entries {
		res.Files = append(res.Files, e.File)
	}
	res.Manifest, res.TreeHash, res.TreeSHA256 = encodeManifest(version, res.Files)
	m, err := newCompressor().entry(res.Manifest)
	if err != nil {
		return nil, err
	}
	m.File = File{Path: ManifestName, Size: int64(len(res.Manifest)), Mode: 0o644}
	all := append([]*entry{m}, entries...)
	sort.Slice(all, func(i, j int) bool { return all[i].Path < all[j].Path })

	top := TopFolder(version)
	size, total := int64(zipfmt.EndLen), int64(0)
	for _, e := range all {
		name := int64(len(top) + len(e.Path))
		size += zipfmt.LocalLen + name + int64(len(e.data)) + zipfmt.CentralLen + name
		total += e.Size
	}
	switch {
	case size > MaxSize:
		return nil, refuse([]*Error{Errorf(CodeTooLarge, "", "the archive would be %d bytes, 4 GiB or more: the format never uses ZIP64", size)})
	case total > lim.MaxTotalSize:
		return nil, refuse([]*Error{Errorf(CodeTotalTooLarge, "", "the files total %d bytes, the limit is %d", total, lim.MaxTotalSize)})
	}

	h := sha256.New()
	zw := &zipWriter{w: io.MultiWriter(w, h)}
	for _, e := range all {
		zw.add(top+e.Path, e)
	}
	zw.finish()
	if zw.err != nil {
		return nil, fmt.Errorf("failed to write archive: %w", zw.err)
	}
	if zw.n != size {
		return nil, fmt.Errorf("internal error: wrote %d archive bytes, computed %d", zw.n, size)
	}
	res.Size = zw.n
	res.SHA256 = hex.EncodeToString(h.Sum(nil))
	return res, nil
}

// zipWriter writes the records of the format: each entry's local header,
// name and data, then the central directory and the end record. It keeps
// the first write error.
type zipWriter struct {
	w       io.Writer
	n       int64
	err     error
	central []byte
	count   int
}

func (z *zipWriter) write(b []byte) {
	if z.err != nil {
		return
	}
	n, err := z.w.Write(b)
	z.n += int64(n)
	z.err = err
}

func (z *zipWriter) add(name string, e *entry) {
	h := zipfmt.Header{
		CreatorVersion: CreatorVersion, ReaderVersion: ReaderVersion, Flags: Flags, Method: e.method,
		ModTime: DOSTime, ModDate: DOSDate, CRC32: e.crc, CompressedSize: uint32(len(e.data)), Size: uint32(e.Size),
		Name: name, ExternalAttrs: ExternalAttrs(e.Mode), Offset: uint32(z.n),
	}
	z.write(zipfmt.AppendLocal(make([]byte, 0, zipfmt.LocalLen+len(name)), h))
	z.write(e.data)
	z.central = zipfmt.AppendCentral(z.central, h)
	z.count++
}

func (z *zipWriter) finish() {
	offset := uint32(z.n)
	z.write(z.central)
	z.write(zipfmt.AppendEnd(make([]byte, 0, zipfmt.EndLen), zipfmt.End{
		DiskEntries: uint16(z.count), Entries: uint16(z.count), CentralSize: uint32(len(z.central)), CentralAt: offset,
	}, ""))
}

// readAll reads, hashes and compresses files (sorted) on up to concurrency
// workers. The result is in the order of files whatever the scheduling.
func readAll(ctx context.Context, dir string, files []File, concurrency int, lim Limits) ([]*entry, error) {
	n := concurrency
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	n = max(1, min(n, len(files)))
	entries := make([]*entry, len(files))
	errs := make([]error, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newCompressor()
			for i := range jobs {
				if errs[i] = ctx.Err(); errs[i] == nil {
					entries[i], errs[i] = c.file(dir, files[i].Path, lim)
				}
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var problems []*Error
	for i, err := range errs {
		var e *Error
		switch {
		case err == nil:
		case errors.As(err, &e) && e.Code != CodeIO:
			problems = append(problems, e)
		default:
			return nil, fmt.Errorf("failed to read %q: %w", files[i].Path, err)
		}
	}
	if err := refuse(problems); err != nil {
		return nil, err
	}
	return entries, nil
}

// compressor holds one worker's reusable buffers and Deflate state.
type compressor struct {
	raw []byte // the file being compressed
	buf bytes.Buffer
	fw  *flate.Writer
}

func newCompressor() *compressor {
	c := &compressor{}
	c.fw = NewDeflater(&c.buf)
	return c
}

// NewDeflater returns the compressor that makes a release's bytes: the
// pinned [CompressModule] at [FlateLevel]. It is the one place it is
// configured: the writer uses it, and package zipdiff to tell whose
// compressor made an entry's bytes.
func NewDeflater(w io.Writer) *flate.Writer {
	fw, err := flate.NewWriter(w, FlateLevel)
	if err != nil {
		panic(err) // FlateLevel is a valid constant
	}
	return fw
}

// read reads f into c.raw, which is reused for the next file: callers must
// copy what they keep. It reads to EOF whatever Stat said, up to limit+1
// bytes, so that a file that grew shows.
func (c *compressor) read(f io.Reader, size, limit int64) ([]byte, error) {
	if int64(cap(c.raw)) < size+1 && size <= limit {
		c.raw = make([]byte, 0, size+1)
	}
	b, err := regfile.ReadAll(f, c.raw, limit)
	if err == nil {
		c.raw = b
	}
	return b, err
}

// file reads one file, refusing anything but a regular file, and compresses
// it. It opens without following a link and without blocking (noFollow), so
// that a file replaced by a link or a FIFO after Select listed it is refused
// rather than followed or waited on; the open file is what it checks.
func (c *compressor) file(dir, rel string, lim Limits) (*entry, error) {
	f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(rel)), os.O_RDONLY|noFollow, 0)
	if isLink(err) {
		return nil, Errorf(CodeNotRegular, rel, "symbolic link (only regular files are packed)")
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	after, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if _, pe := regular(rel, after); pe != nil {
		return nil, pe
	}
	if after.Size() > lim.MaxFileSize {
		return nil, Errorf(CodeFileTooLarge, rel, "%d bytes, the limit is %d", after.Size(), lim.MaxFileSize)
	}
	data, err := c.read(f, after.Size(), lim.MaxFileSize)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > lim.MaxFileSize {
		return nil, Errorf(CodeFileTooLarge, rel, "more than %d bytes (the limit), and it grew while packing", lim.MaxFileSize)
	}
	e, err := c.entry(data)
	if err != nil {
		return nil, err
	}
	if e.method == MethodDeflate && !lim.ratioOK(uint64(len(data)), uint64(len(e.data))) {
		return nil, Errorf(CodeRatio, rel, "compresses %d:1, more than the limit of %d:1 a reader allows (plus 64 KiB)", len(data)/len(e.data), lim.MaxRatio)
	}
	sum := sha256.Sum256(data)
	e.File = File{Path: rel, Size: int64(len(data)), Mode: modeOf(after.Mode()), SHA256: hex.EncodeToString(sum[:])}
	return e, nil
}

// entry returns the entry for data: Deflate at FlateLevel if that is
// strictly smaller than data, else Store.
func (c *compressor) entry(data []byte) (*entry, error) {
	c.buf.Reset()
	c.fw.Reset(&c.buf)
	if _, err := c.fw.Write(data); err != nil {
		return nil, err
	}
	if err := c.fw.Close(); err != nil {
		return nil, err
	}
	e := &entry{crc: crc32.ChecksumIEEE(data), method: MethodStore}
	if c.buf.Len() < len(data) {
		e.method = MethodDeflate
		e.data = bytes.Clone(c.buf.Bytes())
	} else {
		e.data = bytes.Clone(data)
	}
	return e, nil
}
