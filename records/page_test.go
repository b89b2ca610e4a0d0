package records

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/catalogkit/catalogkit/catalog"
)

// The page tests read the page as text with a few patterns that rely on the
// template's fixed markup (the package and its tests use the standard
// library only, which has no HTML parser): sections, and elements carrying
// data-field, data-json, data-grant and data-i18n attributes with text-only
// content.
var (
	sectionRE = regexp.MustCompile(`(?s)<section class="record" id="rec-([^"]+)"[^>]*>(.*?)</section>`)
	i18nRE    = regexp.MustCompile(`<[a-z0-9]+ [^>]*data-i18n="([^"]*)"[^>]*>([^<]*)<`)
	hrefRE    = regexp.MustCompile(`href="([^"]*)"`)
)

// pageOf returns the page's bytes from a set.
func pageOf(t *testing.T, set *Set) []byte {
	t.Helper()
	for _, f := range set.Files {
		if f.Name == PageFile {
			return f.Data
		}
	}
	t.Fatalf("the set has no %s; files: %v", PageFile, fileNames(set))
	return nil
}

func fileNames(set *Set) []string {
	var names []string
	for _, f := range set.Files {
		names = append(names, f.Name)
	}
	return names
}

// attrText returns the unescaped text of the one element in s with
// attr="name", and whether there is exactly one.
func attrText(s, attr, name string) (string, bool) {
	re := regexp.MustCompile(`(?s)<[a-z0-9]+ [^>]*` + attr + `="` + regexp.QuoteMeta(name) + `"[^>]*>(.*?)</`)
	m := re.FindAllStringSubmatch(s, -1)
	if len(m) != 1 {
		return "", false
	}
	return html.UnescapeString(m[0][1]), true
}

// readJSON decodes JSON text into any, keeping numbers exact.
func readJSON(t *testing.T, what string, text []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, text)
	}
	return v
}

// committedRecords returns the record files in this folder, in name order,
// decoded: the files the page must show.
func committedRecords(t *testing.T) (names []string, recs []map[string]any) {
	t.Helper()
	paths, err := filepath.Glob("[0-9][0-9]-*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no record files in the package folder: %v", err)
	}
	slices.Sort(paths)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, p)
		recs = append(recs, readJSON(t, p, data).(map[string]any))
	}
	return names, recs
}

// TestPageShowsEveryRecord reads the call and outcome of each record back
// from the page and compares them, as JSON values, with the record files.
func TestPageShowsEveryRecord(t *testing.T) {
	page := string(pageOf(t, generate(t)))
	names, recs := committedRecords(t)

	sections := sectionRE.FindAllStringSubmatch(page, -1)
	if len(sections) != len(names) {
		t.Fatalf("page has %d record sections, want one per record file (%d)", len(sections), len(names))
	}
	for i, name := range names {
		rec := recs[i]
		stem := strings.TrimSuffix(name, ".json")
		if sections[i][1] != stem {
			t.Errorf("section %d is %q, want %q: the records in file order", i+1, sections[i][1], stem)
			continue
		}
		sec := sections[i][2]
		text := func(attr, key string) string {
			t.Helper()
			s, ok := attrText(sec, attr, key)
			if !ok {
				t.Errorf("%s: want exactly one element with %s=%q", name, attr, key)
			}
			return s
		}

		if got := text("data-field", "title"); got != rec["title"] {
			t.Errorf("%s: title %q, want %q", name, got, rec["title"])
		}
		if got := text("data-field", "file"); got != name {
			t.Errorf("%s: file %q, want %q", name, got, name)
		}
		if !strings.Contains(sec, `href="`+name+`"`) {
			t.Errorf("%s: no link to the record file", name)
		}

		// The call, rebuilt from what the page shows.
		call := map[string]any{
			"op": text("data-field", "op"),
			"catalog": map[string]any{
				"path":   text("data-field", "catalog.path"),
				"sha256": text("data-field", "catalog.sha256"),
			},
		}
		for _, key := range []string{"family", "name", "arguments"} {
			if s, ok := attrText(sec, "data-json", key); ok {
				call[key] = readJSON(t, name+" "+key, []byte(s))
			}
		}
		if want := rec["call"]; !reflect.DeepEqual(call, want) {
			t.Errorf("%s: the page shows the call\n%v\nwant\n%v", name, call, want)
		}

		// The outcome.
		outcome := map[string]any{}
		if s, ok := attrText(sec, "data-json", "result"); ok {
			outcome["result"] = readJSON(t, name+" result", []byte(s))
		}
		if s, ok := attrText(sec, "data-field", "error"); ok {
			outcome["error"] = s
		}
		if want := rec["outcome"]; !reflect.DeepEqual(outcome, want) {
			t.Errorf("%s: the page shows the outcome\n%v\nwant\n%v", name, outcome, want)
		}

		// A validation result's grant keys are shown prominently, with
		// the record's values.
		result, _ := rec["outcome"].(map[string]any)["result"].(map[string]any)
		hasGrants := result != nil
		for _, key := range grantKeys {
			if _, ok := result[key]; !ok {
				hasGrants = false
			}
		}
		if got := strings.Contains(sec, `class="grants"`); got != hasGrants {
			t.Errorf("%s: grants box shown = %v, want %v", name, got, hasGrants)
		}
		if hasGrants {
			for _, key := range grantKeys {
				want, _ := json.Marshal(result[key])
				if got := text("data-grant", key); got != key+": "+string(want) {
					t.Errorf("%s: grant shown as %q, want %q", name, got, key+": "+string(want))
				}
			}
		}

		// The tab that controls the section.
		tab := fmt.Sprintf(`role="tab" id="tab-%s" aria-controls="rec-%s"`, stem, stem)
		if !strings.Contains(page, tab) {
			t.Errorf("%s: no tab %s", name, tab)
		}
	}
}

