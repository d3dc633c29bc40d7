#!/usr/bin/env bash
# Runs bench/c/typed.c (make bench-typed-c) against the Todos service of a
# local build/testserver. BENCH_N calls per measurement (default 2000).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
coproc SERVER { exec "$build/testserver"; }
server_pid=$SERVER_PID
trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
url=""
while read -r -t 30 name u <&"${SERVER[0]}"; do
  [ "$name" = todo ] && { url=$u; break; }
done
[ -n "$url" ] || { echo "testserver did not start" >&2; exit 1; }
timeout 900 "$build/bench-c-typed" "$url" examples/todo "${BENCH_N:-2000}"
