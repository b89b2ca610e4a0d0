package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/catalogkit/catalogkit/internal/testlib/skipreport"
	"github.com/catalogkit/catalogkit/records"
)

// Deadlines. The machine may be slow and shared: they are generous, but
// every wait has one.
const (
	startTimeout = 60 * time.Second
	testTimeout  = 3 * time.Minute
)

// The two widths the page must be readable at.
const (
	phoneWidth   = 360
	desktopWidth = 1280
)

// browser is the one Chromium the tests share, started by the first test
// that needs it and stopped by TestMain.
var browser struct {
	once        sync.Once
	path        string // the executable, "" if none was found
	ctx         context.Context
	cancel      context.CancelFunc
	userDataDir string
	err         error
}

// skipped counts the tests that skipped because no Chromium was found.
var skipped atomic.Int32

// installChromium is the one command that installs what the tests need on
// Debian (the Korean font makes the Korean screenshots readable).
const installChromium = "sudo apt-get install chromium fonts-nanum"

func TestMain(m *testing.M) {
	code := m.Run()
	if n := skipped.Load(); n > 0 {
		skipreport.Report(fmt.Sprintf("internal/suites/browsertest: %d tests skipped: no Chromium found, so the records page was NOT tested in a browser; install it: %s (or set CATALOGKIT_CHROMIUM)", n, installChromium))
	}
	if browser.cancel != nil {
		browser.cancel()
	}
	if browser.userDataDir != "" {
		os.RemoveAll(browser.userDataDir)
	}
	os.Exit(code)
}

// findChromium returns the browser to use, or "".
func findChromium() string {
	if p := os.Getenv("CATALOGKIT_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func startBrowser() {
	browser.path = findChromium()
	if browser.path == "" {
		return
	}
	dir, err := os.MkdirTemp("", "catalogkit-chromium-")
	if err != nil {
		browser.err = err
		return
	}
	browser.userDataDir = dir
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser.path),
		chromedp.UserDataDir(dir), // a fresh profile
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.WindowSize(desktopWidth, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	browser.ctx = ctx
	browser.cancel = func() { cancelCtx(); cancelAlloc() }

	// The first Run starts the browser and ties it to ctx, which has no
	// deadline; bound the start here instead.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	select {
	case browser.err = <-done:
	case <-time.After(startTimeout):
		browser.cancel()
		browser.err = fmt.Errorf("%s did not start within %v", browser.path, startTimeout)
	}
	if browser.err != nil {
		browser.err = fmt.Errorf("cannot start %s: %w", browser.path, browser.err)
	}
}

// A tab is one browser tab of a test, with what the page did in it.
type tab struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string // uncaught exceptions and console errors
	requests []string // URLs the tab requested
	// page is the page's URL, without fragment: the one URL the tab may
	// request, with the record files beside it where a test follows a
	// link (allowed).
	page    string
	allowed []string
}

// newTab opens a tab, or fails or skips the test where there is no browser.
// The tab closes, and its exceptions, console errors and requests other than
// the page are reported, when the test ends.
func newTab(t *testing.T) *tab {
	t.Helper()
	if testing.Short() {
		t.Skip("the records page in headless Chromium: make test runs it")
	}
	browser.once.Do(startBrowser)
	if browser.path == "" {
		msg := "no Chromium found (set CATALOGKIT_CHROMIUM, or install it: " + installChromium + "): the records page was NOT tested in a browser"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		fmt.Fprintf(os.Stderr, "WARNING: %s: %s\n", t.Name(), msg)
		skipped.Add(1)
		t.Skip(msg)
	}
	if browser.err != nil {
		t.Fatal(browser.err)
	}
	tabCtx, closeTab := chromedp.NewContext(browser.ctx)
	ctx, cancel := context.WithTimeout(tabCtx, testTimeout)
	t.Cleanup(func() { cancel(); closeTab() })
	tb := &tab{t: t, ctx: ctx, page: pageURL(t)}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("cannot open a tab: %v", err)
	}
	if err := chromedp.Listen(ctx, tb.listen); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tb.report)
	return tb
}

