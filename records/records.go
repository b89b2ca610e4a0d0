package records

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
)

// Format is the value of every record's "format" key. It changes only if the
// record format changes incompatibly.
const Format = "catalogkit-record/1"

// DefaultCatalogPath is where the synthetic catalog lives, relative to the
// repository root, with forward slashes: the path the committed records name.
const DefaultCatalogPath = "conformance/synthetic-catalog.json"

// The operations a record's call can make: the op names of the port protocol
// (conformance/PROTOCOL.md).
const (
	OpDiscover          = "discover"
	OpValidateArguments = "validate_arguments"
)

// A Record is one call on the synthetic catalog and what came back.
type Record struct {
	// ID is the record's stable identifier, such as "family-listing".
	ID string
	// File is the name of the record's file in the records folder, such as
	// "01-family-listing.json": the record's number and its ID.
	File string
	// Title says in one line of English what the record shows.
	Title string
	Call  Call
	// Outcome is what the catalog package returned for Call.
	Outcome Outcome
}

// A Call is an operation on a catalog with its inputs, named and typed as in
// the port protocol: raw JSON values, so a call can hold a family that is not
// a string just as a port's caller can.
type Call struct {
	// Op is [OpDiscover] or [OpValidateArguments].
	Op string
	// Family is the discover call's family; Absent for validate_arguments.
	Family catalog.Value
	// Name is the exact tool name; Absent when no name was given.
	Name catalog.Value
	// Arguments are the validate_arguments call's arguments; Absent for
	// discover.
	Arguments catalog.Value
	// Catalog says which catalog the call was made on.
	Catalog CatalogRef
}

// A CatalogRef names a catalog file by its path and the SHA-256 of its bytes,
// so that a reader knows exactly which definitions a record used.
type CatalogRef struct {
	// Path is the catalog file's path relative to the repository root, with
	// forward slashes, such as [DefaultCatalogPath].
	Path string
	// SHA256 is the lowercase hex SHA-256 of the catalog file's bytes.
	SHA256 string
}

// An Outcome is a call's result or its error code; exactly one is set. It has
// the shape of the port protocol's OUTCOME without the optional "detail": an
// error's message is not stable API, so records hold only its code.
type Outcome struct {
	// Result is the call's result as JSON: an array of descriptions for
	// discover, a validation object for validate_arguments. It is Absent when
	// the call failed.
	Result catalog.Value
	// Error is the stable code of the call's error, or "" when it succeeded.
	Error catalog.Code
}

// MarshalJSON returns the record's JSON form: the keys "format", "id",
// "title", "call" and "outcome", compact and in no particular order. The
// record file holds this text in canonical form (see [Canonical]).
func (r Record) MarshalJSON() ([]byte, error) {
	call, err := r.Call.MarshalJSON()
	if err != nil {
		return nil, err
	}
	outcome, err := r.Outcome.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return object(
		member{"format", jsonString(Format)},
		member{"id", jsonString(r.ID)},
		member{"title", jsonString(r.Title)},
		member{"call", call},
		member{"outcome", outcome},
	), nil
}

// MarshalJSON returns the call's JSON form: "op", the inputs that were given
// ("family", "name", "arguments") and "catalog" as {"path", "sha256"}.
func (c Call) MarshalJSON() ([]byte, error) {
	ms := []member{{"op", jsonString(c.Op)}}
	for _, in := range []struct {
		key string
		v   catalog.Value
	}{{"family", c.Family}, {"name", c.Name}, {"arguments", c.Arguments}} {
		if in.v.Kind() != catalog.Absent {
			ms = append(ms, member{in.key, []byte(in.v.String())})
		}
	}
	ms = append(ms, member{"catalog", object(
		member{"path", jsonString(c.Catalog.Path)},
		member{"sha256", jsonString(c.Catalog.SHA256)},
	)})
	return object(ms...), nil
}

// MarshalJSON returns {"result": RESULT} or {"error": "CODE"}.
func (o Outcome) MarshalJSON() ([]byte, error) {
	switch {
	case o.Error != "" && o.Result.Kind() == catalog.Absent:
		return object(member{"error", jsonString(string(o.Error))}), nil
	case o.Error == "" && o.Result.Kind() != catalog.Absent:
		return object(member{"result", []byte(o.Result.String())}), nil
	}
	return nil, errors.New("an outcome needs exactly one of a result and an error code")
}

