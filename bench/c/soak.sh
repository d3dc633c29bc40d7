#!/usr/bin/env bash
# Runs bench/c/soak.c (make bench-soak) against the echo service of
# build/testserver: soak.sh [CALLS] [THREADS].
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
coproc SERVER { exec "$build/testserver"; }
server_pid=$SERVER_PID
trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
echo=""
while read -r -t 30 name u <&"${SERVER[0]}"; do
  [ "$name" = bench ] && echo=$u && break
done
[ -n "$echo" ] || { echo "testserver did not start" >&2; exit 1; }
timeout 1800 "$build/bench-soak" "$echo" client/testdata/bench.smithy "${1:-1000000}" "${2:-8}"
