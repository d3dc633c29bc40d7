# smithycurl. `make demo` runs the main job; `make test` builds and tests everything.
GO        ?= go
FUZZTIME  ?= 20s
BUILD     := build

.PHONY: all deps build demo test vet unit conformance fuzz bench clean bench-aws

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
	$(GO) test ./client -run '^$$' -bench '^BenchmarkCall' -benchmem -benchtime 1s
	$(MAKE) bench-aws

# DynamoDB GetItem and PutItem against dynalite, BENCH_N sequential calls on one
# client: smithycurl vs aws-sdk-go-v2 (wall and CPU time per call), then client
# creation with the model load. bench/ is a module of its own (the AWS SDK).
BENCH_N ?= 2000
bench-aws:
	cd bench && $(GO) test -run '^$$' -bench 'DynamoDB' -benchtime $(BENCH_N)x -benchmem .
	cd bench && $(GO) test -run '^$$' -bench 'NewClient' -benchtime 20x -benchmem .

clean:
	rm -rf $(BUILD)