// definitions holds the definitions of the records, in order: for each, its
// id, title, call (without the catalog) and the kind of outcome it is meant to
// show. It is data, not code, so that a port in another language reads the
// same definitions to regenerate the records (see FORMAT.md).
//
//go:embed definitions.json
var definitions []byte

// A spec is the definition of one record: the call to make, and what kind of
// outcome the record is meant to show, so that a change to the synthetic
// catalog that turns a record into something else fails loudly instead of
// quietly changing what the record demonstrates.
type spec struct {
	id, title string
	// call is the call as the protocol's JSON object, without the catalog.
	call catalog.Value
	// want is the code the call is meant to fail with, or "" if it is meant
	// to succeed.
	want catalog.Code
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// parseDefinitions reads and checks record definitions: a JSON array of at
// most 99 objects with exactly the keys "id" (unique, lowercase letters,
// digits and dashes), "title" (one line), "call" (an object with "op" and
// exactly that op's inputs) and "expect" ("result" or an error code).
func parseDefinitions(data []byte) ([]spec, error) {
	defs, err := catalog.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	if defs.Kind() != catalog.Array || defs.Len() == 0 || defs.Len() > 99 {
		return nil, errors.New("definitions are not an array of 1 to 99 record definitions")
	}
	var specs []spec
	seen := map[string]bool{}
	for i := range defs.Len() {
		d := defs.Index(i)
		if !hasKeys(d, []string{"id", "title", "call", "expect"}, nil) {
			return nil, fmt.Errorf("definition %d is not an object with exactly the keys id, title, call and expect", i+1)
		}
		s := spec{}
		s.id, _ = str(d, "id")
		s.title, _ = str(d, "title")
		s.call, _ = d.Lookup("call")
		expect, _ := str(d, "expect")
		if !idPattern.MatchString(s.id) || seen[s.id] {
			return nil, fmt.Errorf("definition %d: id %q is not a new id of lowercase letters, digits and dashes", i+1, s.id)
		}
		seen[s.id] = true
		if s.title == "" || strings.ContainsAny(s.title, "\r\n") {
			return nil, fmt.Errorf("definition %q: title %q is not one non-empty line", s.id, s.title)
		}
		op, _ := str(s.call, "op")
		switch {
		case op == OpDiscover && hasKeys(s.call, []string{"op", "family"}, []string{"name"}):
		case op == OpValidateArguments && hasKeys(s.call, []string{"op", "arguments"}, []string{"name"}):
		default:
			return nil, fmt.Errorf("definition %q: call is not a discover call (op, family, name?) or a validate_arguments call (op, name?, arguments)", s.id)
		}
		if expect != "result" {
			s.want = catalog.Code(expect)
			if !slices.Contains(catalog.Codes, s.want) {
				return nil, fmt.Errorf("definition %q: expect %q is not \"result\" or an error code", s.id, expect)
			}
		}
		specs = append(specs, s)
	}
	return specs, nil
}

// hasKeys reports whether v is an object with every key of required, and no
// key outside required and optional.
func hasKeys(v catalog.Value, required, optional []string) bool {
	if v.Kind() != catalog.Object {
		return false
	}
	n := 0
	for _, k := range required {
		if _, ok := v.Lookup(k); !ok {
			return false
		}
		n++
	}
	for _, k := range optional {
		if _, ok := v.Lookup(k); ok {
			n++
		}
	}
	return v.Len() == n
}

// str returns the string member key of an object.
func str(v catalog.Value, key string) (string, bool) {
	m, _ := v.Lookup(key)
	return m.Str()
}

// Generate makes the records by calling the catalog package on a catalog,
// normally the synthetic catalog: catalogJSON is the catalog file's bytes and
// catalogPath its path relative to the repository root, with forward slashes
// ([DefaultCatalogPath]), which the records name along with the bytes'
// SHA-256.
//
// Generate does no I/O. It fails if catalogPath is not a clean relative
// slash-separated path, if the catalog is not valid (the error wraps the
// [*catalog.Error], so its code is available with [errors.As]), or if a call's
// outcome is not the kind its record is meant to show (a success, or a
// particular error code): the catalog no longer fits the records.
func Generate(catalogJSON []byte, catalogPath string) (*Set, error) {
	return generateFrom(definitions, catalogJSON, catalogPath)
}

func generateFrom(definitions, catalogJSON []byte, catalogPath string) (*Set, error) {
	specs, err := parseDefinitions(definitions)
	if err != nil {
		return nil, fmt.Errorf("bad record definitions: %v", err) // %v: not a catalog error
	}
	if err := checkCatalogPath(catalogPath); err != nil {
		return nil, err
	}
	cat, err := catalog.ParseJSON(catalogJSON)
	if err == nil {
		_, err = catalog.Compile(cat)
	}
	if err != nil {
		return nil, fmt.Errorf("catalog %q is not valid: %w", catalogPath, err)
	}
	sum := sha256.Sum256(catalogJSON)
	ref := CatalogRef{Path: catalogPath, SHA256: hex.EncodeToString(sum[:])}

	set := &Set{}
	for i, s := range specs {
		file := fmt.Sprintf("%02d-%s.json", i+1, s.id)
		r, err := s.run(cat, ref)
		if err != nil {
			return nil, fmt.Errorf("record %s: %w", file, err)
		}
		r.File = file
		set.Records = append(set.Records, r)
	}
	for _, r := range set.Records {
		text, err := r.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("record %q: %w", r.ID, err)
		}
		data, err := Canonical(text)
		if err != nil {
			return nil, fmt.Errorf("record %q: %w", r.ID, err)
		}
		set.Files = append(set.Files, File{Name: r.File, Data: data})
	}
	for _, g := range generators {
		f, err := g(set.Records)
		if err != nil {
			return nil, fmt.Errorf("failed to make a file beside the records: %w", err)
		}
		set.Files = append(set.Files, f)
	}
	set.sortFiles()
	return set, nil
}

