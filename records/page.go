package records

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
)

// PageFile is the name of the records viewer in the output folder: one
// static HTML page, generated from the records beside it, that shows each
// record's call and outcome in Korean or English.
//
// The page is self-contained (its styles, script and UI strings are inlined;
// it loads nothing), opens from the file system, and is deterministic: the
// same records give the same bytes. Without JavaScript it shows every record
// in order; with JavaScript it turns them into a tab list (WAI-ARIA tabs with
// manual activation) and a language switch, keeping the chosen language and
// record in the URL fragment, as in "#lang=ko&record=03-shape-valid-input".
//
// Every piece of record data on the page (titles, calls, outcomes) comes from
// the [Record]s through html/template, which escapes it; the page's own text
// comes from the table in page.i18n.json, in every language of [PageLangs].
const PageFile = "index.html"

// PageLangs are the page's languages, the first being the one the page is
// rendered in (and shown in without JavaScript).
var PageLangs = []string{"en", "ko"}

var (
	//go:embed page.html.tmpl
	pageTemplateText string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
	//go:embed page.i18n.json
	pageI18NJSON []byte
)

func init() { generators = append(generators, makePage) }

// grantKeys are the keys of a validate_arguments result that say what a
// valid shape does and does not mean; the page shows them prominently, each
// with its value from the record and an explanation.
var grantKeys = []string{"shape_valid", "authorized", "executed"}

// pageStrings is the page's UI text: string id → language → text.
type pageStrings map[string]map[string]string

// loadPageStrings reads and checks the embedded table: every id has a
// non-empty text in every language of [PageLangs], and in no other.
func loadPageStrings() (pageStrings, error) {
	var table pageStrings
	dec := json.NewDecoder(bytes.NewReader(pageI18NJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&table); err != nil {
		return nil, fmt.Errorf("page.i18n.json: %w", err)
	}
	for _, id := range sortedKeys(table) {
		for _, lang := range PageLangs {
			if strings.TrimSpace(table[id][lang]) == "" {
				return nil, fmt.Errorf("page.i18n.json: string %q has no %q text", id, lang)
			}
		}
		for lang := range table[id] {
			if !slices.Contains(PageLangs, lang) {
				return nil, fmt.Errorf("page.i18n.json: string %q has a text in %q, which is not a page language", id, lang)
			}
		}
	}
	return table, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// The ids of the strings that name and explain each record, by record id.
func recordTabKey(id string) string     { return "record." + id + ".tab" }
func recordSummaryKey(id string) string { return "record." + id + ".summary" }

// pageData is what page.html.tmpl renders.
type pageData struct {
	Lang    string
	Langs   []string
	Strings pageStrings
	Records []pageRecord
	CSS     template.CSS
	JS      template.JS
}

// A pageRecord is one record, ready to render: its data as text, JSON values
// in canonical form (the form of the record files), absent inputs as "".
type pageRecord struct {
	Number     int
	ID, Stem   string
	File       string
	Title      string
	TabKey     string
	SummaryKey string

	Op                         string
	Family, Name, Arguments    string
	CatalogPath, CatalogSHA256 string

	// Result is the result's JSON, ResultIsList whether it is an array (of
	// descriptions); Error is the error code. Exactly one is set.
	Result       string
	ResultIsList bool
	Error        string
	// Grants are the result's grantKeys, when it has them all.
	Grants []pageGrant
}

// A pageGrant is one key of a validation result and its JSON value.
type pageGrant struct {
	Key, Value string
	// Expected reports whether the value is the one the contract fixes:
	// true for shape_valid, false for authorized and executed.
	Expected bool
}

// makePage renders the records viewer for the records, in order.
func makePage(recs []Record) (File, error) {
	table, err := loadPageStrings()
	if err != nil {
		return File{}, err
	}
	data := pageData{
		Lang:    PageLangs[0],
		Langs:   PageLangs,
		Strings: table,
		CSS:     template.CSS(pageCSS),
		JS:      template.JS(pageJS),
	}
	for i, r := range recs {
		pr, err := makePageRecord(i+1, r)
		if err != nil {
			return File{}, fmt.Errorf("record %q: %w", r.ID, err)
		}
		for _, key := range []string{pr.TabKey, pr.SummaryKey} {
			if _, ok := table[key]; !ok {
				return File{}, fmt.Errorf("record %q: page.i18n.json has no string %q; every record needs its name and summary in every page language", r.ID, key)
			}
		}
		data.Records = append(data.Records, pr)
	}

	tmpl, err := template.New("page").Funcs(template.FuncMap{
		// t returns the text of a string id in the page's first
		// language; the script swaps in the others.
		"t": func(id string) (string, error) {
			s, ok := table[id][PageLangs[0]]
			if !ok {
				return "", fmt.Errorf("page.i18n.json has no string %q", id)
			}
			return s, nil
		},
	}).Parse(pageTemplateText)
	if err != nil {
		return File{}, fmt.Errorf("page template: %w", err)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, data); err != nil {
		return File{}, fmt.Errorf("page template: %w", err)
	}
	return File{Name: PageFile, Data: b.Bytes()}, nil
}

func makePageRecord(n int, r Record) (pageRecord, error) {
	pr := pageRecord{
		Number:        n,
		ID:            r.ID,
		Stem:          strings.TrimSuffix(r.File, ".json"),
		File:          r.File,
		Title:         r.Title,
		TabKey:        recordTabKey(r.ID),
		SummaryKey:    recordSummaryKey(r.ID),
		Op:            r.Call.Op,
		CatalogPath:   r.Call.Catalog.Path,
		CatalogSHA256: r.Call.Catalog.SHA256,
		Error:         string(r.Outcome.Error),
	}
	for _, in := range []struct {
		dst *string
		key string
		v   catalog.Value
	}{{&pr.Family, "family", r.Call.Family}, {&pr.Name, "name", r.Call.Name}, {&pr.Arguments, "arguments", r.Call.Arguments}} {
		if in.v.Kind() != catalog.Absent {
			*in.dst = pageJSON(in.v, "call", in.key)
		}
	}
	switch res := r.Outcome.Result; {
	case (res.Kind() == catalog.Absent) == (pr.Error == ""):
		return pageRecord{}, fmt.Errorf("an outcome needs exactly one of a result and an error code")
	case res.Kind() != catalog.Absent:
		pr.Result = pageJSON(res, "outcome", "result")
		pr.ResultIsList = res.Kind() == catalog.Array
		pr.Grants = grants(res)
	}
	return pr, nil
}

// pageJSON returns v, found in a record under path, in canonical form
// without the final newline: exactly as the record file shows it.
func pageJSON(v catalog.Value, path ...string) string {
	b, _ := encodeAt(v, path...) // v is not Absent
	return strings.TrimSuffix(string(b), "\n")
}

// grants returns the grantKeys of a result object with their values, or nil
// if the result lacks any of them.
func grants(res catalog.Value) []pageGrant {
	if res.Kind() != catalog.Object {
		return nil
	}
	var gs []pageGrant
	for i, key := range grantKeys {
		v, ok := res.Lookup(key)
		if !ok {
			return nil
		}
		b, isBool := v.Bool()
		gs = append(gs, pageGrant{Key: key, Value: pageJSON(v), Expected: isBool && b == (i == 0)})
	}
	return gs
}
