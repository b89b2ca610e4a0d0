// Package browsertest tests the records viewer, records/index.html, in a real
// browser: headless Chromium, driven over the DevTools protocol with
// github.com/chromedp/chromedp. It has no API; its tests are the package.
//
// The tests load the committed page from the file system (file://), choose
// each record with the mouse and with the keyboard only, and compare the call
// and outcome shown with the record files beside the page, as JSON values;
// they switch the language, reload, turn JavaScript off, and check the layout
// at a phone width (360 px) and a desktop width (1280 px), writing a
// screenshot of each record at both widths into $CATALOGKIT_ARTIFACTS (or a
// temporary folder, named in the test log).
//
// The browser is $CATALOGKIT_CHROMIUM, or the first of chromium,
// chromium-browser, google-chrome and google-chrome-stable on $PATH. Where
// none is found, the tests fail when CI=true and skip otherwise, with a
// warning on stderr and one line, with the command that installs Chromium,
// in the file $CATALOGKIT_SKIP_REPORT names: 'make test' prints that line
// as a WARNING after the run (internal/dev/testrun). Every browser step has a
// deadline.
//
// The package is separate from package records so that records and its
// tests keep to the standard library and run offline in an extracted
// release.
package browsertest