func (tb *tab) listen(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		tb.problems = append(tb.problems, fmt.Sprintf("uncaught exception at %d:%d: %s", d.LineNumber+1, d.ColumnNumber+1, msg))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value))
			}
			tb.problems = append(tb.problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		}
	case *network.EventRequestWillBeSent:
		tb.requests = append(tb.requests, ev.Request.URL)
	}
}

func (tb *tab) report() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, p := range tb.problems {
		tb.t.Errorf("page: %s", p)
	}
	for _, u := range tb.requests {
		if u != tb.page && !slices.Contains(tb.allowed, u) {
			tb.t.Errorf("page requested %s: it must load nothing but itself", u)
		}
	}
}

// do runs steps in the tab, failing the test on error.
func (tb *tab) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		tb.t.Fatalf("%s: %v", what, err)
	}
}

// keys presses keys, one at a time, with nothing but the keyboard.
func (tb *tab) keys(keys string) {
	tb.t.Helper()
	tb.do(fmt.Sprintf("press %q", keys), chromedp.KeyEvent(keys))
}

// viewport sets the tab's width; the phone width emulates a mobile device.
func (tb *tab) viewport(width int64) {
	tb.t.Helper()
	mobile := func(p *emulation.SetDeviceMetricsOverrideParams, _ *emulation.SetTouchEmulationEnabledParams) {
		p.Mobile = width < 600
	}
	tb.do(fmt.Sprintf("set the viewport to %d px", width), chromedp.EmulateViewport(width, 860, mobile))
}

// open loads the page with a fragment ("" for none) and waits until the
// script (if it runs) has shown the tabs.
func (tb *tab) open(fragment string, script bool) {
	tb.t.Helper()
	u := tb.page + fragment
	wait := chromedp.WaitVisible(chromedp.CSS(`[role=tablist]`))
	if !script {
		wait = chromedp.WaitReady(chromedp.CSS(`footer`))
	}
	// From a blank page, so that a change of fragment alone loads the page
	// anew instead of navigating within it.
	tb.do("open "+u, chromedp.Navigate("about:blank"), chromedp.Navigate(u), wait)
}

// The repository's records folder, and the page in it.
var repo struct {
	once sync.Once
	dir  string
	err  error
}

func recordsDir(t *testing.T) string {
	t.Helper()
	repo.once.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			repo.err = err
			return
		}
		for dir := wd; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				repo.dir = filepath.Join(dir, "records")
				return
			}
			if filepath.Dir(dir) == dir {
				repo.err = errors.New("no go.mod above the test's folder")
				return
			}
		}
	})
	if repo.err != nil {
		t.Fatal(repo.err)
	}
	return repo.dir
}

func pageURL(t *testing.T) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(recordsDir(t), records.PageFile))}).String()
}

// A recordFile is one committed record: its file name without ".json", and
// its call and outcome decoded.
type recordFile struct {
	Stem    string
	Title   string
	Call    any
	Outcome any
}

// readRecords reads the committed record files beside the page, in order,
// and checks that the committed page is the one a fresh generation makes:
// the page under test is the page that ships.
func readRecords(t *testing.T) []recordFile {
	t.Helper()
	dir := recordsDir(t)
	catalogJSON, err := os.ReadFile(filepath.Join(dir, "..", filepath.FromSlash(records.DefaultCatalogPath)))
	if err != nil {
		t.Fatal(err)
	}
	set, err := records.Generate(catalogJSON, records.DefaultCatalogPath)
	if err != nil {
		t.Fatal(err)
	}
	if problems, err := set.Check(dir); err != nil || len(problems) > 0 {
		t.Fatalf("records/ is not up to date (%v %v): run 'go run ./cmd/catalogkit records' first", problems, err)
	}
	var recs []recordFile
	for _, r := range set.Records {
		data, err := os.ReadFile(filepath.Join(dir, r.File))
		if err != nil {
			t.Fatal(err)
		}
		var rec struct {
			Title   string          `json:"title"`
			Call    json.RawMessage `json:"call"`
			Outcome json.RawMessage `json:"outcome"`
		}
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatalf("%s: %v", r.File, err)
		}
		recs = append(recs, recordFile{
			Stem:    strings.TrimSuffix(r.File, ".json"),
			Title:   rec.Title,
			Call:    decode(t, r.File+" call", string(rec.Call)),
			Outcome: decode(t, r.File+" outcome", string(rec.Outcome)),
		})
	}
	if len(recs) != 5 {
		t.Fatalf("%d records, want 5", len(recs))
	}
	return recs
}

