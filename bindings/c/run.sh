#!/usr/bin/env bash
# Runs the C API tests (bindings/c/test_smithycurl.c) against the built
# library and the local test services (internal/cmd/testserver), once
# natively and, with --valgrind, once more under valgrind memcheck.
#
#   bindings/c/run.sh [--valgrind] [test-name-filter]
#
# Expects build/libsmithycurl.so, build/testserver and build/ctest (make
# ctest builds them). Every run is bounded by `timeout`.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
valgrind=0
if [ "${1:-}" = "--valgrind" ]; then valgrind=1; shift; fi

# Start the servers; they stop when our end of their stdin closes.
coproc SERVER { exec "$build/testserver"; }
server_pid=$SERVER_PID
trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
url=""
while read -r -t 30 name u <&"${SERVER[0]}"; do
  [ "$name" = httpbin ] && { url=$u; break; }
done
[ -n "$url" ] || { echo "testserver did not start"; echo "0 passed, 1 failed"; exit 1; }

export SMITHYCURL_HTTPBIN_URL=$url SMITHYCURL_MODEL_DIR=examples/httpbin
# cgo's pointer checks on (the default, made explicit).
export GODEBUG=cgocheck=1
export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

if [ $valgrind = 0 ]; then
  timeout 300 "$build/ctest" "$@"
  exit
fi

# Under valgrind everything is ~30x slower: fewer calls in the thread test and
# longer time limits; the suite is otherwise the same.
log=$build/ctest-valgrind.log
# Two Go runtime features valgrind cannot follow are turned off (they are
# not ours to fix): asynchronous preemption, whose signal handler writes
# below the stack pointer of the interrupted goroutine, and the RDTSCP
# instruction (valgrind 3.19 does not implement it; the runtime falls back
# to RDTSC; golang.org/x/sys/cpu, which does not know the name, prints a
# harmless "unknown cpu feature" line).
GODEBUG=cgocheck=1,asyncpreemptoff=1,cpu.rdtscp=off \
SMITHYCURL_TEST_CALLS=${SMITHYCURL_TEST_CALLS:-100} SMITHYCURL_TEST_SLOW=10 \
  timeout 900 valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
  --show-leak-kinds=definite --errors-for-leak-kinds=definite \
  --suppressions=bindings/c/valgrind.supp --num-callers=30 --log-file="$log" \
  "$build/ctest" "$@" && rc=0 || rc=$?
grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable" "$log" | sed 's/^==[0-9]*== /valgrind: /' | sort | uniq
if [ $rc = 99 ]; then
  echo "valgrind found errors; see $log"
fi
exit $rc
