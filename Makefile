# Thin wrappers: the truth lives in Go code and tests. Run `make help`.
GO      ?= go
VERSION := $(shell cat VERSION)

.PHONY: help test test-cost build records conform browsertest release signing-key dist verify bench fuzz readme
help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

# TEST_P bounds how many packages go test builds and tests at once (go test
# -p): the number of CPUs, at most 4, since each race-instrumented test
# binary can take a gigabyte. docs/testing.md's "make test" figures say more.
TEST_P ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ "$$n" -gt 4 ] && n=4; echo $$n)

# The volume tests drive real ports by the hundred or 32 MiB inputs through
# processes (each broken port through every level, the fuzzer against each,
# conform's transcripts, a wrong port through every level, catalogkit's
# memory at the input limit): their cost is the ports' and the calls', not
# the runner's concurrency, which the race detector checks in the other tests. make test
# runs every other test with the race detector, then these, in the packages
# that hold them, without it: docs/testing.md gives the figures.
VOLUME_TESTS = ^(TestBrokenPorts|TestFuzzFindsBrokenPorts|TestCLIHeavy|TestFuzzCLI|TestConformWrongPort|TestMemoryAtTheLimit)$$
VOLUME_PKGS  = ./conformance ./internal/suites/fuzzgate ./cmd/catalogkit

test: ## gofmt, vet, staticcheck and every test, with the race detector but for the volume tests (the README's test command); ends with a summary line and a WARNING per skipped check
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) run ./internal/dev/testrun -race $(TESTRUN) -- $(GO) test -count=1 -timeout 40m -p $(TEST_P) -skip '$(VOLUME_TESTS)' ./... \
	  --then $(GO) test -count=1 -timeout 40m -p $(TEST_P) -run '$(VOLUME_TESTS)' $(VOLUME_PKGS)

test-cost: ## the wall time and peak memory of 'make test', its whole process tree (internal/dev/peakmem), appended to TEST_COST_OUT
	$(GO) build -o bin/peakmem ./internal/dev/peakmem
	bin/peakmem $(if $(TEST_COST_OUT),-out $(TEST_COST_OUT)) -- $(MAKE) --no-print-directory test

# CGO_ENABLED=0: a static binary, and one that reserves about 450 MB less
# address space (no C library malloc arenas and thread stacks): under a cap
# such as ulimit -v 2000000, conform against the Python port ran out of
# memory 1 time in 3 built with cgo, 0 in 5 without.
build: ## build bin/catalogkit
	CGO_ENABLED=0 $(GO) build -ldflags "-X main.version=$(VERSION)" -o bin/catalogkit ./cmd/catalogkit

records: ## regenerate records/: the five records and index.html
	$(GO) run ./cmd/catalogkit records

conform: build ## the 21 cases: in-process, over stdio with catalogkit port, and with the Python port
	bin/catalogkit conform
	bin/catalogkit conform -- bin/catalogkit port
	bin/catalogkit conform -- python3 conformance/ports/python/catalog_port.py

# Signing (see dist/SIGNING.md): SIGN_KEY, or CATALOGKIT_SIGN_KEY in the
# environment, names the maintainers' minisign secret key; its password is
# asked on the terminal unless SIGN_PASSWORD_FILE names a file holding it.
# SIGN_PUB, the public key the fresh build is verified with, defaults to the
# .pub beside the key (catalogkit keygen writes both). Without a key the
# release is built unsigned, and says so.
SIGN_KEY ?= $(CATALOGKIT_SIGN_KEY)
SIGN_PUB ?= $(basename $(SIGN_KEY)).pub
SIGN_FLAGS = $(if $(SIGN_KEY),--sign $(SIGN_KEY) $(if $(SIGN_PASSWORD_FILE),--password-file $(SIGN_PASSWORD_FILE)))

release: ## the maintainer's one command: tests (reusing a passing 'make test' of this clean commit), then records check, pack (signed when SIGN_KEY is set), verify
	@$(MAKE) --no-print-directory signing-key
	@$(MAKE) --no-print-directory test TESTRUN=-reuse
	@$(MAKE) --no-print-directory dist

signing-key: # before the long tests: a SIGN_KEY that is set must exist, with its public key
	@$(if $(SIGN_KEY),test -f "$(SIGN_KEY)" || { echo "make: SIGN_KEY=$(SIGN_KEY): no such file (give the secret key catalogkit keygen wrote, or unset SIGN_KEY for an unsigned release)" >&2; exit 2; })
	@$(if $(SIGN_KEY),test -f "$(SIGN_PUB)" || { echo "make: $(SIGN_PUB): no such file (give SIGN_PUB=the public key of SIGN_KEY)" >&2; exit 2; })

# In a git checkout, the fresh build is also rebuilt from a clean clone of
# its commit and compared byte for byte (verify --rebuild): the release does
# not depend on anything of this machine's but the commit.
REBUILD = $(if $(wildcard .git),--rebuild .)

dist: signing-key ## records check, pack into dist/, verify (what release does after the tests), rebuilding it from a clean clone; signed when SIGN_KEY is set
	$(GO) run ./cmd/catalogkit records --check
	$(GO) run ./cmd/catalogkit pack --out dist $(SIGN_FLAGS)