// readStrings reads the page's UI strings table.
func readStrings(t *testing.T) map[string]map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(recordsDir(t), "page.i18n.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table map[string]map[string]string
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	return table
}

// decode decodes JSON text, keeping numbers exact.
func decode(t *testing.T, what, text string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", what, err, text)
	}
	if d.More() {
		t.Fatalf("%s has more than one JSON value:\n%s", what, text)
	}
	return v
}

// pageState is what the page shows, read from the DOM.
type pageState struct {
	Lang           string      `json:"lang"`
	Title          string      `json:"title"`
	Hash           string      `json:"hash"`
	TablistVisible bool        `json:"tablistVisible"`
	Selected       []string    `json:"selected"`  // stems of tabs with aria-selected=true
	Tabbable       []string    `json:"tabbable"`  // stems of tabs with tabindex 0
	Focus          string      `json:"focus"`     // the focused element's id, or its tag
	FocusRole      string      `json:"focusRole"` // and role
	FocusVisible   bool        `json:"focusVisible"`
	FocusOutline   string      `json:"focusOutline"` // its computed outline style and width
	Sections       []sectionJS `json:"sections"`
	I18N           []i18nJS    `json:"i18n"`
	ScrollWidth    int         `json:"scrollWidth"`
	InnerWidth     int         `json:"innerWidth"`
	Tags           []string    `json:"tags"` // element names inside the record sections
	NoScript       bool        `json:"noscript"`
}

type sectionJS struct {
	Stem    string            `json:"stem"`
	Visible bool              `json:"visible"`
	Role    string            `json:"role"`
	Heading string            `json:"heading"`
	Fields  map[string]string `json:"fields"`
	JSON    map[string]string `json:"json"`
	Grants  map[string]string `json:"grants"`
	// Boxes are the right edges of the section's boxes of code, which must
	// stay inside the viewport, and whether each scrolls sideways.
	Boxes []boxJS `json:"boxes"`
}

type boxJS struct {
	Right      float64 `json:"right"`
	Scrollable bool    `json:"scrollable"`
}

type i18nJS struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

// readStateJS reads pageState. Text is innerText: what is rendered, for a
// shown element.
const readStateJS = `(() => {
  const vis = el => !!el && el.checkVisibility({visibilityProperty: true, opacityProperty: true});
  const texts = (root, attr) => Object.fromEntries(
    [...root.querySelectorAll("[" + attr + "]")].map(e => [e.getAttribute(attr), e.innerText]));
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const active = document.activeElement;
  const style = active ? getComputedStyle(active) : null;
  return {
    lang: document.documentElement.lang,
    title: document.title,
    hash: location.hash,
    tablistVisible: vis(document.querySelector("[role=tablist]")),
    selected: tabs.filter(t => t.getAttribute("aria-selected") === "true").map(t => t.dataset.record),
    tabbable: tabs.filter(t => t.tabIndex === 0).map(t => t.dataset.record),
    focus: active ? (active.id || active.localName) : "",
    focusRole: active ? (active.getAttribute("role") || "") : "",
    focusVisible: active ? active.matches(":focus-visible") : false,
    focusOutline: style ? style.outlineStyle + " " + style.outlineWidth : "",
    sections: [...document.querySelectorAll("section.record")].map(s => ({
      stem: s.dataset.record,
      visible: vis(s),
      role: s.getAttribute("role") || "",
      heading: s.querySelector("h2").innerText,
      fields: texts(s, "data-field"),
      json: texts(s, "data-json"),
      grants: texts(s, "data-grant"),
      boxes: [...s.querySelectorAll("pre")].filter(vis).map(p => ({
        right: p.getBoundingClientRect().right,
        scrollable: p.scrollWidth > p.clientWidth && getComputedStyle(p).overflowX === "auto",
      })),
    })),
    i18n: [...document.querySelectorAll("[data-i18n]")].filter(vis).map(e => ({key: e.dataset.i18n, text: e.innerText})),
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    tags: [...new Set([...document.querySelectorAll("section.record *")].map(e => e.localName))].sort(),
    noscript: vis(document.querySelector(".nojs")),
  };
})()`

