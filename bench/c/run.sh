#!/usr/bin/env bash
# Runs bench/c/bench.c (make bench-c) against build/testserver (go-httpbin for
# the cold start, the echo service "bench" for the throughput).
#   BENCH_C_CALLS  calls per throughput measurement (default 4000)
#   BENCH_C_COLD   cold-start runs of each program (default 21)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
. bench/c/testserver.sh
testserver_start httpbin bench
url=$TS_httpbin echo=$TS_bench
# The cold start also loads the model from its snapshot (smithycurl compile).
"$build/smithycurl" compile -o "$build/httpbin.scmodel" examples/httpbin >/dev/null
timeout 900 "$build/bench-c" "$url" examples/httpbin "${BENCH_C_CALLS:-4000}" "${BENCH_C_COLD:-21}" \
  "$build/bench-c-cold-curl" "$build/bench-c-cold-smithycurl" "$PWD/$build/libsmithycurl.so" \
  "$echo" client/testdata/bench.smithy "$build/httpbin.scmodel"
