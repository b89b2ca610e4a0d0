module github.com/catalogkit/catalogkit

go 1.26.0

require (
	aead.dev/minisign v0.3.0
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875
	github.com/google/go-cmdtest v0.4.0
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.20.4
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/crypto v0.13.0
	golang.org/x/term v0.48.0
	golang.org/x/text v0.14.0
)

require (
	github.com/google/renameio v0.1.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