func (tb *tab) state() pageState {
	tb.t.Helper()
	s, err := chromedp.Run(tb.ctx, chromedp.Evaluate[pageState](readStateJS))
	if err != nil {
		tb.t.Fatalf("read the page: %v", err)
	}
	return s
}

// shown returns the one record section that is visible, failing the test if
// there is not exactly one.
func (s pageState) shown(t *testing.T) sectionJS {
	t.Helper()
	var vis []sectionJS
	for _, sec := range s.Sections {
		if sec.Visible {
			vis = append(vis, sec)
		}
	}
	if len(vis) != 1 {
		var stems []string
		for _, v := range vis {
			stems = append(stems, v.Stem)
		}
		t.Fatalf("%d record panels shown (%v), want 1", len(vis), stems)
	}
	return vis[0]
}

// checkShows checks that a section shows the record: its title, and its call
// and outcome rebuilt from the text on screen and compared as JSON values
// with the record file.
func checkShows(t *testing.T, how string, sec sectionJS, rec recordFile) {
	t.Helper()
	if sec.Stem != rec.Stem {
		t.Errorf("%s: shows %s, want %s", how, sec.Stem, rec.Stem)
		return
	}
	if sec.Fields["title"] != rec.Title {
		t.Errorf("%s: %s title %q, want %q", how, rec.Stem, sec.Fields["title"], rec.Title)
	}
	if sec.Fields["file"] != rec.Stem+".json" {
		t.Errorf("%s: %s file %q, want %q", how, rec.Stem, sec.Fields["file"], rec.Stem+".json")
	}
	call := map[string]any{
		"op":      sec.Fields["op"],
		"catalog": map[string]any{"path": sec.Fields["catalog.path"], "sha256": sec.Fields["catalog.sha256"]},
	}
	for _, key := range []string{"family", "name", "arguments"} {
		if text, ok := sec.JSON[key]; ok {
			call[key] = decode(t, how+" "+key, text)
		}
	}
	if !reflect.DeepEqual(call, rec.Call) {
		t.Errorf("%s: %s shows the call\n  %v\nwant (the record file)\n  %v", how, rec.Stem, call, rec.Call)
	}
	outcome := map[string]any{}
	if text, ok := sec.JSON["result"]; ok {
		outcome["result"] = decode(t, how+" result", text)
	}
	if code, ok := sec.Fields["error"]; ok {
		outcome["error"] = code
	}
	if !reflect.DeepEqual(outcome, rec.Outcome) {
		t.Errorf("%s: %s shows the outcome\n  %v\nwant (the record file)\n  %v", how, rec.Stem, outcome, rec.Outcome)
	}

	// A validation result shows shape_valid, authorized and executed
	// apart, with the record's values.
	result, _ := rec.Outcome.(map[string]any)["result"].(map[string]any)
	_, validation := result["shape_valid"]
	if got := len(sec.Grants) > 0; got != validation {
		t.Errorf("%s: %s shows grants %v; want them shown = %v", how, rec.Stem, sec.Grants, validation)
	}
	for key, text := range sec.Grants {
		want, _ := json.Marshal(result[key])
		if text != key+": "+string(want) {
			t.Errorf("%s: %s shows %q, want %q", how, rec.Stem, text, key+": "+string(want))
		}
	}
}

// checkTabs checks the tab list after choosing rec: one tab selected and
// tabbable, the panel of that tab and no other shown, and the fragment.
func checkTabs(t *testing.T, how string, s pageState, rec recordFile) {
	t.Helper()
	if !s.TablistVisible {
		t.Errorf("%s: the tab list is not shown", how)
	}
	if !slices.Equal(s.Selected, []string{rec.Stem}) || !slices.Equal(s.Tabbable, []string{rec.Stem}) {
		t.Errorf("%s: selected tabs %v, tabbable %v; want only %s", how, s.Selected, s.Tabbable, rec.Stem)
	}
	for _, sec := range s.Sections {
		if sec.Role != "tabpanel" {
			t.Errorf("%s: section %s has role %q, want tabpanel", how, sec.Stem, sec.Role)
		}
	}
	if want := "&record=" + rec.Stem; !strings.HasSuffix(s.Hash, want) {
		t.Errorf("%s: fragment %q, want it to end with %q", how, s.Hash, want)
	}
}

