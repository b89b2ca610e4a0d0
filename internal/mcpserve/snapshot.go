package mcpserve

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/shared/regfile"
)

// Unsigned is the signer of a catalog served without --key.
const Unsigned = "unsigned"

// A Snapshot is one catalog as it is served: its bytes' SHA-256, who signed
// it, the compiled catalog and each tool's digest. A Snapshot is immutable;
// a reload makes a new one and swaps it in whole.
type Snapshot struct {
	cat      *catalog.Catalog
	sha256   string            // hex SHA-256 of the catalog file's bytes
	signer   string            // Unsigned, or "minisign key ID"
	digests  map[string]string // tool name → digest, for every tool, enabled or not
	families []Family          // in catalog order of first appearance
}

// A Family is one family of the catalog, how many enabled tools it has,
// and its description (format 2; "" when it has none).
type Family struct {
	Name        string
	Enabled     int
	Description string
}

// SHA256 returns the lower-case hex SHA-256 of the catalog file's bytes.
func (s *Snapshot) SHA256() string { return s.sha256 }

// Signer returns who signed the catalog: [Unsigned], or the minisign key ID
// and the key file that verified it.
func (s *Snapshot) Signer() string { return s.signer }

// Families returns the catalog's families, in catalog order.
func (s *Snapshot) Families() []Family { return append([]Family(nil), s.families...) }

// Digest returns the digest of the named tool (enabled or not) and reports
// whether the catalog has it.
func (s *Snapshot) Digest(name string) (string, bool) {
	d, ok := s.digests[name]
	return d, ok
}

// Load reads the catalog file at path and, when keys are given, checks its
// signature, path + ".minisig", first: the catalog's bytes are parsed only
// once a trusted key has signed them. Without keys the catalog is served as
// [Unsigned].
//
// Errors: an I/O error (*fs.PathError) when the catalog cannot be read; an
// [*Error] with [CodeSignatureMissing] when keys are given and there is no
// signature file; a *sign.Error (its code from internal/release/sign) when the
// signature does not verify or is not a catalog signature for this file;
// a *catalog.Error when the catalog breaks the contract.
func Load(path string, keys []sign.PublicKey) (*Snapshot, error) {
	data, signer, err := ReadVerified(path, keys)
	if err != nil {
		return nil, err
	}
	return NewSnapshot(data, signer)
}

// ReadVerified reads the catalog file at path and, when keys are given,
// checks its signature as [Load] does, before anything parses the bytes. It
// returns the bytes and the signer ([Unsigned], or "minisign key" and the
// key ID), with Load's errors but those of the catalog itself.
func ReadVerified(path string, keys []sign.PublicKey) ([]byte, string, error) {
	data, err := readCatalog(path)
	if err != nil {
		return nil, "", err
	}
	signer := Unsigned
	if len(keys) > 0 {
		sigPath := path + sign.SignatureSuffix
		sig, err := readBounded(sigPath, sign.MaxSignatureSize)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", &Error{Code: CodeSignatureMissing, Path: sigPath,
				Detail: fmt.Sprintf("--key was given but there is no signature %s: put beside the catalog the .minisig its publisher wrote ('catalogkit sign --key KEY %s' writes it)", sigPath, filepath.Base(path))}
		}
		if err != nil {
			return nil, "", err
		}
		v, err := sign.VerifyFile(filepath.Base(path), data, sig, keys)
		if err != nil {
			return nil, "", err
		}
		// The key ID alone: the file the key was read from is a path of
		// this host, which two replicas name differently and a model
		// should never see.
		signer = "minisign key " + v.KeyID
	}
	return data, signer, nil
}

// NewSnapshot compiles a catalog from its JSON text, for the signer named.
// Its errors are those of catalog.ParseJSON and then catalog.Compile.
func NewSnapshot(data []byte, signer string) (*Snapshot, error) {
	v, err := catalog.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Compile(v)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	tools := v
	if cat.Format() == 2 {
		tools = lookup(v, "tools")
	}
	s := &Snapshot{cat: cat, sha256: hex.EncodeToString(sum[:]), signer: signer, digests: make(map[string]string, tools.Len())}
	index := map[string]int{}
	var buf []byte
	for i := range tools.Len() {
		tool := tools.Index(i)
		name, family := str(tool, "name"), str(tool, "family")
		if cat.Format() == 2 {
			buf = appendCanonical2(buf[:0], tool)
		} else {
			buf = appendCanonical(buf[:0], tool)
		}
		s.digests[name] = digestOf(buf)
		j, ok := index[family]
		if !ok {
			j = len(s.families)
			index[family] = j
			about, _ := cat.FamilyDescription(family)
			s.families = append(s.families, Family{Name: family, Description: about})
		}
		if on, _ := lookup(tool, "enabled").Bool(); on {
			s.families[j].Enabled++
		}
	}
	return s, nil
}

// ToolDigest returns the digest of one tool definition that catalog.Compile
// accepted: "sha256:" and the lower-case hex SHA-256 of its canonical form
// (see the package documentation).
func ToolDigest(tool catalog.Value) string { return digestOf(CanonicalTool(tool)) }

