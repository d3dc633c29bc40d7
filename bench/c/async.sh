#!/usr/bin/env bash
# Runs bench/c/async.c (make bench-async-c) against the echo service
# "bench" of build/testserver.
#
#   bench/c/async.sh [NAME=LIBSMITHYCURL.so ...]
#
# Without arguments the one library is build/libsmithycurl.so; with several
# (a library before and after a change) they alternate, round by round.
#   BENCH_ASYNC_CALLS     calls per measurement (default 40000)
#   BENCH_ASYNC_INFLIGHT  calls in flight at every moment (default 1000, the
#                         issue 27 goal's; 10000 for the heavy case)
#   BENCH_ASYNC_TRANSFERS transfers on the wire at once, both sides (default 100,
#                         the engine's default; the other calls wait their turn)
#   BENCH_ASYNC_CONNS     connection limit of both sides (default 32)
#   BENCH_ASYNC_ROUNDS    rounds of each kind; medians are printed (default 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
libs=("$@")
[ ${#libs[@]} -gt 0 ] || libs=("$PWD/$build/libsmithycurl.so")
list=$(IFS=,; echo "${libs[*]}")
. bench/c/testserver.sh
testserver_start bench
echo=$TS_bench
timeout 1800 "$build/bench-c-async" "$echo" client/testdata/bench.smithy "$list" \
  "${BENCH_ASYNC_CALLS:-40000}" "${BENCH_ASYNC_INFLIGHT:-1000}" "${BENCH_ASYNC_TRANSFERS:-100}" \
  "${BENCH_ASYNC_CONNS:-32}" "${BENCH_ASYNC_ROUNDS:-3}"
