#!/usr/bin/env bash
# Runs bench/c/bench.c (make bench-c) against a local go-httpbin.
#   BENCH_C_CALLS  calls per throughput measurement (default 4000)
#   BENCH_C_COLD   cold-start runs of each program (default 21)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
coproc SERVER { exec "$build/testserver"; }
server_pid=$SERVER_PID
trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
url=""
while read -r -t 30 name u <&"${SERVER[0]}"; do
  [ "$name" = httpbin ] && { url=$u; break; }
done
[ -n "$url" ] || { echo "testserver did not start" >&2; exit 1; }
# The cold start also loads the model from its snapshot (smithycurl compile).
"$build/smithycurl" compile -o "$build/httpbin.scmodel" examples/httpbin >/dev/null
timeout 900 "$build/bench-c" "$url" examples/httpbin "${BENCH_C_CALLS:-4000}" "${BENCH_C_COLD:-21}" \
  "$build/bench-c-cold-curl" "$build/bench-c-cold-smithycurl" "$PWD/$build/libsmithycurl.so" "$build/httpbin.scmodel"
