package zipdiff

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
)

// A Kind classifies a difference.
type Kind string

const (
	KindArchive    Kind = "archive"    // a field of the archive as a whole
	KindRemoved    Kind = "removed"    // an entry only in A
	KindAdded      Kind = "added"      // an entry only in B
	KindOrder      Kind = "order"      // the common entries in another order
	KindContent    Kind = "content"    // other uncompressed bytes
	KindUnreadable Kind = "unreadable" // content that could not be read on one side
	KindMode       Kind = "mode"       // other Unix mode
	KindMethod     Kind = "method"     // other compression method
	KindCompressed Kind = "compressed" // same content and method, other compressed bytes
	KindHeader     Kind = "header"     // another header field
)

// A Difference is one reason two archives differ.
type Difference struct {
	Kind  Kind     `json:"kind"`
	Entry string   `json:"entry,omitempty"` // the entry's name
	Field string   `json:"field,omitempty"` // for header and archive differences
	A     string   `json:"a,omitempty"`     // the value in A
	B     string   `json:"b,omitempty"`     // the value in B
	Diff  []string `json:"diff,omitempty"`  // a line diff of text content, unified format
}

// A Summary describes one archive.
type Summary struct {
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	Entries int    `json:"entries"`
}

// A Report is the result of comparing two archives.
type Report struct {
	A           Summary      `json:"a"`
	B           Summary      `json:"b"`
	Identical   bool         `json:"identical"`
	Differences []Difference `json:"differences"`
	// FirstDiff is the offset of the first byte that differs (or where the
	// shorter file ends), -1 when the files are identical.
	FirstDiff int64 `json:"first_diff"`
	// FirstDiffIn says which structure of A (or of B, past A's end) holds
	// FirstDiff.
	FirstDiffIn string `json:"first_diff_in,omitempty"`
}

// DiffFiles reads the archives at pathA and pathB within lim and compares
// them. Its error is an *[Error] when either cannot be read.
func DiffFiles(pathA, pathB string, lim Limits) (*Report, error) {
	a, err := ReadFile(pathA, lim)
	if err != nil {
		return nil, err
	}
	b, err := ReadFile(pathB, lim)
	if err != nil {
		return nil, err
	}
	rep := Compare(a, b)
	off, err := firstDifference(pathA, pathB)
	if err != nil {
		return nil, err
	}
	rep.FirstDiff, rep.Identical = off, off < 0
	switch {
	case off < 0:
	case off < a.Size:
		rep.FirstDiffIn = "A's " + a.Where(off)
	default:
		rep.FirstDiffIn = "B's " + b.Where(off) + " (A ends before it)"
	}
	return rep, nil
}

// firstDifference returns the offset of the first differing byte of two
// files, or -1 if they are equal.
func firstDifference(pathA, pathB string) (int64, error) {
	open := func(p string) (*os.File, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, &Error{File: p, Code: CodeIO, Offset: -1, Detail: "cannot open", Err: unwrapPath(err)}
		}
		return f, nil
	}
	fa, err := open(pathA)
	if err != nil {
		return 0, err
	}
	defer fa.Close()
	fb, err := open(pathB)
	if err != nil {
		return 0, err
	}
	defer fb.Close()
	ra, rb := bufio.NewReaderSize(fa, 64<<10), bufio.NewReaderSize(fb, 64<<10)
	var off int64
	bufA, bufB := make([]byte, 32<<10), make([]byte, 32<<10)
	for {
		na, errA := io.ReadFull(ra, bufA)
		nb, errB := io.ReadFull(rb, bufB)
		n := min(na, nb)
		if i := firstMismatch(bufA[:n], bufB[:n]); i >= 0 {
			return off + int64(i), nil
		}
		if na != nb {
			return off + int64(n), nil
		}
		off += int64(n)
		endA, endB := errA == io.EOF || errA == io.ErrUnexpectedEOF, errB == io.EOF || errB == io.ErrUnexpectedEOF
		if errA != nil && !endA {
			return 0, &Error{File: pathA, Code: CodeIO, Offset: off, Detail: "cannot read", Err: errA}
		}
		if errB != nil && !endB {
			return 0, &Error{File: pathB, Code: CodeIO, Offset: off, Detail: "cannot read", Err: errB}
		}
		if endA || endB {
			return -1, nil
		}
	}
}