// checkLayout checks that the page does not scroll sideways in a viewport
// of the width given and that every box of JSON shown stays inside it,
// scrolling inside itself if it must. (A mobile viewport grows to fit what
// overflows, so the width to hold to is the one the test set, not the
// page's innerWidth.)
func checkLayout(t *testing.T, how string, s pageState, width int64) {
	t.Helper()
	if s.ScrollWidth > int(width) || s.InnerWidth != int(width) {
		t.Errorf("%s: the page is %d px wide, its viewport %d px, in a %d px screen: it scrolls sideways", how, s.ScrollWidth, s.InnerWidth, width)
	}
	for _, sec := range s.Sections {
		for i, b := range sec.Boxes {
			if b.Right > float64(width) {
				t.Errorf("%s: %s box %d ends at %.0f px, past the %d px screen", how, sec.Stem, i+1, b.Right, width)
			}
		}
	}
}

// checkMarkup checks that the record sections hold only the page's own
// elements: record data that looks like markup stayed text.
func checkMarkup(t *testing.T, s pageState) {
	t.Helper()
	allowed := []string{"a", "code", "dd", "div", "dl", "dt", "h2", "h3", "h4", "li", "p", "pre", "q", "span", "ul"}
	for _, tag := range s.Tags {
		if !slices.Contains(allowed, tag) {
			t.Errorf("a record section holds a <%s> element: record data became markup", tag)
		}
	}
}

// checkFocusRing checks that the focused element shows a focus ring: a
// solid outline at least 2 px wide (as WCAG 2.2's focus appearance asks),
// not the browser's thinner default.
func checkFocusRing(t *testing.T, how string, s pageState) {
	t.Helper()
	style, width, _ := strings.Cut(s.FocusOutline, " ")
	px, err := strconv.ParseFloat(strings.TrimSuffix(width, "px"), 64)
	if err != nil || !s.FocusVisible || style != "solid" || px < 2 {
		t.Errorf("%s: %s shows no focus ring: :focus-visible %v, outline %q", how, s.Focus, s.FocusVisible, s.FocusOutline)
	}
}

