# smithycurl. `make demo` runs the main job; `make test` builds and tests everything.
GO        ?= go
FUZZTIME  ?= 20s
BUILD     := build
# No test or tool run by make reaches the instance metadata service
# (169.254.169.254) when no credentials are found; tests of IMDS use fakes.
export AWS_EC2_METADATA_DISABLED := true

.PHONY: bench-transfer all deps deps-test test-build test-race test-go fuzz-brief build demo test vet unit conformance fuzz bench clean contract bench-aws lib install examples ctest bench-c pytest bench-python gentest-c bench-typed-c proptest fuzz-long bench-sched bench-stages bench-stream bench-soak bench-async-c bench-python-async bench-startup bench-serve diff-botocore diff-botocore-responses reach reach-sample

all: build

# scripts/deps.sh is the one list of what the project needs; the demo
# needs no emulators (nor the npm registry).
deps:
	@scripts/deps.sh --no-emulators

deps-test:
	@scripts/deps.sh

build: deps
	$(GO) build ./...
	$(GO) build -o $(BUILD)/smithycurl ./cmd/smithycurl
	$(GO) build -o $(BUILD)/testserver ./testing/cmd/testserver
	$(GO) build -o $(BUILD)/examples/go-httpbin ./examples/go/httpbin
	$(GO) build -o $(BUILD)/examples/go-todo ./examples/go/todo
	$(GO) build -o $(BUILD)/examples/go-todo-typed ./examples/go/todo-typed

# The main job: start the bundled services on loopback and call them from
# the shell, C, Python and Go (scripts/demo.sh).
demo: build examples
	scripts/demo.sh

# README.md's code blocks as a contract (testing/readme): shell, Python, Go
# and C run or compiled against the bundled services on 127.0.0.1, outputs
# compared; fence markers: testing/readme/fences_test.go.
.PHONY: readme
readme: lib build
	SMITHYCURL_README=1 GO=$(GO) $(GO) test -count=1 ./testing/readme

# The version, return codes, error kinds and client options shared by C,
# Go, Python and the CLI come from one table (internal/contract); this
# renders the regions and files made from it, README's options table
# included (a unit test fails when one is stale).
contract:
	$(GO) run ./codegen/contract

# The project's Go files (build/ holds generated ones, .cache/ downloads).
GOFILES = $$(find . -name '*.go' -not -path './build/*' -not -path './.cache/*' -not -path './bench/build/*')

vet:
	@test -z "$$(gofmt -l $(GOFILES))" || { echo "gofmt needed:"; gofmt -l $(GOFILES); exit 1; }
	$(GO) vet ./...
	cd smithyotel && $(GO) vet ./...

# Every conformance suite, one line each: "<suite>: N passed, N failed, N skipped".
conformance:
	$(GO) run ./testing/cmd/conformance

# Every fuzzer, FUZZTIME each (18 fuzzers: 6 min at 20 s). fuzz-long runs each
# to FUZZLONG executions; crashers land in testdata/fuzz/ as regression seeds.
FUZZERS := ./model:FuzzParseIDL ./model:FuzzParseAST ./model:FuzzSnapshot \
	./testing/proptest:FuzzDecodeResponse ./testing/proptest:FuzzDecodeError \
	./testing/proptest:FuzzEncodeRequest ./transport:FuzzParseHeaderBlock \
	./endpoints:FuzzRuleSet ./endpoints:FuzzPath \
	./protocol:FuzzXMLDecode ./protocol:FuzzXMLTokenizer \
	./protocol:FuzzDecodeCBOR ./protocol:FuzzDecodeRPCJSON \
	./eventstream:FuzzEventStreamDecode ./protocol:FuzzDecodeEvent \
	./model:FuzzASTFastReader ./awsconfig:FuzzLoad \
	./protocol:FuzzServerRequest
FUZZLONG ?= 10000000x

fuzz:
	@GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh $(FUZZERS)