// TestPageStrings checks the UI strings table: every string in every page
// language (and Korean text really Korean), every string the page uses in the
// table, every string in the table used by the page, and the page rendered in
// its first language with the same table embedded for the script.
func TestPageStrings(t *testing.T) {
	if !slices.Equal(PageLangs, []string{"en", "ko"}) {
		t.Fatalf("PageLangs = %v; this test knows English and Korean", PageLangs)
	}
	var table map[string]map[string]string
	if err := json.Unmarshal(pageI18NJSON, &table); err != nil {
		t.Fatal(err)
	}
	if _, err := loadPageStrings(); err != nil {
		t.Fatal(err)
	}
	// Language names are written in their own language, on both pages.
	ownName := map[string]string{"lang.en": "en", "lang.ko": "ko"}
	for _, id := range sortedKeys(table) {
		texts := table[id]
		if got := slices.Sorted(maps.Keys(texts)); !slices.Equal(got, []string{"en", "ko"}) {
			t.Errorf("string %q has languages %v, want [en ko]", id, got)
		}
		for lang, s := range texts {
			if strings.TrimSpace(s) == "" || s != strings.TrimSpace(s) {
				t.Errorf("string %q in %s is empty or has surrounding space: %q", id, lang, s)
			}
		}
		isKorean := func(lang string) bool {
			if own, ok := ownName[id]; ok {
				return own == "ko"
			}
			return lang == "ko"
		}
		for _, lang := range []string{"en", "ko"} {
			if got, want := hasHangul(texts[lang]), isKorean(lang); got != want {
				t.Errorf("string %q in %s: has Hangul = %v, want %v: %q", id, lang, got, want, texts[lang])
			}
		}
	}

	page := string(pageOf(t, generate(t)))
	if !strings.HasPrefix(page, "<!DOCTYPE html>\n<html lang=\"en\">\n") {
		t.Errorf("page does not start with the doctype and <html lang=\"en\">")
	}
	used := map[string]bool{}
	for _, m := range i18nRE.FindAllStringSubmatch(page, -1) {
		id, text := m[1], html.UnescapeString(m[2])
		used[id] = true
		want, ok := table[id]["en"]
		switch {
		case !ok:
			t.Errorf("the page uses string %q, which the table lacks", id)
		case text != want:
			t.Errorf("string %q shows %q, want the English text %q", id, text, want)
		}
	}
	for _, id := range sortedKeys(table) {
		if !used[id] {
			t.Errorf("string %q is in the table but not on the page", id)
		}
	}
	if n := strings.Count(page, "data-i18n="); n != len(i18nRE.FindAllString(page, -1)) {
		t.Errorf("%d data-i18n attributes but %d text-only elements carrying them: the script replaces text, so they must hold text only", n, len(i18nRE.FindAllString(page, -1)))
	}

	// The script's copy of the table.
	m := regexp.MustCompile(`(?s)<script type="application/json" id="page-strings">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("page has no strings table for the script")
	}
	var embedded map[string]map[string]string
	if err := json.Unmarshal([]byte(m[1]), &embedded); err != nil {
		t.Fatalf("embedded strings table: %v", err)
	}
	if !reflect.DeepEqual(embedded, table) {
		t.Error("the table embedded in the page differs from page.i18n.json")
	}

	// Every record needs its name and summary in the table.
	recs := generate(t).Records
	recs[0].ID = "no-strings-for-this-id"
	if _, err := makePage(recs); err == nil || !strings.Contains(err.Error(), "record.no-strings-for-this-id.tab") {
		t.Errorf("makePage with a record the table does not name = %v, want an error naming its missing string", err)
	}
}

func hasHangul(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Hangul, r) })
}

// TestPageHasNoHandWrittenRecordData checks that no string value of any
// record file is written into the page's template, styles, script or UI
// texts: the page gets every piece of record data from the records.
func TestPageHasNoHandWrittenRecordData(t *testing.T) {
	_, recs := committedRecords(t)
	// Exceptions, with reasons:
	exempt := map[string]string{
		// The contract's vocabulary (conformance/SPEC.md §4): effects and field types.
		// Ordinary words ("changes", "reads") contain some.
		"read": "effect", "change": "effect",
		"string": "field type", "integer": "field type", "boolean": "field type", "object": "schema type",
	}
	var values []string
	for _, r := range recs {
		collectStrings(r, &values)
	}
	ids := map[string]bool{}
	for _, r := range recs {
		ids[r["id"].(string)] = true
	}

	var texts []string
	var table map[string]map[string]string
	if err := json.Unmarshal(pageI18NJSON, &table); err != nil {
		t.Fatal(err)
	}
	for _, id := range sortedKeys(table) {
		texts = append(texts, table[id]["en"], table[id]["ko"])
	}
	sources := map[string]string{
		"page.html.tmpl":       pageTemplateText,
		"page.css":             pageCSS,
		"page.js":              pageJS,
		"page.i18n.json texts": strings.Join(texts, "\n"),
	}
	checked := 0
	for _, v := range slices.Compact(slices.Sorted(slices.Values(values))) {
		if _, ok := exempt[v]; ok || len(v) < 3 {
			continue
		}
		checked++
		// As a word: "discover" is in "discovery", "query" in
		// "querySelector".
		word := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(v) + `($|[^A-Za-z0-9_])`)
		for name, src := range sources {
			if word.MatchString(src) {
				t.Errorf("%s contains %q, a string of the record files: record data must come from the records", name, v)
			}
		}
		// Ids name the records' strings in the table; in the
		// template they would be hand-written.
		if ids[v] && strings.Contains(pageTemplateText, v) {
			t.Errorf("page.html.tmpl contains record id %q", v)
		}
	}
	if checked < 20 {
		t.Errorf("only %d record strings checked; the record files should hold more", checked)
	}
}

// collectStrings appends every string value (not key) in v to out.
func collectStrings(v any, out *[]string) {
	switch v := v.(type) {
	case string:
		*out = append(*out, v)
	case []any:
		for _, e := range v {
			collectStrings(e, out)
		}
	case map[string]any:
		for _, k := range sortedKeys(v) {
			collectStrings(v[k], out)
		}
	}
}

// TestPageIsDeterministic: the page's bytes depend on the records only.
func TestPageIsDeterministic(t *testing.T) {
	first := pageOf(t, generate(t))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for i := range 5 {
		if got := pageOf(t, generate(t)); !bytes.Equal(got, first) {
			t.Fatalf("generation %d gave a different page:\n%s", i+2, lineDiff(first, got))
		}
	}
}

// TestPageIsSelfContained: the page loads nothing; its only links are the
// record files beside it.
func TestPageIsSelfContained(t *testing.T) {
	set := generate(t)
	page := string(pageOf(t, set))
	for _, bad := range []string{"src=", "<link", "<iframe", "<img", "@import", "url(", "http:", "https:", "//cdn", "fetch(", "XMLHttpRequest"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q: it must load nothing", bad)
		}
	}
	var records []string
	for _, r := range set.Records {
		records = append(records, r.File)
	}
	var hrefs []string
	for _, m := range hrefRE.FindAllStringSubmatch(page, -1) {
		hrefs = append(hrefs, m[1])
	}
	if !slices.Equal(hrefs, records) {
		t.Errorf("page links %v, want exactly the record files %v", hrefs, records)
	}
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("page has %d script elements, want 2 (the strings table and the script)", n)
	}
}

// TestPageEscapesRecordData renders records whose every string is hostile
// markup, and checks that each comes out as text: escaped in the HTML, and
// the same string again once unescaped.
func TestPageEscapesRecordData(t *testing.T) {
	const evil = `</code></pre></section><script>alert("x&y")</script><!--`
	str := func(s string) catalog.Value {
		b, _ := json.Marshal(s)
		v, err := catalog.ParseJSON(b)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	obj := func(text string) catalog.Value {
		v, err := catalog.ParseJSON([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	evilJSON, _ := json.Marshal(evil)
	ref := CatalogRef{Path: evil, SHA256: evil}
	recs := generate(t).Records
	recs[0] = Record{ID: recs[0].ID, File: recs[0].File, Title: evil,
		Call:    Call{Op: evil, Family: str(evil), Name: str(evil), Catalog: ref},
		Outcome: Outcome{Result: obj(`[{"name": ` + string(evilJSON) + `}]`)}}
	recs[1] = Record{ID: recs[1].ID, File: recs[1].File, Title: evil,
		Call:    Call{Op: OpValidateArguments, Name: str(evil), Arguments: obj(`{"k": ` + string(evilJSON) + `}`), Catalog: ref},
		Outcome: Outcome{Error: catalog.Code(evil)}}
	f, err := makePage(recs)
	if err != nil {
		t.Fatal(err)
	}
	page := string(f.Data)
	if strings.Contains(page, "<script>alert") || strings.Contains(page, "<!--") {
		t.Fatalf("record data reached the page as markup:\n%s", page)
	}
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("page has %d script elements, want 2", n)
	}
	if n := strings.Count(page, "</section>"); n != len(recs) {
		t.Errorf("page has %d section ends, want %d", n, len(recs))
	}
	secs := sectionRE.FindAllStringSubmatch(page, -1)
	for _, c := range []struct {
		sec             int
		attr, key, want string
	}{
		{0, "data-field", "title", evil},
		{0, "data-field", "op", evil},
		{0, "data-field", "catalog.path", evil},
		{0, "data-field", "catalog.sha256", evil},
		{1, "data-field", "error", evil},
	} {
		if got, ok := attrText(secs[c.sec][2], c.attr, c.key); !ok || got != c.want {
			t.Errorf("section %d %s=%q: got %q (found %v), want %q", c.sec+1, c.attr, c.key, got, ok, c.want)
		}
	}
	for _, c := range []struct {
		sec  int
		key  string
		path func(any) any
	}{
		{0, "family", func(v any) any { return v }},
		{0, "name", func(v any) any { return v }},
		{0, "result", func(v any) any { return v.([]any)[0].(map[string]any)["name"] }},
		{1, "arguments", func(v any) any { return v.(map[string]any)["k"] }},
	} {
		s, ok := attrText(secs[c.sec][2], "data-json", c.key)
		if got := c.path(readJSON(t, c.key, []byte(s))); got != evil || !ok {
			t.Errorf("section %d %s: string %q, want %q", c.sec+1, c.key, got, evil)
		}
	}

	// The committed records: a string with markup characters appears only
	// escaped.
	committed := string(pageOf(t, generate(t)))
	_, files := committedRecords(t)
	var values []string
	for _, r := range files {
		collectStrings(r, &values)
	}
	found := 0
	for _, v := range values {
		if !strings.ContainsAny(v, "<>&") {
			continue
		}
		found++
		if strings.ContainsAny(v, "<&") && strings.Contains(committed, v) {
			t.Errorf("page holds %q unescaped", v)
		}
		if !strings.Contains(committed, template.HTMLEscapeString(v)) {
			t.Errorf("page lacks %q escaped as %q", v, template.HTMLEscapeString(v))
		}
	}
	t.Logf("%d strings of the committed records hold markup characters", found)
}

// TestPageInSet: the page is one of the set's files, written by Write and
// checked by Check like the records.
func TestPageInSet(t *testing.T) {
	set := generate(t)
	if !set.Owns(PageFile) {
		t.Errorf("Owns(%q) = false", PageFile)
	}
	dir := t.TempDir()
	if err := set.Write(dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, PageFile))
	if err != nil || !bytes.Equal(got, pageOf(t, set)) {
		t.Fatalf("Write did not write the page: %v", err)
	}
	if problems, err := set.Check(dir); err != nil || len(problems) != 0 {
		t.Fatalf("Check after Write = %v, %v", problems, err)
	}

	// A hand edit of the page is stale, with a diff naming the change.
	edited := bytes.Replace(got, []byte("<h1 "), []byte("<h1 style=\"color:red\" "), 1)
	must(t, os.WriteFile(filepath.Join(dir, PageFile), edited, 0o644))
	problems, err := set.Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || problems[0].Kind != Stale || problems[0].Name != PageFile || !strings.Contains(problems[0].Diff(), `+<h1 style="color:red" `) {
		t.Errorf("Check of an edited page = %v, want one stale %s with a diff", problems, PageFile)
	}

	// A removed page is missing.
	must(t, os.Remove(filepath.Join(dir, PageFile)))
	problems, err = set.Check(dir)
	if err != nil || len(problems) != 1 || problems[0].Kind != Missing || problems[0].Name != PageFile {
		t.Errorf("Check without the page = %v, %v; want one missing %s", problems, err, PageFile)
	}
}
