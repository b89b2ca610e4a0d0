package zipdiff

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/zipfmt"
	"github.com/catalogkit/catalogkit/internal/shared/regfile"
)

// This file reads the two files and locates a byte offset in an archive's
// structure; compare.go compares what was read.

// DiffFiles reads the archives at pathA and pathB within lim and compares
// them. Its error is an *[Error] when either cannot be read. When the two
// files have the same bytes it reads no entry's data.
func DiffFiles(pathA, pathB string, lim Limits) (*Report, error) {
	fa, sizeA, err := openFile(pathA)
	if err != nil {
		return nil, err
	}
	defer fa.Close()
	fb, sizeB, err := openFile(pathB)
	if err != nil {
		return nil, err
	}
	defer fb.Close()
	a, err := Read(pathA, fa, sizeA, lim)
	if err != nil {
		return nil, err
	}
	off, err := firstDifference(pathA, fa, sizeA, pathB, fb, sizeB)
	if err != nil {
		return nil, err
	}
	if off < 0 {
		return &Report{
			A:         Summary{pathA, sizeA, len(a.Entries)},
			B:         Summary{pathB, sizeB, len(a.Entries)},
			Identical: true, Differences: []Difference{}, FirstDiff: -1,
		}, nil
	}
	b, err := Read(pathB, fb, sizeB, lim)
	if err != nil {
		return nil, err
	}
	rep := Compare(a, b)
	rep.FirstDiff = off
	if off < a.Size {
		rep.FirstDiffIn = "A's " + a.Where(off)
	} else {
		rep.FirstDiffIn = "B's " + b.Where(off) + " (A ends before it)"
	}
	return rep, nil
}

func openFile(path string) (*os.File, int64, error) {
	f, fi, err := regfile.Open(path) // never blocks on a FIFO
	if nr, ok := regfile.AsNotRegular(err); ok {
		detail := "not a regular file (" + regfile.Kind(nr.Mode) + ")"
		if nr.Replaced {
			detail = "replaced while it was being opened"
		}
		return nil, 0, &Error{File: path, Code: archive.CodeIO, Offset: -1, Detail: detail}
	}
	if err != nil {
		return nil, 0, &Error{File: path, Code: archive.CodeIO, Offset: -1, Detail: "cannot open", Err: unwrapPath(err)}
	}
	return f, fi.Size(), nil
}

// firstDifference returns the offset of the first differing byte of two
// files, or -1 if they are equal.
func firstDifference(pathA string, fa io.ReaderAt, sizeA int64, pathB string, fb io.ReaderAt, sizeB int64) (int64, error) {
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	for off := int64(0); ; {
		na, errA := fa.ReadAt(bufA[:min(int64(len(bufA)), max(sizeA-off, 0))], off)
		nb, errB := fb.ReadAt(bufB[:min(int64(len(bufB)), max(sizeB-off, 0))], off)
		if errA != nil && errA != io.EOF {
			return 0, &Error{File: pathA, Code: archive.CodeIO, Offset: off, Detail: "cannot read", Err: errA}
		}
		if errB != nil && errB != io.EOF {
			return 0, &Error{File: pathB, Code: archive.CodeIO, Offset: off, Detail: "cannot read", Err: errB}
		}
		n := min(na, nb)
		if i := firstMismatch(bufA[:n], bufB[:n]); i >= 0 {
			return off + int64(i), nil
		}
		if na != nb {
			return off + int64(n), nil
		}
		if n == 0 {
			return -1, nil
		}
		off += int64(n)
	}
}

func firstMismatch(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
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
		name := quote(e.Central.Name)
		switch {
		case off >= e.HeaderAt && off < e.HeaderAt+zipfmt.LocalLen:
			return fmt.Sprintf("local header of entry %d %s, byte %d of its fixed fields (%s)", e.Index, name, off-e.HeaderAt, fieldAt(localFields, off-e.HeaderAt))
		case off >= e.HeaderAt+zipfmt.LocalLen && off < e.DataAt:
			return fmt.Sprintf("local header of entry %d %s (name or extra field)", e.Index, name)
		case off >= e.DataAt && off < e.DescAt:
			return fmt.Sprintf("data of entry %d %s, byte %d of %d", e.Index, name, off-e.DataAt, e.DescAt-e.DataAt)
		case off >= e.DescAt && off < e.DataEnd:
			i := off - e.DescAt
			if e.Descriptor == nil || !e.Descriptor.Signature {
				i += 4
			}
			return fmt.Sprintf("data descriptor of entry %d %s, byte %d of %d (%s)", e.Index, name, off-e.DescAt, e.DataEnd-e.DescAt, fieldAt(descFields, i))
		}
	}
	for _, e := range a.Entries {
		if off >= e.CentralAt && off < e.CentralAt+zipfmt.CentralLen {
			return fmt.Sprintf("central directory record of entry %d %s, byte %d of its fixed fields (%s)", e.Index, quote(e.Central.Name), off-e.CentralAt, fieldAt(centralFields, off-e.CentralAt))
		}
		if end := e.CentralAt + zipfmt.CentralLen + int64(len(e.Central.Name)+len(e.Central.Extra)+len(e.Central.Comment)); off >= e.CentralAt && off < end {
			return fmt.Sprintf("central directory record of entry %d %s (name, extra field or comment)", e.Index, quote(e.Central.Name))
		}
	}
	switch {
	case off >= a.CentralAt && off < a.CentralAt+a.CentralSize:
		return fmt.Sprintf("central directory, byte %d of %d", off-a.CentralAt, a.CentralSize)
	case off >= a.EndAt && off < a.EndAt+zipfmt.EndLen:
		return fmt.Sprintf("end of central directory record, byte %d (%s)", off-a.EndAt, fieldAt(endFields, off-a.EndAt))
	case off >= a.EndAt:
		return fmt.Sprintf("archive comment, byte %d", off-a.EndAt-zipfmt.EndLen)
	case off < a.Prefix:
		return fmt.Sprintf("bytes before the first entry, byte %d of %d", off, a.Prefix)
	}
	return "bytes outside every entry"
}

type field struct {
	end  int64
	name string
}

var (
	localFields = []field{{4, "signature"}, {6, "version needed"}, {8, "flags"}, {10, "method"}, {12, "time"}, {14, "date"},
		{18, "CRC-32"}, {22, "compressed size"}, {26, "size"}, {28, "name length"}, {30, "extra length"}}
	centralFields = []field{{4, "signature"}, {6, "version made by"}, {8, "version needed"}, {10, "flags"}, {12, "method"},
		{14, "time"}, {16, "date"}, {20, "CRC-32"}, {24, "compressed size"}, {28, "size"}, {30, "name length"},
		{32, "extra length"}, {34, "comment length"}, {36, "disk number start"}, {38, "internal attributes"},
		{42, "external attributes"}, {46, "local header offset"}}
	descFields = []field{{4, "signature"}, {8, "CRC-32"}, {12, "compressed size"}, {16, "size"}}
	endFields  = []field{{4, "signature"}, {6, "disk number"}, {8, "disk with the central directory"},
		{10, "entries on this disk"}, {12, "entries"}, {16, "central directory size"}, {20, "central directory offset"},
		{22, "comment length"}}
)

// fieldAt names the field at byte i of a fixed layout.
func fieldAt(fields []field, i int64) string {
	for _, f := range fields {
		if i < f.end {
			return f.name
		}
	}
	return ""
}