# make test's share: a third of the fuzzers briefly, a different third each
# day (compiling a fuzzer costs more than its second of fuzzing; go test
# replays every corpus of testdata/fuzz/ in test-race and test-go).
FUZZTIME_BRIEF ?= 1s
FUZZ_BRIEF_SHARE ?= 3
fuzz-brief:
	@GO=$(GO) FUZZTIME=$(FUZZTIME_BRIEF) FUZZ_SHARE=$(FUZZ_BRIEF_SHARE) scripts/fuzz.sh $(FUZZERS)

fuzz-long:
	@GO=$(GO) FUZZTIME=$(FUZZLONG) scripts/fuzz.sh $(FUZZERS)

# Model-driven property tests (testing/proptest) over every operation of
# $(SMITHYCURL_SHARED)/models and the protocol test models, fixed seed;
# any seed: go test ./testing/proptest -args -seed N -n CASES.
PROPTEST_N ?= 3
proptest: lib build
	SMITHYCURL_PROPTEST=1 $(GO) test -count=1 ./testing/proptest -run '^Test' -args -n $(PROPTEST_N)

unit:
	$(GO) test -count=1 ./...

# The library's packages run under the race detector in make test
# (test-race); the generators, test harnesses and commands without it
# (test-go; codegen/c runs whole in gentest-c).
LIBPKGS := ./model/... ./sigv4/... ./identity/... ./awsconfig/... ./credentials/... ./protocol/... ./transport/... ./client/... ./export/... ./endpoints/... ./eventstream/... ./wire/... ./describe/... ./internal/... ./serve/...
test-race:
	$(GO) test -race -count=1 $(LIBPKGS)
	cd smithyotel && $(GO) test -race -count=1 ./...

test-go:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v -E '/smithycurl/(model|sigv4|identity|awsconfig|credentials|protocol|transport|client|export|endpoints|eventstream|wire|describe|internal|serve)(/|$$)|/codegen/c$$')

