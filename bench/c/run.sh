#!/usr/bin/env bash
# Runs bench/c/bench.c (make bench-c) against build/testserver (go-httpbin for
# the cold start, the echo service "bench" for the throughput).
#   BENCH_C_CALLS  calls per throughput measurement (default 4000)
#   BENCH_C_COLD   cold-start runs of each program (default 21)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
coproc SERVER { exec "$build/testserver"; }
server_pid=$SERVER_PID
trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
url="" echo=""
while read -r -t 30 name u <&"${SERVER[0]}"; do
  [ "$name" = httpbin ] && url=$u
  [ "$name" = bench ] && echo=$u
  [ -n "$url" ] && [ -n "$echo" ] && break
done
[ -n "$url" ] && [ -n "$echo" ] || { echo "testserver did not start" >&2; exit 1; }
# The cold start also loads the model from its snapshot (smithycurl compile).
"$build/smithycurl" compile -o "$build/httpbin.scmodel" examples/httpbin >/dev/null
timeout 900 "$build/bench-c" "$url" examples/httpbin "${BENCH_C_CALLS:-4000}" "${BENCH_C_COLD:-21}" \
  "$build/bench-c-cold-curl" "$build/bench-c-cold-smithycurl" "$PWD/$build/libsmithycurl.so" \
  "$echo" client/testdata/bench.smithy "$build/httpbin.scmodel"
