# Thin wrappers: the truth lives in Go code and tests.
GO ?= go

.PHONY: test build bench fuzz
test: ## vet, gofmt and every test with the race detector
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

build:
	$(GO) build -o bin/catalogkit ./cmd/catalogkit

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./catalog/

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzContract -fuzztime 60s ./catalog/