// generators make the files that go beside the record files, from the
// records (a page showing them, for one). Each must be deterministic: the
// same records, the same bytes. [Set.Write] writes their files and
// [Set.Check] compares them exactly like the record files.
var generators []func(records []Record) (File, error)

func checkCatalogPath(p string) error {
	if p == "" || path.IsAbs(p) || strings.Contains(p, `\`) || path.Clean(p) != p || strings.HasPrefix(p, "../") || p == ".." {
		return fmt.Errorf("catalog path %q is not a clean relative path with forward slashes inside the repository", p)
	}
	return nil
}

// run makes the spec's call on cat and returns its record, without a file
// name.
func (s spec) run(cat catalog.Value, ref CatalogRef) (Record, error) {
	op, _ := s.call.Lookup("op")
	family, _ := s.call.Lookup("family")
	name, _ := s.call.Lookup("name")
	args, _ := s.call.Lookup("arguments")
	call := Call{Name: name, Catalog: ref}
	call.Op, _ = op.Str()

	var result any
	var err error
	switch call.Op {
	case OpDiscover:
		call.Family = family
		result, err = catalog.Discover(cat, family, name)
	case OpValidateArguments:
		call.Arguments = args
		result, err = catalog.ValidateArguments(cat, name, args)
	default:
		return Record{}, fmt.Errorf("unknown op %q", call.Op)
	}

	var outcome Outcome
	if err != nil {
		var ce *catalog.Error
		if !errors.As(err, &ce) {
			return Record{}, err
		}
		outcome.Error = ce.Code
	} else {
		text, err := json.Marshal(result)
		if err != nil {
			return Record{}, err
		}
		if outcome.Result, err = catalog.ParseJSON(text); err != nil {
			return Record{}, err
		}
	}
	if outcome.Error != s.want {
		return Record{}, fmt.Errorf("its %s call is meant to %s, but it %s: catalog %q no longer fits this record",
			call.Op, describeOutcome(s.want, "succeed", "fail with "), describeOutcome(outcome.Error, "succeeded", "failed with "), ref.Path)
	}
	return Record{ID: s.id, Title: s.title, Call: call, Outcome: outcome}, nil
}

// describeOutcome says "succeed" or "fail with CODE", in the words given.
func describeOutcome(code catalog.Code, success, failure string) string {
	if code == "" {
		return success
	}
	return failure + string(code)
}

// A member is one member of a JSON object being built: a key and the JSON
// text of its value.
type member struct {
	key  string
	text []byte
}

// object returns the compact JSON text of an object with the members given.
func object(ms ...member) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonString(m.key))
		b.WriteByte(':')
		b.Write(m.text)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// jsonString returns s as a JSON string.
func jsonString(s string) []byte { return appendString(nil, s) }