// artifacts returns the folder for screenshots.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CATALOGKIT_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	} else {
		dir = filepath.Join(dir, "browsertest")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func (tb *tab) screenshot(path string) {
	tb.t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Fatalf("screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		tb.t.Fatalf("screenshot is not a PNG")
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

// TestChooseByMouse clicks each record's tab, at both widths, and checks
// what the page shows against the record files.
func TestChooseByMouse(t *testing.T) {
	recs := readRecords(t)
	tb := newTab(t)
	for _, width := range []int64{desktopWidth, phoneWidth} {
		tb.viewport(width)
		tb.open("", true)
		s := tb.state()
		checkTabs(t, "on opening", s, recs[0])
		checkShows(t, "on opening", s.shown(t), recs[0])
		checkMarkup(t, s)
		// Out of order, so that each click changes the record.
		for _, i := range []int{2, 0, 4, 1, 3} {
			how := fmt.Sprintf("at %d px, after clicking tab %d", width, i+1)
			tb.do(how, chromedp.Click(chromedp.ID("tab-"+recs[i].Stem)))
			s := tb.state()
			checkTabs(t, how, s, recs[i])
			checkShows(t, how, s.shown(t), recs[i])
			checkLayout(t, how, s, width)
		}
	}
}

// TestChooseByKeyboard reaches the tab list with Tab and chooses each record
// with the arrow keys, Home, End, Enter and Space only.
func TestChooseByKeyboard(t *testing.T) {
	recs := readRecords(t)
	tb := newTab(t)
	tb.viewport(desktopWidth)
	tb.open("", true)

	// Tab from the top of the page reaches the selected tab, and only
	// that one: the tab list is one stop (roving tabindex).
	var s pageState
	for range 10 {
		tb.keys(kb.Tab)
		if s = tb.state(); s.FocusRole == "tab" {
			break
		}
	}
	if s.Focus != "tab-"+recs[0].Stem {
		t.Fatalf("Tab reached %q, want the selected tab tab-%s", s.Focus, recs[0].Stem)
	}
	checkFocusRing(t, "the first tab reached with Tab", s)

	// Arrow keys move the focus, not the selection (manual activation).
	tb.keys(kb.ArrowRight)
	s = tb.state()
	if s.Focus != "tab-"+recs[1].Stem {
		t.Errorf("ArrowRight focused %q, want tab-%s", s.Focus, recs[1].Stem)
	}
	checkTabs(t, "after ArrowRight alone", s, recs[0])
	checkShows(t, "after ArrowRight alone", s.shown(t), recs[0])

	// Wrapping, Home and End.
	for _, c := range []struct {
		keys string
		name string
		want int
	}{
		{kb.ArrowLeft + kb.ArrowLeft, "ArrowLeft twice from tab 2", 4},
		{kb.ArrowRight, "ArrowRight from the last tab", 0},
		{kb.End, "End", 4},
		{kb.Home, "Home", 0},
	} {
		tb.keys(c.keys)
		if s = tb.state(); s.Focus != "tab-"+recs[c.want].Stem {
			t.Errorf("%s focused %q, want tab-%s", c.name, s.Focus, recs[c.want].Stem)
		}
	}

	// Choose each record: Home, ArrowRight i times, then Enter or Space.
	for i := range recs {
		choose, name := kb.Enter, "Enter"
		if i%2 == 1 {
			choose, name = " ", "Space"
		}
		how := fmt.Sprintf("Home, ArrowRight ×%d, %s", i, name)
		tb.keys(kb.Home + strings.Repeat(kb.ArrowRight, i) + choose)
		s := tb.state()
		if s.Focus != "tab-"+recs[i].Stem {
			t.Errorf("%s: focus on %q, want on tab-%s", how, s.Focus, recs[i].Stem)
		}
		checkFocusRing(t, how, s)
		checkTabs(t, how, s, recs[i])
		checkShows(t, how, s.shown(t), recs[i])
	}

	dir := artifacts(t)
	tb.screenshot(filepath.Join(dir, "keyboard-focus-1280.png"))
	t.Logf("screenshot in %s", dir)

	// Tab leaves the tab list for the chosen panel.
	tb.keys(kb.Tab)
	if s = tb.state(); s.Focus != "rec-"+recs[len(recs)-1].Stem {
		t.Errorf("Tab from the tab list focused %q, want the panel rec-%s", s.Focus, recs[len(recs)-1].Stem)
	}
}

// TestLanguageSwitch switches to Korean and back: every piece of page text
// changes to the other language's text, the record data does not.
func TestLanguageSwitch(t *testing.T) {
	recs := readRecords(t)
	table := readStrings(t)
	tb := newTab(t)
	tb.viewport(desktopWidth)
	tb.open("#record="+recs[2].Stem, true)
	// Show every panel, so that every text is rendered and read.
	showAll := chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("section.record").forEach(s => s.hidden = false)`)

	before := tb.state()
	checkShows(t, "in English", before.shown(t), recs[2])
	for _, lang := range []string{"ko", "en"} {
		tb.do("click the "+lang+" button", chromedp.Click(chromedp.CSS(`button[data-lang="`+lang+`"]`)))
		s := tb.state()
		if s.Lang != lang {
			t.Errorf("after choosing %s: <html lang=%q>", lang, s.Lang)
		}
		if want := table["page.title"][lang]; s.Title != want {
			t.Errorf("after choosing %s: title %q, want %q", lang, s.Title, want)
		}
		if !strings.HasPrefix(s.Hash, "#lang="+lang+"&") {
			t.Errorf("after choosing %s: fragment %q", lang, s.Hash)
		}
		checkTabs(t, "after choosing "+lang, s, recs[2])
		checkShows(t, "after choosing "+lang, s.shown(t), recs[2])

		tb.do("show every panel", showAll)
		all := tb.state()
		seen := map[string]bool{}
		for _, e := range all.I18N {
			seen[e.Key] = true
			want, ok := table[e.Key][lang]
			if !ok {
				t.Errorf("the page shows string %q, which the table lacks", e.Key)
			} else if e.Text != want {
				t.Errorf("%s: string %q shows %q, want %q", lang, e.Key, e.Text, want)
			}
		}
		for key := range table {
			if !seen[key] && key != "page.nojs" && key != "page.title" { // noscript; <title> is checked above
				t.Errorf("%s: string %q is not shown", lang, key)
			}
		}
		for i, sec := range all.Sections {
			checkShows(t, "all panels in "+lang, sec, recs[i])
			if !reflect.DeepEqual(sec.Fields, before.Sections[i].Fields) || !reflect.DeepEqual(sec.JSON, before.Sections[i].JSON) || !reflect.DeepEqual(sec.Grants, before.Sections[i].Grants) {
				t.Errorf("%s: record %s data changed with the language", lang, sec.Stem)
			}
			if lang == "ko" && sec.Heading == before.Sections[i].Heading {
				t.Errorf("ko: record %s heading %q did not change", sec.Stem, sec.Heading)
			}
		}
		tb.open("#lang="+lang+"&record="+recs[2].Stem, true) // hide the panels again
	}
}

// TestReloadKeepsState: the language and record survive a reload, and a
// link with a fragment opens on its language and record.
func TestReloadKeepsState(t *testing.T) {
	recs := readRecords(t)
	table := readStrings(t)
	tb := newTab(t)
	tb.viewport(desktopWidth)
	tb.open("", true)
	tb.do("choose Korean and record 4",
		chromedp.Click(chromedp.CSS(`button[data-lang="ko"]`)),
		chromedp.Click(chromedp.ID("tab-"+recs[3].Stem)))
	want := "#lang=ko&record=" + recs[3].Stem
	if s := tb.state(); s.Hash != want {
		t.Fatalf("fragment %q, want %q", s.Hash, want)
	}
	tb.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[role=tablist]`)))
	s := tb.state()
	if s.Lang != "ko" || s.Title != table["page.title"]["ko"] || s.Hash != want {
		t.Errorf("after reload: lang %q, title %q, fragment %q; want ko, %q, %q", s.Lang, s.Title, s.Hash, table["page.title"]["ko"], want)
	}
	checkTabs(t, "after reload", s, recs[3])
	checkShows(t, "after reload", s.shown(t), recs[3])

	// A fresh load of a link to a record.
	tb.open("#lang=ko&record="+recs[4].Stem, true)
	s = tb.state()
	if s.Lang != "ko" {
		t.Errorf("opening a ko link: lang %q", s.Lang)
	}
	checkTabs(t, "opening a link", s, recs[4])
	checkShows(t, "opening a link", s.shown(t), recs[4])

	// Changing the fragment by hand changes the page.
	tb.do("edit the fragment", chromedp.Evaluate[chromedp.Void](`location.hash = "#lang=en&record=`+recs[1].Stem+`"`),
		chromedp.Poll[chromedp.Void](`document.documentElement.lang === "en"`))
	s = tb.state()
	checkTabs(t, "after editing the fragment", s, recs[1])
	checkShows(t, "after editing the fragment", s.shown(t), recs[1])

	// A fragment naming no language or record the page has keeps the
	// defaults.
	tb.open("#lang=xx&record=99-nothing", true)
	s = tb.state()
	if s.Lang != "en" {
		t.Errorf("unknown language in the fragment: lang %q, want en", s.Lang)
	}
	checkTabs(t, "unknown record in the fragment", s, recs[0])
}