ifeq ($(SIGN_KEY),)
	$(GO) run ./cmd/catalogkit verify --sha256 $$(sha256sum dist/catalogkit-$(VERSION).zip | cut -d" " -f1) $(REBUILD) dist/catalogkit-$(VERSION).zip
	@echo "release NOT signed: 'make release SIGN_KEY=path/to/catalogkit.key' signs it (dist/SIGNING.md says how to make and keep the key)"
else
	$(GO) run ./cmd/catalogkit verify --key $(SIGN_PUB) --sums dist/SHA256SUMS $(REBUILD) dist/catalogkit-$(VERSION).zip
	@echo "release signed with $(SIGN_KEY), verified with $(SIGN_PUB)"
endif
	@echo "publish these $(words $(PUBLISH)) files of dist/, and nothing else of it (not its README.md, SIGNING.md or lock file):"
	@for f in $(PUBLISH); do test -f "$$f" || { echo "make: $$f is missing" >&2; exit 1; }; echo "  $$f"; done

# What a release publishes: the archive and SHA256SUMS, and when signed the
# signature and the provenance statement with its signature.
PUBLISH = dist/catalogkit-$(VERSION).zip dist/SHA256SUMS \
	$(if $(SIGN_KEY),dist/SHA256SUMS.minisig dist/catalogkit-$(VERSION).provenance.json dist/catalogkit-$(VERSION).provenance.json.minisig)

# The public key make verify checks the signature with: KEY=file.pub, else
# SIGN_PUB when it was given or derived from SIGN_KEY.
VERIFY_KEY = $(or $(KEY),$(filter-out .pub,$(SIGN_PUB)))

verify: ## check dist/ as a third party would: with the signature when KEY=file.pub (or SIGN_PUB, or SIGN_KEY's .pub) is given
	$(GO) run ./cmd/catalogkit verify $(if $(VERIFY_KEY),--key $(VERIFY_KEY)) --sums dist/SHA256SUMS dist/catalogkit-$(VERSION).zip

readme: ## run every shell block of README.md, docs/*.md and conformance/README.md as printed, each on its own, in a copy of the checkout (internal/suites/readmetest)
	CATALOGKIT_README=run $(GO) test -count=1 -timeout 30m -v -run 'TestCommands|TestStatic' ./internal/suites/readmetest/

browsertest: ## the records page in headless Chromium; screenshots go to the folder CATALOGKIT_ARTIFACTS names
	CI=true $(GO) test -count=1 -v ./internal/suites/browsertest/

# Each bench step's output is kept in BENCH_OUT, and the last step writes
# the figures into docs/performance.md (internal/dev/benchtable).
BENCH_OUT ?= bin/bench
bench_step = ( $(2); echo $$? >$(BENCH_OUT)/$(1).rc ) 2>&1 | tee $(BENCH_OUT)/$(1).txt; exit $$(cat $(BENCH_OUT)/$(1).rc)

bench: ## benchmarks: the contract at its maxima, the stdio protocol, the runner's replies, conform --fuzz calls/s, pack and verify against zip tools, sha256sum and go test; writes the figures, with date, machine and load, into docs/performance.md
	@rm -rf $(BENCH_OUT) && mkdir -p $(BENCH_OUT) && cut -d' ' -f1-3 /proc/loadavg >$(BENCH_OUT)/load-before
	$(call bench_step,1-catalog,$(GO) test -run '^$$' -bench . -benchmem -count 6 ./catalog/)
	$(call bench_step,2-stdio,$(GO) test -run '^$$' -bench 'BenchmarkStdio|BenchmarkCLIMaxCatalog' -benchtime 20x -count 6 ./cmd/catalogkit/)
	$(call bench_step,3-jsonbench,$(GO) test -run '^$$' -bench Catalog -benchmem -count 6 ./internal/suites/jsonbench/)
	$(call bench_step,4-reply,$(GO) test -run '^$$' -bench BenchmarkReply -benchtime 3x -count 3 ./conformance/)
	$(call bench_step,5-fuzz,$(GO) test -run '^$$' -bench BenchmarkFuzz -benchtime 7x ./internal/suites/fuzzgate/)
	$(call bench_step,6-archive,bash internal/release/archive/bench.sh)
	$(call bench_step,7-verify,bash internal/release/verify/bench.sh)
	$(call bench_step,8-mcpserve,$(GO) test -run '^$$' -bench . -benchtime 100x -count 6 ./internal/mcpserve/)
	$(call bench_step,9-format2,$(GO) test -run '^$$' -bench BenchmarkValidate2 -benchmem -count 6 ./internal/suites/schemadiff/)
	$(GO) run ./internal/dev/benchtable -doc docs/performance.md -load-before "$$(cat $(BENCH_OUT)/load-before)" $(BENCH_OUT)/*.txt

fuzz: ## fuzz the contract, the verifier and the conformance runner, a minute each
	$(GO) test -run '^$$' -fuzz FuzzContract -fuzztime 60s ./catalog/
	$(GO) test -run '^$$' -fuzz FuzzVerify -fuzztime 60s ./internal/release/verify/
	$(GO) test -run '^$$' -fuzz FuzzPortReply -fuzztime 60s ./conformance/
