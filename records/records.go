package records

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
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

// A spec is the definition of one record: the call to make, and what kind of
// outcome the record is meant to show, so that a change to the synthetic
// catalog that turns a record into something else fails loudly instead of
// quietly changing what the record demonstrates.
type spec struct {
	id    string
	title string
	// call is the call as the protocol's JSON object, without the catalog.
	call string
	// want is the code the call is meant to fail with, or "" if it is meant
	// to succeed.
	want catalog.Code
}

// specs are the five records, in order: their numbers are their positions.
// Ids never change; a new record gets a new number and id.
var specs = []spec{
	{
		id:    "family-listing",
		title: "Listing the reading family: its enabled tools only, including tab.select, whose effect is change",
		call:  `{"op": "discover", "family": "reading"}`,
	},
	{
		id:    "single-tool",
		title: "One tool by exact name: page.find in the reading family, with its input schema",
		call:  `{"op": "discover", "family": "reading", "name": "page.find"}`,
	},
	{
		id:    "shape-valid-input",
		title: "Arguments of a valid shape: shape_valid is true, and authorized and executed stay false",
		call: `{"op": "validate_arguments", "name": "form.fill", "arguments": {` +
			`"selector": "form#search > input[name=q]", "text": "서울 날씨 & <b>weather</b> 🌤", "submit": true}}`,
	},
	{
		id:    "disabled-tool-rejected",
		title: "A disabled tool asked for by exact name is rejected, with no fallback to another tool",
		call:  `{"op": "discover", "family": "reading", "name": "page.screenshot"}`,
		want:  catalog.ToolNotAvailableInFamily,
	},
	{
		id:    "unknown-key-rejected",
		title: "Arguments with a key the input schema lacks are rejected",
		call:  `{"op": "validate_arguments", "name": "page.read", "arguments": {"tab_id": 3, "zoom": 2}}`,
		want:  catalog.InvalidArgumentKeys,
	},
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
		r, err := s.run(cat, ref)
		if err != nil {
			return nil, fmt.Errorf("record %q: %w", s.id, err)
		}
		r.File = fmt.Sprintf("%02d-%s.json", i+1, s.id)
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
	// Further generated files are added to set.Files here; Write and Check
	// handle every file alike.
	page, err := makePage(set.Records)
	if err != nil {
		return nil, fmt.Errorf("records page: %w", err)
	}
	set.Files = append(set.Files, page)
	set.sortFiles()
	return set, nil
}

func checkCatalogPath(p string) error {
	if p == "" || path.IsAbs(p) || strings.Contains(p, `\`) || path.Clean(p) != p || strings.HasPrefix(p, "../") || p == ".." {
		return fmt.Errorf("catalog path %q is not a clean relative path with forward slashes inside the repository", p)
	}
	return nil
}

// run makes the spec's call on cat and returns its record, without a file
// name.
func (s spec) run(cat catalog.Value, ref CatalogRef) (Record, error) {
	in, err := catalog.ParseJSON([]byte(s.call))
	if err != nil {
		return Record{}, fmt.Errorf("bad call definition: %w", err)
	}
	op, _ := in.Lookup("op")
	family, _ := in.Lookup("family")
	name, _ := in.Lookup("name")
	args, _ := in.Lookup("arguments")
	call := Call{Name: name, Catalog: ref}
	call.Op, _ = op.Str()

	var result any
	switch call.Op {
	case OpDiscover:
		call.Family = family
		result, err = catalog.Discover(cat, family, name)
	case OpValidateArguments:
		call.Arguments = args
		result, err = catalog.ValidateArguments(cat, name, args)
	default:
		return Record{}, fmt.Errorf("bad call definition: unknown op %q", call.Op)
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
		return Record{}, fmt.Errorf("the call is meant to %s, but it %s; the catalog no longer fits this record",
			describeOutcome(s.want, "succeed", "fail with "), describeOutcome(outcome.Error, "succeeded", "failed with "))
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