// TestWithoutJavaScript: with scripts off, every record is shown, in order,
// with no tab list.
func TestWithoutJavaScript(t *testing.T) {
	recs := readRecords(t)
	tb := newTab(t)
	if _, err := chromedp.Call(tb.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	dir := artifacts(t)
	for _, width := range []int64{phoneWidth, desktopWidth} {
		tb.viewport(width)
		tb.open("#lang=ko&record="+recs[3].Stem, false)
		s := tb.state()
		if s.TablistVisible {
			t.Errorf("at %d px without JavaScript: the tab list is shown", width)
		}
		if !s.NoScript {
			t.Errorf("at %d px without JavaScript: no note that JavaScript is off", width)
		}
		if s.Lang != "en" {
			t.Errorf("at %d px without JavaScript: lang %q, want the page's first language", width, s.Lang)
		}
		if len(s.Sections) != len(recs) {
			t.Fatalf("%d sections, want %d", len(s.Sections), len(recs))
		}
		for i, sec := range s.Sections {
			how := fmt.Sprintf("at %d px without JavaScript", width)
			if !sec.Visible {
				t.Errorf("%s: %s is not shown", how, sec.Stem)
			}
			checkShows(t, how, sec, recs[i])
		}
		checkLayout(t, fmt.Sprintf("at %d px without JavaScript", width), s, width)
		checkMarkup(t, s)
		tb.screenshot(filepath.Join(dir, fmt.Sprintf("nojs-%d.png", width)))
	}
	t.Logf("screenshots in %s", dir)
}

// TestScreenshots shows each record in each language at the phone and the
// desktop width, checks the layout, and writes a screenshot of each.
func TestScreenshots(t *testing.T) {
	recs := readRecords(t)
	tb := newTab(t)
	dir := artifacts(t)
	for _, width := range []int64{phoneWidth, desktopWidth} {
		tb.viewport(width)
		for _, lang := range []string{"en", "ko"} {
			for _, rec := range recs {
				how := fmt.Sprintf("%s at %d px in %s", rec.Stem, width, lang)
				tb.open("#lang="+lang+"&record="+rec.Stem, true)
				s := tb.state()
				checkTabs(t, how, s, rec)
				checkShows(t, how, s.shown(t), rec)
				checkLayout(t, how, s, width)
				tb.screenshot(filepath.Join(dir, fmt.Sprintf("%s-%d-%s.png", rec.Stem, width, lang)))
			}
		}
	}
	t.Logf("screenshots in %s", dir)
}

// TestOpensFromAnotherFolder writes the records and the page into a fresh
// folder, as an extracted release holds them, opens the page there, and
// follows its link to a record file: the page needs nothing but the folder.
func TestOpensFromAnotherFolder(t *testing.T) {
	recs := readRecords(t)
	catalogJSON, err := os.ReadFile(filepath.Join(recordsDir(t), "..", filepath.FromSlash(records.DefaultCatalogPath)))
	if err != nil {
		t.Fatal(err)
	}
	set, err := records.Generate(catalogJSON, records.DefaultCatalogPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "catalogkit-0.0.0-test", "records")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := set.Write(dir); err != nil {
		t.Fatal(err)
	}
	fileURL := func(name string) string {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, name))}).String()
	}

	tb := newTab(t)
	rec := recs[2]
	tb.page = fileURL(records.PageFile)
	tb.allowed = []string{fileURL(rec.Stem + ".json")}
	tb.viewport(desktopWidth)
	tb.open("", true)
	tb.do("choose record 3", chromedp.Click(chromedp.ID("tab-"+rec.Stem)))
	s := tb.state()
	checkTabs(t, "in another folder", s, rec)
	checkShows(t, "in another folder", s.shown(t), rec)

	if _, err := chromedp.Run(tb.ctx, chromedp.WaitEvent(page.LoadEventFired, nil,
		chromedp.Click(chromedp.CSS("#rec-"+rec.Stem+" a")))); err != nil {
		t.Fatalf("follow the link to the record file: %v", err)
	}
	text, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join(recordsDir(t), rec.Stem+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := decode(t, "the linked file", text), decode(t, rec.Stem+".json", string(file)); !reflect.DeepEqual(got, want) {
		t.Errorf("the link opened\n%s\nwant the record file\n%s", text, file)
	}
}

// TestPrintShowsEveryRecord: printed, the page shows every record in order,
// as without JavaScript, and not the tab list.
func TestPrintShowsEveryRecord(t *testing.T) {
	recs := readRecords(t)
	tb := newTab(t)
	tb.viewport(desktopWidth)
	tb.open("#record="+recs[1].Stem, true)
	if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	s := tb.state()
	if s.TablistVisible {
		t.Error("printed: the tab list is shown")
	}
	for i, sec := range s.Sections {
		if !sec.Visible {
			t.Errorf("printed: %s is not shown", sec.Stem)
		}
		checkShows(t, "printed", sec, recs[i])
	}
}
