package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/shared/linediff"
)

// LineDiff is the standard-library [DiffFunc]: it writes both values as
// indented JSON (object keys sorted, so their order never shows) and returns
// a line diff, "-" for lines only in want, "+" for lines only in got, " " for
// common lines ([linediff.Full]: a bounded diff, whatever the sizes); "" if
// the texts are equal.
func LineDiff(want, got any) string {
	a, b := indentLines(want), indentLines(got)
	if strings.Join(a, "\n") == strings.Join(b, "\n") {
		return ""
	}
	return linediff.Full(a, b)
}

func indentLines(v any) []string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return []string{"<" + err.Error() + ">"}
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// A place says where a value sits in an outcome, as far as member order is
// concerned. By the contract, member order carries meaning in exactly two
// kinds of object: the properties of every schema in an inputSchema (the
// fields' order; format 2 nests schemas in properties, items and anyOf),
// and every tool's fields inside a catalog (the catalog a mutate_and_repeat
// result echoes). Every other object is a set of members.
type place uint8

const (
	placeTop         place = iota // any other value
	placeInputSchema              // the value of an "inputSchema" member, or a schema inside it
	placeSchemaList               // the anyOf of a schema
	placeCatalog                  // the value of a "catalog" member
	placeTool                     // an element of a catalog
	placeOrdered                  // an object whose member order counts
	placeProperties               // an input schema's properties: ordered, and its values are schemas
)

// member returns the place of the value of member key of an object at p.
func (p place) member(key string) place {
	switch {
	case p == placeProperties, p == placeInputSchema && key == "items":
		// Format 2 nests schemas: each property's, and items.
		return placeInputSchema
	case key == "inputSchema":
		return placeInputSchema
	case key == "catalog":
		return placeCatalog
	case p == placeInputSchema && key == "properties":
		return placeProperties
	case p == placeInputSchema && key == "anyOf":
		return placeSchemaList
	case p == placeTool && key == "fields":
		return placeOrdered
	}
	return placeTop
}

// element returns the place of an element of an array at p.
func (p place) element() place {
	switch p {
	case placeCatalog:
		return placeTool
	case placeSchemaList:
		return placeInputSchema
	}
	return placeTop
}

// ordered reports whether member order counts in an object at p.
func (p place) ordered() bool { return p == placeOrdered || p == placeProperties }

// orderDiffs reports every ordered object (see [place]) that has the same
// keys in want and got but in another order: for each, its JSON path and
// both key orders, as "-" (want) and "+" (got) lines. It returns "" if there
// is none.
func orderDiffs(want, got *node) string {
	var b strings.Builder
	orderDiffsAt(&b, want, got, placeTop, "$")
	return b.String()
}

func orderDiffsAt(b *strings.Builder, want, got *node, p place, path string) {
	switch {
	case want.kind != got.kind:
	case want.kind == kArray:
		for i := range min(len(want.items), len(got.items)) {
			orderDiffsAt(b, want.items[i], got.items[i], p.element(), fmt.Sprintf("%s[%d]", path, i))
		}
	case want.kind == kObject:
		if p.ordered() && !slices.Equal(want.keys, got.keys) && sameKeys(want.keys, got.keys) {
			fmt.Fprintf(b, "member order differs at %s (the order of this object's members is part of the contract):\n", path)
			fmt.Fprintf(b, "- %s\n+ %s\n", keyList(want.keys), keyList(got.keys))
		}
		for i, k := range want.keys {
			if gv, ok := got.lookup(k); ok {
				orderDiffsAt(b, want.vals[i], gv, p.member(k), path+pathKey(k))
			}
		}
	}
}

func sameKeys(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(k string) bool { return !slices.Contains(b, k) })
}

// keyList writes keys as a JSON array of strings.
func keyList(keys []string) string {
	b := []byte{'['}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = catalog.AppendQuote(b, k)
	}
	return string(append(b, ']'))
}

// pathKey writes one object key of a JSON path: .key for a key of letters,
// digits and _ (not first a digit), else ["key"].
func pathKey(k string) string {
	plain := k != ""
	for i, c := range k {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			plain = false
		}
	}
	if plain {
		return "." + k
	}
	return "[" + string(catalog.AppendQuote(nil, k)) + "]"
}
