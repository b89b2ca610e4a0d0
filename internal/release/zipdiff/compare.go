package zipdiff

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strconv"
	"unicode/utf8"
)

// A Kind classifies a difference.
type Kind string

const (
	KindArchive    Kind = "archive"    // a field of the archive as a whole
	KindRemoved    Kind = "removed"    // an entry only in A
	KindAdded      Kind = "added"      // an entry only in B
	KindDuplicate  Kind = "duplicate"  // a name given to another number of entries
	KindOrder      Kind = "order"      // the common entries in another order
	KindContent    Kind = "content"    // other uncompressed bytes
	KindUnreadable Kind = "unreadable" // content that could not be read on one side
	KindData       Kind = "data"       // other stored bytes, the content not compared
	KindMode       Kind = "mode"       // other Unix mode
	KindMethod     Kind = "method"     // other compression method
	KindCompressed Kind = "compressed" // same content and method, other compressed bytes
	KindHeader     Kind = "header"     // another header or data descriptor field
)

// A Difference is one reason two archives differ. Its strings are as the
// archives have them, except that a name that is not UTF-8 shows each
// invalid byte as \xff (EntryHex then has its bytes); [Report.WriteText]
// escapes every control character.
type Difference struct {
	Kind     Kind   `json:"kind"`
	Entry    string `json:"entry,omitempty"`     // the entry's name
	EntryHex string `json:"entry_hex,omitempty"` // the name's bytes in hex, when they are not UTF-8
	// Occurrence numbers the entries of a name that more than one entry
	// has, from 1, in central directory order; 0 for a name given once.
	Occurrence int      `json:"occurrence,omitempty"`
	Field      string   `json:"field,omitempty"` // for header, archive and order differences
	A          string   `json:"a,omitempty"`     // the value in A
	B          string   `json:"b,omitempty"`     // the value in B
	Note       string   `json:"note,omitempty"`  // what else is known: why content was not compared, whose compressor made the bytes
	Diff       []string `json:"diff,omitempty"`  // a line diff of text content, unified format
}

// A Summary describes one archive.
type Summary struct {
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	Entries int    `json:"entries"`
}

// maxDifferences bounds the differences a report lists; past it they are
// counted in Omitted.
const maxDifferences = 1 << 17

// maxRecompress bounds the content bytes of one report that are deflated
// again to see whose compressor made an entry's compressed bytes.
const maxRecompress = 64 << 20

// A Report is the result of comparing two archives.
type Report struct {
	A           Summary      `json:"a"`
	B           Summary      `json:"b"`
	Identical   bool         `json:"identical"`
	Differences []Difference `json:"differences"` // never nil: [] when there are none
	// Omitted counts the differences found past the first 131072, which
	// are not listed.
	Omitted int `json:"omitted,omitempty"`
	// FirstDiff is the offset of the first byte that differs (or where the
	// shorter file ends), -1 when the files are identical.
	FirstDiff int64 `json:"first_diff"`
	// FirstDiffIn says which structure of A (or of B, past A's end) holds
	// FirstDiff.
	FirstDiffIn string `json:"first_diff_in,omitempty"`
	// common is the number of entries both archives have, for grouping.
	common int
}

// comparer holds what comparing two archives reuses and the budgets of the
// report.
type comparer struct {
	a, b       *Archive
	ra, rb     reader
	rc         recompressor
	rep        *Report
	diffs      int               // entries given a line diff
	diffLines  int               // lines of line diff kept
	recompress int64             // content bytes that may still be deflated again
	strings    map[string]string // see intern
	chunks     [][]Difference    // see add
	count      int
}