func digestOf(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CanonicalTool returns the canonical form of a valid tool definition of
// either format (a format-2 tool has an inputSchema). For format 1: JSON
// with no white space, the keys name, family, effect, enabled and fields in
// that order, the fields in the definition's order, each spec's keys type,
// required and max_length in that order, max_length in decimal; for format
// 2, see appendCanonical2.
func CanonicalTool(tool catalog.Value) []byte {
	if _, ok := tool.Lookup("inputSchema"); ok {
		return appendCanonical2(nil, tool)
	}
	return appendCanonical(nil, tool)
}

func appendCanonical(b []byte, tool catalog.Value) []byte {
	b = appendHead(b, tool)
	b = append(b, `,"fields":{`...)
	fields := lookup(tool, "fields")
	for i := range fields.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		spec := fields.Index(i)
		b = catalog.AppendQuote(b, fields.Key(i))
		b = append(b, `:{"type":`...)
		b = catalog.AppendQuote(b, str(spec, "type"))
		required, _ := lookup(spec, "required").Bool()
		b = append(b, `,"required":`...)
		b = strconv.AppendBool(b, required)
		// A valid max_length is a plain integer literal from 1 to 20000:
		// its literal is its decimal form.
		lit, _ := lookup(spec, "max_length").NumberLiteral()
		n, _ := strconv.Atoi(lit)
		b = append(b, `,"max_length":`...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, '}')
	}
	return append(b, "}}"...)
}

// appendHead writes the members both formats' canonical forms begin with:
// {"name", "family", "effect", "enabled".
func appendHead(b []byte, tool catalog.Value) []byte {
	b = append(b, `{"name":`...)
	b = catalog.AppendQuote(b, str(tool, "name"))
	b = append(b, `,"family":`...)
	b = catalog.AppendQuote(b, str(tool, "family"))
	b = append(b, `,"effect":`...)
	b = catalog.AppendQuote(b, str(tool, "effect"))
	enabled, _ := lookup(tool, "enabled").Bool()
	b = append(b, `,"enabled":`...)
	b = strconv.AppendBool(b, enabled)
	return b
}

// appendCanonical2 is the canonical form of a format-2 tool definition: JSON
// with no white space, the members name, family, effect, enabled, title
// (when given), description, annotations (when given), origin (when given)
// and inputSchema in that order, each value written as the catalog writes
// it (members in their order, numbers as their literals). It covers the
// description and the annotations, where a poisoned tool would hide its
// instructions, the origin and the whole schema.
func appendCanonical2(b []byte, tool catalog.Value) []byte {
	b = appendHead(b, tool)
	if t, ok := tool.Lookup("title"); ok {
		b = append(b, `,"title":`...)
		b = append(b, t.String()...)
	}
	b = append(b, `,"description":`...)
	b = append(b, lookup(tool, "description").String()...)
	if a, ok := tool.Lookup("annotations"); ok {
		b = append(b, `,"annotations":`...)
		b = append(b, a.String()...)
	}
	if o, ok := tool.Lookup("origin"); ok {
		b = append(b, `,"origin":`...)
		b = append(b, o.String()...)
	}
	b = append(b, `,"inputSchema":`...)
	b = append(b, lookup(tool, "inputSchema").String()...)
	return append(b, '}')
}

func lookup(v catalog.Value, key string) catalog.Value {
	m, _ := v.Lookup(key)
	return m
}

func str(v catalog.Value, key string) string {
	s, _ := lookup(v, key).Str()
	return s
}

// readCatalog reads the catalog file. One larger than the JSON text layer
// takes is refused as that layer would refuse it, by its size, without
// reading it: a reload of a replaced huge file costs nothing.
func readCatalog(path string) ([]byte, error) {
	f, info, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > catalog.MaxInputBytes {
		return nil, &catalog.Error{Code: catalog.InvalidJSON, Path: "$", Offset: catalog.MaxInputBytes,
			Detail: fmt.Sprintf("the catalog file is %d bytes, over the limit of %d", info.Size(), catalog.MaxInputBytes)}
	}
	// A file that grows while it is read is read to one byte over the
	// limit, which the JSON layer then refuses.
	return regfile.ReadAll(f, make([]byte, 0, info.Size()+1), catalog.MaxInputBytes)
}

// readBounded reads a regular file of at most limit bytes; a larger one is
// read to limit+1 bytes, so that the reader of its content (the signature
// parser) reports it as too large.
func readBounded(path string, limit int64) ([]byte, error) {
	f, info, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return regfile.ReadAll(f, make([]byte, 0, min(info.Size(), limit)+1), limit)
}

// openRegular opens a regular file, never a FIFO, which would block a
// reload and every reload after it.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	f, info, err := regfile.Open(path)
	if nr, ok := regfile.AsNotRegular(err); ok && !nr.Replaced {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%s): give the catalog's file itself", regfile.Kind(nr.Mode))}
	}
	return f, info, err
}
