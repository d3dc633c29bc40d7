# smithycurl. `make demo` runs the main job; `make test` builds and tests everything.
GO        ?= go
FUZZTIME  ?= 20s
BUILD     := build

.PHONY: all deps build demo test vet unit conformance fuzz bench clean

all: build

deps:
	@scripts/deps.sh

build: deps
	$(GO) build ./...
	$(GO) build -o $(BUILD)/smithycurl ./cmd/smithycurl

# The main job, on a local default: load the example model and list what it offers.
demo: build
	$(BUILD)/smithycurl ops --model examples/httpbin

vet:
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...

# Every conformance suite, one line each: "<suite>: N passed, N failed, N skipped".
conformance:
	$(GO) run ./internal/cmd/conformance

fuzz:
	$(GO) test ./model -run '^$$' -fuzz '^FuzzParseIDL$$' -fuzztime $(FUZZTIME)
	$(GO) test ./model -run '^$$' -fuzz '^FuzzParseAST$$' -fuzztime $(FUZZTIME)

unit:
	$(GO) test -count=1 ./...

# Everything CI runs: build, vet, conformance, fuzzers, then the unit tests last.
test: build vet conformance fuzz unit

bench:
	$(GO) test ./model -run '^$$' -bench . -benchmem

clean:
	rm -rf $(BUILD)