// Compare lists the differences between a and b (see the package
// documentation for the order), reading the entries' contents a pair at a
// time. It does not compare bytes: DiffFiles sets Identical and FirstDiff.
func Compare(a, b *Archive) *Report {
	c := &comparer{a: a, b: b, recompress: maxRecompress, rep: &Report{
		A:           Summary{a.Name, a.Size, len(a.Entries)},
		B:           Summary{b.Name, b.Size, len(b.Entries)},
		Differences: []Difference{},
		FirstDiff:   -1,
	}}
	c.archive()
	c.duplicates()
	byB := make(map[entryKey]*Entry, len(b.Entries))
	for _, e := range b.Entries {
		byB[keyOfEntry(e)] = e
	}
	for _, e := range a.Entries {
		if b.names[e.Central.Name] == 0 {
			c.add(c.entryDiff(Difference{Kind: KindRemoved}, e))
		}
	}
	for _, e := range b.Entries {
		if a.names[e.Central.Name] == 0 {
			c.add(c.entryDiff(Difference{Kind: KindAdded}, e))
		}
	}
	// The entries both have, in the order of each; an entry of a name the
	// other archive has fewer of is in the duplicate difference.
	var commonA, commonB []*Entry
	for _, e := range a.Entries {
		if e.Occurrence <= b.names[e.Central.Name] {
			commonA = append(commonA, e)
		}
	}
	for _, e := range b.Entries {
		if e.Occurrence <= a.names[e.Central.Name] {
			commonB = append(commonB, e)
		}
	}
	c.rep.common = len(commonA)
	c.order(commonA, commonB)
	for _, e := range commonA {
		c.compareEntries(e, byB[keyOfEntry(e)])
	}
	if c.count > 0 {
		c.rep.Differences = c.differences()
	}
	return c.rep
}

// An entryKey is a name and which of the entries of that name.
type entryKey struct {
	name string
	occ  int
}

func keyOfEntry(e *Entry) entryKey { return entryKey{e.Central.Name, e.Occurrence} }

// add adds d to the report. The differences are kept in chunks, made into
// one slice at the end, rather than in a slice that grows: with the copies
// growing makes, that would allocate about five times the final size.
func (c *comparer) add(d Difference) {
	if c.count >= maxDifferences {
		c.rep.Omitted++
		return
	}
	d.Field, d.A, d.B, d.Note = c.intern(d.Field), c.intern(d.A), c.intern(d.B), c.intern(d.Note)
	if n := len(c.chunks); n == 0 || len(c.chunks[n-1]) == cap(c.chunks[n-1]) {
		c.chunks = append(c.chunks, make([]Difference, 0, min(1<<10<<len(c.chunks), 1<<12)))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, d)
	c.count++
}

// differences returns the differences added, in one slice.
func (c *comparer) differences() []Difference {
	if len(c.chunks) == 1 {
		return c.chunks[0]
	}
	out := make([]Difference, 0, c.count)
	for _, ch := range c.chunks {
		out = append(out, ch...)
	}
	return out
}

// intern returns one copy of each of the first maxInterned values that
// differences repeat (a field changed the same way on every entry).
func (c *comparer) intern(s string) string {
	if s == "" {
		return s
	}
	if v, ok := c.strings[s]; ok {
		return v
	}
	if c.strings == nil {
		c.strings = map[string]string{}
	}
	if len(c.strings) < maxInterned {
		c.strings[s] = s
	}
	return s
}

const maxInterned = 1 << 12

// entryDiff fills in d's entry: its name as shown, and which of the entries
// of that name it is.
func (c *comparer) entryDiff(d Difference, e *Entry) Difference {
	name := e.Central.Name
	d.Entry = displayName(name)
	if !utf8.ValidString(name) {
		d.EntryHex = hex.EncodeToString([]byte(name))
	}
	if c.a.names[name] > 1 || c.b.names[name] > 1 {
		d.Occurrence = e.Occurrence
	}
	return d
}

// archive compares the archive-level fields.
func (c *comparer) archive() {
	a, b := c.a, c.b
	field := func(name, va, vb string) {
		if va != vb {
			c.add(Difference{Kind: KindArchive, Field: name, A: va, B: vb})
		}
	}
	field("size", fmt.Sprint(a.Size), fmt.Sprint(b.Size))
	field("entries", fmt.Sprint(len(a.Entries)), fmt.Sprint(len(b.Entries)))
	field("comment", quote(a.Comment), quote(b.Comment))
	field("bytes before the first entry", fmt.Sprint(a.Prefix), fmt.Sprint(b.Prefix))
	if a.Prefix == b.Prefix && a.Prefix > 0 {
		ha, oka := a.hashRange(&c.ra, []Gap{{0, a.Prefix}})
		hb, okb := b.hashRange(&c.rb, []Gap{{0, b.Prefix}})
		if oka && okb && ha != hb {
			field("bytes before the first entry differ", fmt.Sprintf("%d bytes, sha256 %s", a.Prefix, short(ha)), fmt.Sprintf("%d bytes, sha256 %s", b.Prefix, short(hb)))
		}
	}
	field("unused byte ranges", gaps(a.Gaps), gaps(b.Gaps))
	if gaps(a.Gaps) == gaps(b.Gaps) && len(a.Gaps) > 0 {
		ha, oka := a.hashRange(&c.ra, a.Gaps)
		hb, okb := b.hashRange(&c.rb, b.Gaps)
		if oka && okb && ha != hb {
			field("unused bytes differ", "sha256 "+short(ha), "sha256 "+short(hb))
		}
	}
	field("entries overlapping another's bytes", overlaps(a), overlaps(b))
}