func firstMismatch(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// Where names the structure of the archive that holds byte offset off.
func (a *Archive) Where(off int64) string {
	for _, e := range a.Entries {
		name := strconv.Quote(e.Central.Name)
		switch {
		case off >= e.HeaderAt && off < e.HeaderAt+localLen:
			return fmt.Sprintf("local header of entry %d %s, byte %d of its fixed fields (%s)", e.Index, name, off-e.HeaderAt, localField(off-e.HeaderAt))
		case off >= e.HeaderAt+localLen && off < e.DataAt:
			return fmt.Sprintf("local header of entry %d %s (name or extra field)", e.Index, name)
		case off >= e.DataAt && off < e.DataEnd:
			return fmt.Sprintf("data of entry %d %s, byte %d of %d", e.Index, name, off-e.DataAt, e.DataEnd-e.DataAt)
		}
	}
	switch {
	case off >= a.CentralAt && off < a.CentralAt+a.CentralSize:
		return fmt.Sprintf("central directory, byte %d of %d", off-a.CentralAt, a.CentralSize)
	case off >= a.EndAt:
		return fmt.Sprintf("end of central directory record, byte %d", off-a.EndAt)
	}
	return "bytes outside every entry"
}

// localField names the fixed local header field at byte i.
func localField(i int64) string {
	fields := []struct {
		end  int64
		name string
	}{{4, "signature"}, {6, "version needed"}, {8, "flags"}, {10, "method"}, {12, "time"}, {14, "date"},
		{18, "CRC-32"}, {22, "compressed size"}, {26, "size"}, {28, "name length"}, {30, "extra length"}}
	for _, f := range fields {
		if i < f.end {
			return f.name
		}
	}
	return ""
}

// Compare lists the differences between a and b (see the package
// documentation for the order). It does not compare bytes: DiffFiles sets
// Identical and FirstDiff.
func Compare(a, b *Archive) *Report {
	rep := &Report{
		A:         Summary{a.Name, a.Size, len(a.Entries)},
		B:         Summary{b.Name, b.Size, len(b.Entries)},
		FirstDiff: -1,
	}
	add := func(d Difference) { rep.Differences = append(rep.Differences, d) }
	archiveField := func(field, va, vb string) {
		if va != vb {
			add(Difference{Kind: KindArchive, Field: field, A: va, B: vb})
		}
	}
	archiveField("size", fmt.Sprint(a.Size), fmt.Sprint(b.Size))
	archiveField("entries", fmt.Sprint(len(a.Entries)), fmt.Sprint(len(b.Entries)))
	archiveField("comment", strconv.Quote(a.Comment), strconv.Quote(b.Comment))
	archiveField("bytes before the first entry", fmt.Sprint(a.Prefix), fmt.Sprint(b.Prefix))
	archiveField("unused byte ranges", gaps(a.Gaps), gaps(b.Gaps))

	keysA, byA := index(a)
	keysB, byB := index(b)
	for _, k := range keysA {
		if byB[k] == nil {
			add(Difference{Kind: KindRemoved, Entry: byA[k].Central.Name})
		}
	}
	for _, k := range keysB {
		if byA[k] == nil {
			add(Difference{Kind: KindAdded, Entry: byB[k].Central.Name})
		}
	}
	var commonA, commonB []string
	for _, k := range keysA {
		if byB[k] != nil {
			commonA = append(commonA, k)
		}
	}
	for _, k := range keysB {
		if byA[k] != nil {
			commonB = append(commonB, k)
		}
	}
	for i := range commonA {
		if commonA[i] != commonB[i] {
			add(Difference{Kind: KindOrder, Field: fmt.Sprintf("position %d of the entries both have", i),
				A: byA[commonA[i]].Central.Name, B: byB[commonB[i]].Central.Name})
			break
		}
	}
	for _, k := range commonA {
		for _, d := range compareEntries(byA[k], byB[k]) {
			add(d)
		}
	}
	return rep
}

// index keys entries by name, a repeated name getting its occurrence number.
func index(a *Archive) ([]string, map[string]*Entry) {
	keys := make([]string, 0, len(a.Entries))
	by := make(map[string]*Entry, len(a.Entries))
	seen := map[string]int{}
	for _, e := range a.Entries {
		k := e.Central.Name
		if n := seen[k]; n > 0 {
			k = fmt.Sprintf("%s\x00%d", k, n)
		}
		seen[e.Central.Name]++
		keys = append(keys, k)
		by[k] = e
	}
	return keys, by
}

func gaps(g []Gap) string {
	if len(g) == 0 {
		return "none"
	}
	var b bytes.Buffer
	for i, x := range g {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == 8 {
			fmt.Fprintf(&b, "and %d more", len(g)-i)
			break
		}
		fmt.Fprintf(&b, "%d-%d", x.From, x.To)
	}
	return b.String()
}

// compareEntries lists the differences between two entries of one name.
func compareEntries(ea, eb *Entry) []Difference {
	var out []Difference
	name := ea.Central.Name
	ca, cb := ea.Content, eb.Content
	contentDiffers := false
	switch {
	case ca.Err != "" || cb.Err != "":
		if ca.Err != cb.Err {
			out = append(out, Difference{Kind: KindUnreadable, Entry: name, A: orOK(ca.Err), B: orOK(cb.Err)})
		}
		contentDiffers = ca.CompressedSHA256 != cb.CompressedSHA256
	case ca.SHA256 != cb.SHA256:
		contentDiffers = true
		d := Difference{Kind: KindContent, Entry: name,
			A: fmt.Sprintf("%d bytes, sha256 %s", ca.Size, hex.EncodeToString(ca.SHA256[:6])),
			B: fmt.Sprintf("%d bytes, sha256 %s", cb.Size, hex.EncodeToString(cb.SHA256[:6]))}
		if ca.IsText && cb.IsText {
			d.Diff = lineDiff(ca.Text, cb.Text)
		}
		out = append(out, d)
	}
	if ma, mb := unixMode(ea.Central), unixMode(eb.Central); ma != mb {
		out = append(out, Difference{Kind: KindMode, Entry: name, A: ma, B: mb})
	}
	methodDiffers := ea.Central.Method != eb.Central.Method
	if methodDiffers {
		out = append(out, Difference{Kind: KindMethod, Entry: name,
			A: fmt.Sprintf("%s, %d bytes compressed", methodName(ea.Central.Method), ea.Central.CompressedSize),
			B: fmt.Sprintf("%s, %d bytes compressed", methodName(eb.Central.Method), eb.Central.CompressedSize)})
	} else if !contentDiffers && ca.CompressedSHA256 != cb.CompressedSHA256 {
		out = append(out, Difference{Kind: KindCompressed, Entry: name,
			A: fmt.Sprintf("%d bytes, sha256 %s", ea.Central.CompressedSize, hex.EncodeToString(ca.CompressedSHA256[:6])),
			B: fmt.Sprintf("%d bytes, sha256 %s", eb.Central.CompressedSize, hex.EncodeToString(cb.CompressedSHA256[:6]))})
	}
	// Header fields: implied ones (sizes and CRC of other content, sizes of
	// another method or compressor) are left out.
	compressedImplied := contentDiffers || methodDiffers || ca.CompressedSHA256 != cb.CompressedSHA256
	for _, f := range headerFields {
		if f.implied == impliedByContent && contentDiffers || f.implied == impliedByCompressed && compressedImplied {
			continue
		}
		if f.name == "method" || f.name == "mode" {
			continue
		}
		va, vb := f.get(&ea.Central), f.get(&eb.Central)
		la, lb := "", ""
		if f.local {
			la, lb = f.get(&ea.Local), f.get(&eb.Local)
		}
		switch {
		case f.central && f.local && va != vb && la != lb && va == la && vb == lb:
			out = append(out, Difference{Kind: KindHeader, Entry: name, Field: f.name + " (central and local)", A: va, B: vb})
		default:
			if f.central && va != vb {
				out = append(out, Difference{Kind: KindHeader, Entry: name, Field: f.name + " (central)", A: va, B: vb})
			}
			if f.local && la != lb {
				out = append(out, Difference{Kind: KindHeader, Entry: name, Field: f.name + " (local)", A: la, B: lb})
			}
		}
	}
	return out
}

func orOK(s string) string {
	if s == "" {
		return "read"
	}
	return s
}

const (
	impliedByNothing = iota
	impliedByContent
	impliedByCompressed
)

// headerFields are the compared fields of central and local headers.
var headerFields = []struct {
	name           string
	central, local bool
	implied        int
	get            func(*Header) string
}{
	{"version made by", true, false, impliedByNothing, func(h *Header) string { return versionMadeBy(h.CreatorVersion) }},
	{"version needed", true, true, impliedByNothing, func(h *Header) string { return fmt.Sprintf("%d.%d", h.ReaderVersion/10, h.ReaderVersion%10) }},
	{"flags", true, true, impliedByNothing, func(h *Header) string { return flagNames(h.Flags) }},
	{"method", true, true, impliedByNothing, func(h *Header) string { return methodName(h.Method) }},
	{"modified", true, true, impliedByNothing, func(h *Header) string { return dosTime(h.ModDate, h.ModTime) }},
	{"CRC-32", true, true, impliedByContent, func(h *Header) string { return fmt.Sprintf("%08x", h.CRC32) }},
	{"size", true, true, impliedByContent, func(h *Header) string { return fmt.Sprint(h.Size) }},
	{"compressed size", true, true, impliedByCompressed, func(h *Header) string { return fmt.Sprint(h.CompressedSize) }},
	{"name", false, true, impliedByNothing, func(h *Header) string { return strconv.Quote(h.Name) }},
	{"extra field", true, true, impliedByNothing, func(h *Header) string { return extra(h.Extra) }},
	{"comment", true, false, impliedByNothing, func(h *Header) string { return strconv.Quote(h.Comment) }},
	{"internal attributes", true, false, impliedByNothing, func(h *Header) string { return fmt.Sprintf("%#04x", h.InternalAttrs) }},
	{"external attributes", true, false, impliedByNothing, func(h *Header) string {
		if h.CreatorVersion>>8 == 3 {
			return fmt.Sprintf("%#04x (besides the mode)", h.ExternalAttrs&0xffff) // the mode is its own difference
		}
		return fmt.Sprintf("%#08x", h.ExternalAttrs)
	}},
}

func versionMadeBy(v uint16) string {
	hosts := map[uint16]string{0: "MS-DOS", 3: "Unix", 10: "Windows NTFS", 19: "macOS"}
	host, ok := hosts[v>>8]
	if !ok {
		host = fmt.Sprintf("host %d", v>>8)
	}
	return fmt.Sprintf("%s, %d.%d", host, (v&0xff)/10, (v&0xff)%10)
}

func flagNames(f uint16) string {
	if f == 0 {
		return "none"
	}
	names := map[int]string{0: "encrypted", 3: "data descriptor", 11: "UTF-8 names"}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%#04x", f)
	sep := " ("
	for bit := 0; bit < 16; bit++ {
		if f&(1<<bit) == 0 {
			continue
		}
		n, ok := names[bit]
		if !ok {
			n = fmt.Sprintf("bit %d", bit)
		}
		b.WriteString(sep + n)
		sep = ", "
	}
	b.WriteString(")")
	return b.String()
}

func methodName(m uint16) string {
	switch m {
	case 0:
		return "store"
	case 8:
		return "deflate"
	}
	return fmt.Sprintf("method %d", m)
}

func dosTime(date, t uint16) string {
	return fmt.Sprintf("%04d-%02d-%02d %02d:%02d:%02d", 1980+int(date>>9), date>>5&0xf, date&0x1f, t>>11, t>>5&0x3f, 2*(t&0x1f))
}

func extra(b []byte) string {
	if len(b) == 0 {
		return "none"
	}
	if len(b) > 32 {
		return fmt.Sprintf("%d bytes: %s…", len(b), hex.EncodeToString(b[:32]))
	}
	return fmt.Sprintf("%d bytes: %s", len(b), hex.EncodeToString(b))
}

// unixMode returns the Unix mode of a central header, or a note when the
// entry was not made on Unix.
func unixMode(h Header) string {
	if h.CreatorVersion>>8 != 3 {
		return "none (not made on Unix)"
	}
	return fmt.Sprintf("%06o", h.ExternalAttrs>>16)
}
