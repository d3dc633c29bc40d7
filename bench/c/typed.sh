#!/usr/bin/env bash
# Runs bench/c/typed.c (make bench-typed-c) against the Todos service of a
# local build/testserver. BENCH_N calls per measurement (default 2000).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
. bench/c/testserver.sh
testserver_start todo
url=$TS_todo
timeout 900 "$build/bench-c-typed" "$url" examples/todo "${BENCH_N:-2000}"
