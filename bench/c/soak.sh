#!/usr/bin/env bash
# Runs bench/c/soak.c (make bench-soak) against the echo service of
# build/testserver: soak.sh [CALLS] [THREADS].
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
. bench/c/testserver.sh
testserver_start bench
echo=$TS_bench
timeout 1800 "$build/bench-soak" "$echo" client/testdata/bench.smithy "${1:-1000000}" "${2:-8}"