// overlaps describes the entries of a whose bytes overlap another's.
func overlaps(a *Archive) string {
	if a.Overlapping == 0 {
		return "none"
	}
	for _, e := range a.Entries {
		if e.Overlaps >= 0 {
			o := a.Entries[e.Overlaps]
			return fmt.Sprintf("%d (the first: entry %d %s overlaps entry %d %s): their content is not read", a.Overlapping, e.Index, quote(e.Central.Name), o.Index, quote(o.Central.Name))
		}
	}
	return fmt.Sprint(a.Overlapping)
}

// duplicates lists the names given to another number of entries in A than
// in B, when either gives it to more than one.
func (c *comparer) duplicates() {
	seen := map[string]bool{}
	for _, arch := range []*Archive{c.a, c.b} {
		for _, e := range arch.Entries {
			name := e.Central.Name
			na, nb := c.a.names[name], c.b.names[name]
			if seen[name] || na == nb || (na < 2 && nb < 2) {
				continue
			}
			seen[name] = true
			d := c.entryDiff(Difference{Kind: KindDuplicate, A: plural(na, "entry"), B: plural(nb, "entry")}, e)
			d.Occurrence = 0
			c.add(d)
		}
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if noun == "entry" {
		return fmt.Sprintf("%d entries", n)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// order reports the first position where the common entries' order
// differs: in the central directory, else in the file (the local headers).
func (c *comparer) order(commonA, commonB []*Entry) {
	for i := range commonA {
		if keyOfEntry(commonA[i]) != keyOfEntry(commonB[i]) {
			c.add(Difference{Kind: KindOrder, Field: fmt.Sprintf("position %d of the entries both have", i),
				A: displayName(commonA[i].Central.Name), B: displayName(commonB[i].Central.Name)})
			return
		}
	}
	inFile := func(entries []*Entry) []*Entry {
		out := append([]*Entry(nil), entries...)
		sort.SliceStable(out, func(i, j int) bool { return out[i].HeaderAt < out[j].HeaderAt })
		return out
	}
	fa, fb := inFile(commonA), inFile(commonB)
	for i := range fa {
		if keyOfEntry(fa[i]) != keyOfEntry(fb[i]) {
			c.add(Difference{Kind: KindOrder, Field: fmt.Sprintf("position %d in the file (local headers) of the entries both have", i),
				A: displayName(fa[i].Central.Name), B: displayName(fb[i].Central.Name)})
			return
		}
	}
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

func short(sum [32]byte) string { return hex.EncodeToString(sum[:6]) }

// compareEntries lists the differences between two entries of one name,
// reading their contents (and dropping them) as it goes.
func (c *comparer) compareEntries(ea, eb *Entry) {
	ha, hb := ea.Central, eb.Central
	add := func(d Difference) { c.add(c.entryDiff(d, ea)) }

	sa, sb := c.a.hashStored(&c.ra, ea), c.b.hashStored(&c.rb, eb)
	storedBoth := sa.Err == "" && sb.Err == ""
	storedDiffers := storedBoth && sa.SHA256 != sb.SHA256
	methodDiffers := ha.Method != hb.Method
	sameDecoding := ha.Method == hb.Method && ha.Flags&1 == hb.Flags&1 && ha.CRC32 == hb.CRC32 && ha.Size == hb.Size && ha.CompressedSize == hb.CompressedSize

	contentDiffers := false                              // both read, other bytes: sizes and CRC-32 are implied
	compressedShown := false                             // a difference shows the compressed sizes
	if !(storedBoth && !storedDiffers && sameDecoding) { // else the same bytes decode the same
		// Deflate A's content again as catalogkit's packager would, when
		// that can tell whose compressor made other compressed bytes.
		check := storedDiffers && ha.Method == 8 && hb.Method == 8 && ha.CRC32 == hb.CRC32 && ha.Size == hb.Size
		var also io.Writer
		if check && int64(ha.Size) <= c.recompress {
			c.rc.reset()
			also = &c.rc
		}
		ca := c.a.readContent(&c.ra, ea, also)
		var rsum [32]byte
		rn := int64(-1)
		if also != nil {
			rsum, rn = c.rc.sum()
			c.recompress -= ca.Size
		}
		cb := c.b.readContent(&c.rb, eb, nil)
		switch {
		case ca.Err == "" && cb.Err == "" && ca.SHA256 != cb.SHA256:
			contentDiffers = true
			d := Difference{Kind: KindContent,
				A: fmt.Sprintf("%d bytes, sha256 %s", ca.Size, short(ca.SHA256)),
				B: fmt.Sprintf("%d bytes, sha256 %s", cb.Size, short(cb.SHA256))}
			if ca.IsText && cb.IsText {
				if c.diffs < maxReportDiffs && c.diffLines < maxReportLines {
					d.Diff = lineDiff(ca.Text, cb.Text)
					c.diffs++
					c.diffLines += len(d.Diff)
				} else {
					d.Note = fmt.Sprintf("no line diff: the report already has %d line diffs, %d lines", c.diffs, c.diffLines)
				}
			}
			add(d)
		case ca.Err == "" && cb.Err == "":
			// The same content: other compressed bytes, or headers.
			if storedDiffers && !methodDiffers {
				compressedShown = true
				d := Difference{Kind: KindCompressed,
					A: fmt.Sprintf("%d bytes, sha256 %s", ha.CompressedSize, short(sa.SHA256)),
					B: fmt.Sprintf("%d bytes, sha256 %s", hb.CompressedSize, short(sb.SHA256))}
				switch {
				case ha.Method != 8:
				case rn >= 0:
					d.Note = verdict(rsum, rn, sa.SHA256, int64(ha.CompressedSize), sb.SHA256, int64(hb.CompressedSize), ca.Size)
				case check:
					d.Note = fmt.Sprintf("not compared with what catalogkit's compressor makes of this content: the report's budget of %d bytes deflated again is spent", maxRecompress)
				}
				add(d)
			}
		default:
			if ca.Err != cb.Err {
				add(Difference{Kind: KindUnreadable, A: orOK(ca.Err), B: orOK(cb.Err)})
			}
			// The content was not compared: whether the stored bytes
			// differ is all that is known of it.
			if !methodDiffers && (storedDiffers || !storedBoth) {
				compressedShown = storedBoth
				d := Difference{Kind: KindData, A: storedText(ha, sa), B: storedText(hb, sb)}
				if ca.Err == cb.Err {
					d.Note = "on both sides: " + ca.Err
				}
				add(d)
			}
		}
	}
	if modeOf(ha) != modeOf(hb) {
		add(Difference{Kind: KindMode, A: unixMode(ha), B: unixMode(hb)})
	}
	if methodDiffers {
		compressedShown = true
		add(Difference{Kind: KindMethod,
			A: fmt.Sprintf("%s, %d bytes compressed", methodName(ha.Method), ha.CompressedSize),
			B: fmt.Sprintf("%s, %d bytes compressed", methodName(hb.Method), hb.CompressedSize)})
	}
	// Header fields: implied ones (sizes and CRC of other content, the
	// compressed size a difference above shows) are left out.
	implied := func(i int) bool {
		return i == impliedByContent && contentDiffers || i == impliedByCompressed && (contentDiffers || compressedShown)
	}
	la, lb := effectiveLocal(ea), effectiveLocal(eb)
	if (ea.Descriptor == nil) == (eb.Descriptor == nil) {
		la, lb = ea.Local, eb.Local // compared field by field below
	}
	for _, f := range headerFields {
		if implied(f.implied) {
			continue
		}
		centralDiffers := f.central && !f.eq(&ea.Central, &eb.Central)
		localDiffers := f.local && !f.eq(&la, &lb)
		if f.name == "method" && methodDiffers && la.Method == ha.Method && lb.Method == hb.Method {
			continue // the local method changed as the central one did
		}
		switch {
		case !centralDiffers && !localDiffers:
		case centralDiffers && localDiffers && f.eq(&ea.Central, &la) && f.eq(&eb.Central, &lb):
			add(Difference{Kind: KindHeader, Field: f.name + " (central and local)", A: f.get(&ea.Central), B: f.get(&eb.Central)})
		default:
			if centralDiffers {
				add(Difference{Kind: KindHeader, Field: f.name + " (central)", A: f.get(&ea.Central), B: f.get(&eb.Central)})
			}
			if localDiffers {
				add(Difference{Kind: KindHeader, Field: f.name + " (local)", A: f.get(&la), B: f.get(&lb)})
			}
		}
	}
	da, db := ea.Descriptor, eb.Descriptor
	switch {
	case (da == nil) != (db == nil):
		add(Difference{Kind: KindHeader, Field: "data descriptor", A: descText(ea), B: descText(eb)})
	case da != nil:
		for _, f := range descriptorFields {
			if implied(f.implied) {
				continue
			}
			if va, vb := f.get(da), f.get(db); va != vb {
				add(Difference{Kind: KindHeader, Field: "data descriptor " + f.name, A: va, B: vb})
			}
		}
	}
}

// verdict says whose compressed bytes are what catalogkit's packager makes
// of the content: sum and n are the hash and length of what it makes.
func verdict(sum [32]byte, n int64, shaA [32]byte, sizeA int64, shaB [32]byte, sizeB int64, size int64) string {
	if n >= size {
		return fmt.Sprintf("catalogkit's packager would store this content, not deflate it: its compressor (%s) does not make it smaller", compressorName)
	}
	ma, mb := sum == shaA && n == sizeA, sum == shaB && n == sizeB
	switch {
	case ma && !mb:
		return fmt.Sprintf("B's compressed bytes are not what catalogkit's compressor (%s) makes of this content; A's are", compressorName)
	case mb && !ma:
		return fmt.Sprintf("A's compressed bytes are not what catalogkit's compressor (%s) makes of this content; B's are", compressorName)
	}
	return fmt.Sprintf("neither side's compressed bytes are what catalogkit's compressor (%s) makes of this content", compressorName)
}

func storedText(h Header, s stored) string {
	if s.Err != "" {
		return "stored bytes not read"
	}
	return fmt.Sprintf("%d bytes stored, sha256 %s", h.CompressedSize, short(s.SHA256))
}

// descText describes e's data descriptor.
func descText(e *Entry) string {
	d := e.Descriptor
	if d == nil {
		return "none"
	}
	sig := "no signature"
	if d.Signature {
		sig = "signature"
	}
	if deferred(e) {
		return sig + ", the CRC-32 and sizes of the central record (zero in the local header)"
	}
	return fmt.Sprintf("%s, CRC-32 %08x, compressed size %d, size %d", sig, d.CRC32, d.CompressedSize, d.Size)
}

// deferred reports whether e's local header leaves its CRC-32 and sizes to
// a data descriptor that has the central record's, as a streaming writer
// does.
func deferred(e *Entry) bool {
	d, l, c := e.Descriptor, e.Local, e.Central
	return d != nil && l.CRC32 == 0 && l.CompressedSize == 0 && l.Size == 0 &&
		d.CRC32 == c.CRC32 && d.CompressedSize == c.CompressedSize && d.Size == c.Size
}

// effectiveLocal is e's local header with the CRC-32 and sizes its data
// descriptor holds, if it defers them: so that an entry streamed with a
// descriptor and one written without differ in the descriptor alone.
func effectiveLocal(e *Entry) Header {
	l := e.Local
	if deferred(e) {
		l.CRC32, l.CompressedSize, l.Size = e.Central.CRC32, e.Central.CompressedSize, e.Central.Size
	}
	return l
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

// headerFields are the compared fields of central and local headers (the
// mode and the method are differences of their own): eq compares them
// without formatting, get formats one.
var headerFields = []struct {
	name           string
	central, local bool
	implied        int
	eq             func(x, y *Header) bool
	get            func(*Header) string
}{
	{"version made by", true, false, impliedByNothing,
		func(x, y *Header) bool { return x.CreatorVersion == y.CreatorVersion },
		func(h *Header) string { return versionMadeBy(h.CreatorVersion) }},
	{"version needed", true, true, impliedByNothing,
		func(x, y *Header) bool { return x.ReaderVersion == y.ReaderVersion },
		func(h *Header) string { return fmt.Sprintf("%d.%d", h.ReaderVersion/10, h.ReaderVersion%10) }},
	{"method", false, true, impliedByNothing, // the central one is a difference of its own
		func(x, y *Header) bool { return x.Method == y.Method },
		func(h *Header) string { return methodName(h.Method) }},
	{"flags", true, true, impliedByNothing,
		func(x, y *Header) bool { return x.Flags == y.Flags },
		func(h *Header) string { return flagNames(h.Flags) }},
	{"modified", true, true, impliedByNothing,
		func(x, y *Header) bool { return x.ModDate == y.ModDate && x.ModTime == y.ModTime },
		func(h *Header) string { return dosTime(h.ModDate, h.ModTime) }},
	{"CRC-32", true, true, impliedByContent,
		func(x, y *Header) bool { return x.CRC32 == y.CRC32 },
		func(h *Header) string { return fmt.Sprintf("%08x", h.CRC32) }},
	{"size", true, true, impliedByContent,
		func(x, y *Header) bool { return x.Size == y.Size },
		func(h *Header) string { return fmt.Sprint(h.Size) }},
	{"compressed size", true, true, impliedByCompressed,
		func(x, y *Header) bool { return x.CompressedSize == y.CompressedSize },
		func(h *Header) string { return fmt.Sprint(h.CompressedSize) }},
	{"name", false, true, impliedByNothing,
		func(x, y *Header) bool { return x.Name == y.Name },
		func(h *Header) string { return quote(h.Name) }},
	{"extra field", true, true, impliedByNothing,
		func(x, y *Header) bool { return bytes.Equal(x.Extra, y.Extra) },
		func(h *Header) string { return extra(h.Extra) }},
	{"comment", true, false, impliedByNothing,
		func(x, y *Header) bool { return x.Comment == y.Comment },
		func(h *Header) string { return quote(h.Comment) }},
	{"disk number start", true, false, impliedByNothing,
		func(x, y *Header) bool { return x.DiskStart == y.DiskStart },
		func(h *Header) string { return fmt.Sprint(h.DiskStart) }},
	{"internal attributes", true, false, impliedByNothing,
		func(x, y *Header) bool { return x.InternalAttrs == y.InternalAttrs },
		func(h *Header) string { return fmt.Sprintf("%#04x", h.InternalAttrs) }},
	{"external attributes", true, false, impliedByNothing,
		func(x, y *Header) bool { return externalAttrs(x) == externalAttrs(y) },
		func(h *Header) string {
			if h.CreatorVersion>>8 == 3 {
				return fmt.Sprintf("%#04x (besides the mode)", externalAttrs(h)) // the mode is its own difference
			}
			return fmt.Sprintf("%#08x", externalAttrs(h))
		}},
}

// externalAttrs returns the external attributes but for the Unix mode, when
// there is one.
func externalAttrs(h *Header) uint32 {
	if h.CreatorVersion>>8 == 3 {
		return h.ExternalAttrs & 0xffff
	}
	return h.ExternalAttrs
}

// descriptorFields are the compared fields of data descriptors.
var descriptorFields = []struct {
	name    string
	implied int
	get     func(*Descriptor) string
}{
	{"signature", impliedByNothing, func(d *Descriptor) string {
		if d.Signature {
			return "present"
		}
		return "none"
	}},
	{"CRC-32", impliedByContent, func(d *Descriptor) string { return fmt.Sprintf("%08x", d.CRC32) }},
	{"compressed size", impliedByCompressed, func(d *Descriptor) string { return fmt.Sprint(d.CompressedSize) }},
	{"size", impliedByContent, func(d *Descriptor) string { return fmt.Sprint(d.Size) }},
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

// modeOf returns the Unix mode of a central header, -1 if it has none.
func modeOf(h Header) int64 {
	if h.CreatorVersion>>8 != 3 {
		return -1
	}
	return int64(h.ExternalAttrs >> 16)
}

// unixMode returns the Unix mode of a central header, or a note when the
// entry was not made on Unix.
func unixMode(h Header) string {
	if h.CreatorVersion>>8 != 3 {
		return "none (not made on Unix)"
	}
	return fmt.Sprintf("%06o", h.ExternalAttrs>>16)
}

// quote quotes s Go style: every control character, and every byte that
// is not UTF-8, escaped.
func quote(s string) string { return strconv.Quote(s) }