# Differential test of the wire requests against botocore's serializers
# (testing/botocore/diff_botocore.py; in `make test`, ~40 s): DIFF_N random inputs per
# operation of the AWS models DIFF_MODELS (testing/cmd/geninputs, seed
# DIFF_SEED) sent through the Python package to a capture server on
# 127.0.0.1 and serialized by botocore, compared normalized; documented
# exclusions in the script. DIFF_PYTHON: a Python with botocore (Debian's
# python3-botocore 1.29 by default; a recent botocore knows newer models).
DIFF_SEED ?= 1
DIFF_N ?= 4
DIFF_MODELS ?= aws/*.json,aws-large/s3.json
DIFF_PYTHON ?= $(PYTHON)
diff-botocore: lib
	$(GO) run ./testing/cmd/geninputs -seed $(DIFF_SEED) -n $(DIFF_N) -models '$(DIFF_MODELS)' > $(BUILD)/diff-botocore-inputs.jsonl
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so PYTHONPATH=$(CURDIR)/bindings/python $(DIFF_PYTHON) -B \
		testing/botocore/diff_botocore.py --shared $${SMITHYCURL_SHARED:-../shared} $(BUILD)/diff-botocore-inputs.jsonl

# The same for responses (testing/botocore/diff_botocore_responses.py; in `make
# test`, ~15 s): DIFF_RESP_N random outputs per operation, and a modeled
# error each, rendered to wire responses by the property tests' renderers
# (geninputs -responses: restJson1, awsJson1_0/1_1, awsQuery, restXml),
# answered to the Python package by a server on 127.0.0.1 and parsed by
# botocore's parsers, compared normalized.
DIFF_RESP_N ?= 4
DIFF_RESP_MODELS ?= aws/*.json,aws-large/s3.json
diff-botocore-responses: lib
	$(GO) run ./testing/cmd/geninputs -responses -seed $(DIFF_SEED) -n $(DIFF_RESP_N) -models '$(DIFF_RESP_MODELS)' > $(BUILD)/diff-botocore-responses.jsonl
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so PYTHONPATH=$(CURDIR)/bindings/python $(DIFF_PYTHON) -B \
		testing/botocore/diff_botocore_responses.py --shared $${SMITHYCURL_SHARED:-../shared} $(BUILD)/diff-botocore-responses.jsonl

# Every AWS service (testing/cmd/reach, testing/reach): the 402 models of
# $(SMITHYCURL_SHARED)/aws-models, each loaded and validated (no error, no
# warning but those the model carries itself), its endpointTests run, the
# example input of every operation checked with constraints on, its C
# client compiled (-std=c99 -Wall -Wextra -Werror -pedantic, syntax only),
# its Go package built and vetted (all in one go build and one go vet),
# its Python package generated and imported (REACH_MYPY=N: mypy --strict
# on N of them), and the request and response differentials against
# botocore run (REACH_K inputs per operation) where botocore knows the
# service. A table per protocol, skips with their reasons, then
# "aws-models: N passed, N failed" (a case per model and stage); the
# failures in full in build/_reach/failures.txt. REACH_FLAGS: -models
# a,b,c, -stages, -sample N -seed S (see go run ./testing/cmd/reach -h).
REACH_K ?= 1
REACH_MYPY ?= 0
REACH_FLAGS ?=
reach: lib
	$(GO) run ./testing/cmd/reach -k $(REACH_K) -mypy $(REACH_MYPY) -python $(PYTHON) $(REACH_FLAGS)

# make test's share: REACH_SAMPLE models of aws-models through every stage,
# chosen by a seed from the date (printed; -seed S repeats a day's run), so
# that CI sees all of them over time.
REACH_SAMPLE ?= 4
reach-sample: lib
	$(GO) run ./testing/cmd/reach -sample $(REACH_SAMPLE) -python $(PYTHON) $(REACH_FLAGS)

# Presigned URLs against botocore's generate_presigned_url
# (testing/botocore/diff_presign.py; in `make test`, ~5 s): S3 GetObject,
# PutObject, HeadObject (virtual-host and path style), STS and Lambda,
# presigned through the Python package and by botocore with one fixed clock
# and credentials, compared as strings; RDS, DocumentDB and Neptune's
# PreSignedUrl from SourceRegion, sent by the CLI to a capture server and
# made by botocore's handler; ends with "presign vs botocore: N passed, N
# failed". PRESIGN_PYTHON: a Python with botocore.
.PHONY: diff-presign
PRESIGN_PYTHON ?= $(PYTHON)
diff-presign: lib build
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so PYTHONPATH=$(CURDIR)/bindings/python $(PRESIGN_PYTHON) -B \
		testing/botocore/diff_presign.py --shared $${SMITHYCURL_SHARED:-../shared} --smithycurl $(BUILD)/smithycurl

# The credential chain and AWS settings against botocore's resolver
# (testing/credchain; in `make test`, ~15 s): a matrix of set-ups (a HOME
# with the AWS CLI's files, an environment, fake STS, SSO, SSO-OIDC,
# container and IMDS endpoints on 127.0.0.1), each resolved by both in
# processes of their own; failing cases with both results, the exclusions
# with their reasons, then "credential-chain vs botocore: N passed, N
# failed". CREDCHAIN_PYTHON: a Python with botocore (1.31+ compares
# configured endpoints too).
.PHONY: credchain sigv4a-vectors
CREDCHAIN_PYTHON ?= $(PYTHON)
credchain: build
	$(GO) build -o $(BUILD)/credchain ./testing/credchain/cmd/credchain
	$(BUILD)/credchain -python $(CREDCHAIN_PYTHON) -oracle testing/credchain/oracle.py

# The AWS signing test suite's SigV4a cases (sigv4 TestV4aVectors), header
# form (Sign) and query form (Presign), from the shared test data
# (aws-signing-test-suite/v4a): prints "sigv4a test vectors: N passed, N
# failed, N skipped" (forms; "not run" without the suite).
sigv4a-vectors:
	$(GO) test -count=1 -v -run '^TestV4aVectors$$' ./sigv4

# Everything CI runs, in two lanes at once after one build
# (scripts/test.sh: a line per stage with its time, then "test: N passed,
# N failed"); `scripts/test.sh STAGE...` runs some of them.
test: deps-test
	@scripts/test.sh

test-build: deps-test build lib examples

# make bench: every benchmark in turn (scripts/bench.sh, which lists the
# steps); ends with the table of performance goals, met or not, and
# "bench: N passed, N failed". BENCH_BEFORE=REF adds a column for the library
# of git REF to the per-stage profile.
bench: deps-test lib build
	@scripts/bench.sh

# The mock server (`smithycurl serve`): a small awsJson1_0 operation answered
# from a fixture, BENCH_SERVE_N requests over BENCH_SERVE_CONNS keep-alive
# HTTP/1.1 connections from a Go load generator on the same machine
# (testing/cmd/servebench): requests/s (goal: 20,000 on 2 cores), the CPU
# per request of the server and of the generator, the load average, and
# the server's RSS after the warm-up and at the end (it fails when it grew
# over a quarter: memory flat).
BENCH_SERVE_N ?= 1000000
BENCH_SERVE_CONNS ?= 4
bench-serve: build
	$(GO) build -o $(BUILD)/servebench ./testing/cmd/servebench
	$(BUILD)/servebench -smithycurl $(BUILD)/smithycurl -model serve/testdata/shop.smithy -requests $(BENCH_SERVE_N) -conns $(BENCH_SERVE_CONNS)
	$(GO) test ./serve -run '^$$' -bench '^BenchmarkServeHTTP$$' -benchmem

# Streamed bodies: BENCH_STREAM_SIZE bytes (1 GiB) up and down through the Go
# client, the C API, the Python package and the CLI against the blob service
# of build/testserver (testing/servers/blobserver); throughput and each process's
# peak RSS (goal: under 64 MiB). `make test` runs 128 MiB versions with an
# RSS bound (TestStreamingMemoryBounded, ctest streaming_memory,
# test_stream_body.py, TestCallBodyFilesMemoryBounded).
BENCH_STREAM_SIZE ?= 1073741824
bench-stream: lib build
	$(GO) build -o $(BUILD)/bench-stream-go ./testing/cmd/streambench
	$(CC) $(CFLAGS_C) -Iinclude -o $(BUILD)/bench-stream-c bench/stream/c_client.c -L$(BUILD) -lsmithycurl -Wl,-rpath,$(CURDIR)/$(BUILD)
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so PYTHONPATH=$(CURDIR)/bindings/python $(PYTHON) -B bench/stream/run.py $(BENCH_STREAM_SIZE)

# DynamoDB GetItem and PutItem against dynalite, BENCH_N sequential calls on one
# client: smithycurl vs aws-sdk-go-v2 (wall and CPU time per call), then client
# creation with the model load. bench/ is a module of its own (the AWS SDK).
# Then S3 PutObject+GetObject of 1 KiB and 1 MiB on s3rver, BENCH_S3_1KB and
# BENCH_S3_1MB interleaved rounds: Go (the body streamed, as bytes, in the
# document, typed) vs aws-sdk-go-v2, vs a hand-written libcurl
# client in C (bench/c/s3.c) and vs boto3 (CPU ratios).
BENCH_N ?= 2000
BENCH_S3_1KB ?= 300
BENCH_S3_1MB ?= 30
bench-aws: lib
	$(GO) run ./cmd/smithycurl gen go --model $${SMITHYCURL_SHARED:-../shared}/models/aws/dynamodb.json --package typeddynamo -o bench/build/_typeddynamo
	$(GO) run ./cmd/smithycurl gen go --model $${SMITHYCURL_SHARED:-../shared}/models/aws-large/s3.json --package typeds3 -o bench/build/_typeds3
	cd bench && $(GO) test -tags typedbench -run '^$$' -bench 'DynamoDB' -benchtime $(BENCH_N)x -benchmem .
	cd bench && $(GO) test -run '^$$' -bench 'NewClient' -benchtime 20x -benchmem .
	cd bench && $(GO) test -tags typedbench -run '^$$' -bench 'S3/1KB' -benchtime $(BENCH_S3_1KB)x . && \
	$(GO) test -tags typedbench -run '^$$' -bench 'S3/1MB' -benchtime $(BENCH_S3_1MB)x .
	@command -v $(PYTHON) >/dev/null && $(PYTHON) -c 'import boto3' 2>/dev/null || { echo "bench-aws: the Python comparison needs python3-boto3 (apt-get install python3-boto3)"; exit 1; }
	$(CC) $(CFLAGS_C) -Iinclude -o $(BUILD)/bench-c-dynamodb bench/c/dynamodb.c $$(pkg-config --cflags --libs libcurl) -ldl
	$(CC) $(CFLAGS_C) -Iinclude -Ibench/c -o $(BUILD)/bench-c-s3 bench/c/s3.c $$(pkg-config --cflags --libs libcurl libcrypto zlib) -ldl
	set -a; eval "$$(scripts/emulators.sh start)"; set +a; \
	$(BUILD)/bench-c-dynamodb "$$SMITHYCURL_DYNALITE_URL" "$${SMITHYCURL_SHARED:-../shared}/models/aws/dynamodb.json" $(CURDIR)/$(BUILD)/libsmithycurl.so $(BENCH_N) && \
	$(BUILD)/bench-c-s3 "$$SMITHYCURL_S3RVER_URL" "$${SMITHYCURL_SHARED:-../shared}/models/aws-large/s3.json" $(CURDIR)/$(BUILD)/libsmithycurl.so $(BENCH_S3_1KB) $(BENCH_S3_1MB) && \
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so $(PYTHON) -B bench/python/bench_dynamodb.py $(BENCH_N) && \
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so $(PYTHON) -B bench/python/bench_s3.py $(BENCH_S3_1KB) $(BENCH_S3_1MB); \
	rc=$$?; scripts/emulators.sh stop >/dev/null; exit $$rc
	$(MAKE) bench-transfer

# S3 transfers: BENCH_TRANSFER_SIZE bytes (1 GiB) up to s3rver and back through
# smithycurl's transfer manager (client/s3transfer from Go and Python) vs
# aws-sdk-go-v2's feature/s3/manager and boto3's s3transfer, each in its own
# process, BENCH_TRANSFER_ROUNDS interleaved rounds: throughput, peak RSS and
# the ratios (bench/transfer/run.py; the Go sides are bench/transfer/main.go,
# in bench/'s module with the SDK).
BENCH_TRANSFER_SIZE ?= 1073741824
BENCH_TRANSFER_ROUNDS ?= 1
bench-transfer: lib
	@$(PYTHON) -c 'import boto3' 2>/dev/null || { echo "bench-transfer: needs python3-boto3 (apt-get install python3-boto3)"; exit 1; }
	cd bench && $(GO) build -o $(CURDIR)/$(BUILD)/bench-transfer-go ./transfer
	set -a; eval "$$(scripts/emulators.sh start)"; set +a; \
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so BUILD=$(BUILD) $(PYTHON) -B bench/transfer/run.py $(BENCH_TRANSFER_SIZE) $(BENCH_TRANSFER_ROUNDS); \
	rc=$$?; scripts/emulators.sh stop >/dev/null; exit $$rc

# The C library: build/libsmithycurl.so from export/ (only the smithycurl_*
# symbols of include/smithycurl.h are exported; the header cgo writes next to
# the .so is internal and never installed). `make install PREFIX=...` installs
# the .so, the header and smithycurl.pc.
PREFIX      ?= /usr/local
CC          ?= cc
CFLAGS_C    ?= -O2 -g -Wall -Wextra
LIB_VERSION := $(shell sed -n 's/^#define SMITHYCURL_VERSION "\(.*\)"/\1/p' include/smithycurl.h)
EX_PREFIX   := $(CURDIR)/$(BUILD)/prefix
# The library's link flags: only the header's symbols exported and, where the
# linker and C library have them (binutils >= 2.38, glibc >= 2.36; probed once
# per make run), packed relative relocations (DT_RELR): the ~37,000
# relocations of Go's type data then take 13 KB instead of 900 KB that the
# dynamic loader reads at every process start (make bench-startup: cold start).
# Symbols and DWARF stay, for perf, gdb and the valgrind lane.
LIB_RELR     = $(eval LIB_RELR := $(shell out=$$(printf 'int x; int *p = &x;\n' | $(CC) -shared -fPIC -x c - -o /dev/null -Wl,-z,pack-relative-relocs 2>&1) && [ -z "$$out" ] && echo ,-z,pack-relative-relocs))$(LIB_RELR)
LIB_LDFLAGS  = -extldflags=-Wl,--version-script=$(CURDIR)/export/smithycurl.map$(LIB_RELR)

lib: deps
	$(GO) build -buildmode=c-shared -ldflags='$(LIB_LDFLAGS)' -o $(BUILD)/libsmithycurl.so ./export

install: lib
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 755 $(BUILD)/libsmithycurl.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/smithycurl.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(LIB_VERSION)|' export/smithycurl.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/smithycurl.pc

# examples/c, built as a user would: installed to build/prefix, found with pkg-config.
# The *_typed.c ones use the Todos client that smithycurl gen c writes into build/gen/todo.
examples: lib
	$(MAKE) --no-print-directory install PREFIX=$(EX_PREFIX)
	mkdir -p $(BUILD)/examples $(BUILD)/gen/todo
	$(GO) run ./cmd/smithycurl gen c --model examples/todo -o $(BUILD)/gen/todo --prefix todo > /dev/null
	export PKG_CONFIG_PATH=$(EX_PREFIX)/lib/pkgconfig; for src in examples/c/*.c; do \
		gen=; case $$src in *_typed.c) gen="-I$(BUILD)/gen/todo $(BUILD)/gen/todo/todo.c";; esac; \
		$(CC) $(CFLAGS_C) -o $(BUILD)/examples/$$(basename $$src .c) $$src $$gen $$(pkg-config --cflags --libs smithycurl) -Wl,-rpath,$(EX_PREFIX)/lib || exit 1; \
	done

# The C API tests against go-httpbin: natively, then under valgrind memcheck
# (errors with a -tags valgrind build, leaks with the plain one; see
# bindings/c/run.sh). The last line of each run is "N passed, N failed".
ctest: lib build examples
	$(GO) build -tags valgrind -buildmode=c-shared -ldflags='$(LIB_LDFLAGS)' -o $(BUILD)/valgrind/libsmithycurl.so ./export
	$(CC) $(CFLAGS_C) -Iinclude -o $(BUILD)/ctest bindings/c/*.c -L$(BUILD) -lsmithycurl -lpthread $$(pkg-config --cflags --libs libcrypto)
	bindings/c/run.sh
	bindings/c/run.sh --valgrind

# Where a call should wait (inside a cgo call or in C between two entries
# into Go): the runtime's cost around a libcurl transfer, apart from codecs.
bench-sched: build
	$(GO) build -buildmode=c-shared -o $(BUILD)/libschedprobe.so ./testing/cmd/schedprobe
	$(CC) $(CFLAGS_C) -Ibench/c -o $(BUILD)/bench-sched bench/c/sched.c -L$(BUILD) -lschedprobe -lcurl -lpthread -Wl,-rpath,$(CURDIR)/$(BUILD)
	bench/c/sched.sh

# Soak: BENCH_SOAK_CALLS calls (1,000,000) from 8 C threads on one client,
# every output checked; the RSS growth after the first tenth (goal: <= 1 MiB).
BENCH_SOAK_CALLS ?= 1000000
bench-soak: lib build
	$(CC) $(CFLAGS_C) -Iinclude -Ibench/c -o $(BUILD)/bench-soak bench/c/soak.c -L$(BUILD) -lsmithycurl -lpthread -Wl,-rpath,$(CURDIR)/$(BUILD)
	bench/c/soak.sh $(BENCH_SOAK_CALLS)

# The cold start first (bench/c/run.sh with BENCH_C_CALLS=0): a process that
# loads the httpbin model, creates a client and makes one call through the C
# API against one making a plain libcurl request, and the same request from
# a process that also starts an empty Go library (testing/cmd/gofloor: what
# the Go runtime alone adds); CPU ratio and peak RSS difference (goals:
# <= 1.3x, <= +6 MiB). Then DynamoDB client creation (model load included)
# in fresh processes from Go, C and Python against boto3 in the same run: the
# first client (from the model cache's snapshot; and without the cache) and
# the next ones (bench/startup.py; goals: first <= 0.5x boto3, next <= 2 ms).
bench-startup: lib build bench-c-progs
	BENCH_C_CALLS=0 bench/c/run.sh
	$(GO) build -o $(BUILD)/startupbench ./testing/cmd/startupbench
	$(CC) $(CFLAGS_C) -Iinclude -Ibench/c -o $(BUILD)/bench-c-startup-fresh bench/c/startup_fresh.c -L$(BUILD) -lsmithycurl -Wl,-rpath,$(CURDIR)/$(BUILD)
	$(PYTHON) -B bench/startup.py $(BUILD) 11

# The programs of bench/c/run.sh.
.PHONY: bench-c-progs
bench-c-progs: lib build
	$(GO) build -buildmode=c-shared -o $(BUILD)/libgofloor.so ./testing/cmd/gofloor
	$(CC) $(CFLAGS_C) -Iinclude -o $(BUILD)/bench-c bench/c/bench.c -lcurl -lpthread -ldl
	$(CC) $(CFLAGS_C) -o $(BUILD)/bench-c-cold-curl bench/c/cold_curl.c -lcurl
	$(CC) $(CFLAGS_C) -DGOFLOOR -o $(BUILD)/bench-c-cold-gofloor bench/c/cold_curl.c -L$(BUILD) -lgofloor -lcurl -Wl,-rpath,$(CURDIR)/$(BUILD)
	$(CC) $(CFLAGS_C) -Iinclude -o $(BUILD)/bench-c-cold-smithycurl bench/c/cold_smithycurl.c -L$(BUILD) -lsmithycurl -Wl,-rpath,$(CURDIR)/$(BUILD)

# C API vs plain libcurl: CPU per call and calls/s (1, 2, 8 threads); the
# cold start is bench-startup's.
bench-c: lib build bench-c-progs
	$(CC) $(CFLAGS_C) -Iinclude -o $(BUILD)/bench-c-startup bench/c/startup.c -L$(BUILD) -lsmithycurl -Wl,-rpath,$(CURDIR)/$(BUILD)
	BENCH_C_COLD=0 bench/c/run.sh
	$(BUILD)/bench-c-startup $${SMITHYCURL_SHARED:-../shared}/models/aws/dynamodb.json 21

# Where a call's CPU goes: the C API's echo calls beside the hand-written
# libcurl loop in the same run (1, 2 and 8 threads, alternating rounds), each
# measurement under perf record -g, its samples put in stages (encode,
# transport, wait, decode, copies, runtime, client: bench/c/stages.py), and
# the same calls made through the client's multi loop (smithycurl_call_async
# and a wait on a condition variable); CPU and calls/s as ratios to the loop,
# voluntary context switches per call. `bench/c/stages.sh NAME=LIB...`
# (BENCH_STAGES_LIBS here) compares libraries (before and after a change)
# the same way.
bench-stages: lib build
	$(CC) $(CFLAGS_C) -Iinclude -o $(BUILD)/bench-c bench/c/bench.c -lcurl -lpthread -ldl
	BENCH_STAGES_ENGINE=1 bench/c/stages.sh $(BENCH_STAGES_LIBS)

# Asynchronous calls: BENCH_ASYNC_CALLS echo calls with BENCH_ASYNC_INFLIGHT
# (1,000, the goal's; 10,000 for the heavy case) in flight from one thread,
# through the completion queue (poll on its fd) and through callbacks, vs a
# hand-written libcurl multi loop with the same connection limit
# (BENCH_ASYNC_CONNS); calls/s ratio (goal >= 0.9x at 1,000), CPU per call,
# context switches, peak RSS (bench/c/async.c; bench/c/async.sh A=x.so
# B=y.so compares libraries).
bench-async-c: lib build
	$(CC) $(CFLAGS_C) -Iinclude -o $(BUILD)/bench-c-async bench/c/async.c -lcurl -lpthread -ldl
	bench/c/async.sh

clean:
	rm -rf $(BUILD)

# The Python package (bindings/python): its pytest suite with Debian's pytest on
# /usr/bin/python3, against build/testserver -pizza and build/libsmithycurl.so
# (the pizza tests read $SMITHYCURL_SHARED, default ../shared). bench-python:
# the package vs a hand-written http.client + json loop, and cold start.
PYTHON ?= /usr/bin/python3
pytest: lib build
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so $(PYTHON) -B -m pytest -q -p no:cacheprovider bindings/python/tests

bench-python: lib build
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so $(PYTHON) -B bench/python/bench.py
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so $(PYTHON) -B bench/python/bench_startup.py 21

# bench-python-async: 1,000 concurrent DynamoDB GetItems (SigV4) on a local
# server from asyncio: smithycurl.aio vs a hand-written aiohttp + json client
# and vs the sync client on a ThreadPoolExecutor(64), CPU per call; memory per
# in-flight call with a slow server (bench/python/bench_async.py; the model
# from $(SMITHYCURL_SHARED), aiohttp from Debian's python3-aiohttp).
bench-python-async: lib
	@$(PYTHON) -c 'import aiohttp' 2>/dev/null || { echo "bench-python-async: needs aiohttp for $(PYTHON): apt-get install python3-aiohttp"; exit 1; }
	SMITHYCURL_LIBRARY=$(CURDIR)/$(BUILD)/libsmithycurl.so $(PYTHON) -B bench/python/bench_async.py

# Typed C clients (smithycurl gen c, codegen/c): the C of every model
# under $(SMITHYCURL_SHARED)/models/aws and aws-large compiles with -std=c99
# -Wall -Wextra -Werror -pedantic; colliding names; and the Todos,
# PizzaAdminService and every-kind programs of bindings/c/typed, natively,
# with ASan+UBSan and under valgrind (the -tags valgrind library as in ctest);
# the typed paginators, waiters, streamed calls and event streams
# (extras_typed.c, ticker_typed.c, ddb_typed.c on dynalite) the same way.
gentest-c: lib
	$(GO) build -tags valgrind -buildmode=c-shared -ldflags='$(LIB_LDFLAGS)' -o $(BUILD)/valgrind/libsmithycurl.so ./export
	SMITHYCURL_GENTEST=full $(GO) test -count=1 -timeout 30m -v ./codegen/c/ > $(BUILD)/gentest-c.log 2>&1; rc=$$?; \
	grep -v -e '^=== ' -e ' warning: ' $(BUILD)/gentest-c.log; exit $$rc

# Typed C client vs the JSON C path: CPU per call on the Todos service, then
# DynamoDB GetItem and PutItem on dynalite.
bench-typed-c: lib build
	mkdir -p $(BUILD)/gen/todo $(BUILD)/gen/ddb
	$(BUILD)/smithycurl gen c --model examples/todo -o $(BUILD)/gen/todo --prefix todo > /dev/null
	$(BUILD)/smithycurl gen c --model $${SMITHYCURL_SHARED:-../shared}/models/aws/dynamodb.json -o $(BUILD)/gen/ddb --prefix ddb > /dev/null
	$(CC) $(CFLAGS_C) -Iinclude -I$(BUILD)/gen/todo -o $(BUILD)/bench-c-typed bench/c/typed.c -L$(BUILD) -lsmithycurl -Wl,-rpath,$(CURDIR)/$(BUILD)
	$(CC) $(CFLAGS_C) -Iinclude -I$(BUILD)/gen/ddb -o $(BUILD)/bench-c-typed-dynamodb bench/c/typed_dynamodb.c $(BUILD)/gen/ddb/ddb.c -L$(BUILD) -lsmithycurl -Wl,-rpath,$(CURDIR)/$(BUILD)
	bench/c/typed.sh
	set -a; eval "$$(scripts/emulators.sh start)"; set +a; \
	$(BUILD)/bench-c-typed-dynamodb "$$SMITHYCURL_DYNALITE_URL" "$${SMITHYCURL_SHARED:-../shared}/models/aws/dynamodb.json" $(BENCH_N); \
	rc=$$?; scripts/emulators.sh stop >/dev/null; exit $$rc
