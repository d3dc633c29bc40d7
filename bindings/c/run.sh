#!/usr/bin/env bash
# Runs the C API tests (bindings/c/test_*.c, build/ctest) against the built
# library and the local test services (testing/cmd/testserver), once
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
coproc SERVER { exec "$build/testserver" -pizza; }
server_pid=$SERVER_PID
trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
url="" pizza="" kv="" events="" todo="" blobs="" once="" sigv4a="" signed="" s3express="" s3part="" timestream=""
while read -r -t 30 name u <&"${SERVER[0]}"; do
  case $name in httpbin) url=$u ;; todo) todo=$u ;; pizza) pizza=$u ;; kv) kv=$u ;; events) events=$u ;; blobs) blobs=$u ;; sigv4a) sigv4a=$u ;; signed) signed=$u ;; s3express) s3express=$u ;; s3part) s3part=$u ;; once) once=$u ;; timestream) timestream=$u ;; esac
  [ -n "$url" ] && [ -n "$todo" ] && [ -n "$pizza" ] && [ -n "$kv" ] && [ -n "$events" ] && [ -n "$blobs" ] && [ -n "$sigv4a" ] && [ -n "$signed" ] && [ -n "$s3express" ] && [ -n "$s3part" ] && [ -n "$once" ] && [ -n "$timestream" ] && break
done
[ -n "$url" ] || { echo "testserver did not start"; echo "0 passed, 1 failed"; exit 1; }

export SMITHYCURL_HTTPBIN_URL=$url SMITHYCURL_PIZZA_URL=$pizza SMITHYCURL_KV_URL=$kv SMITHYCURL_EVENTS_URL=$events SMITHYCURL_TODO_URL=$todo SMITHYCURL_BLOBS_URL=$blobs SMITHYCURL_SIGV4A_URL=$sigv4a SMITHYCURL_SIGNED_URL=$signed SMITHYCURL_S3EXPRESS_URL=$s3express SMITHYCURL_S3PART_URL=$s3part SMITHYCURL_ONCE_URL=$once SMITHYCURL_TIMESTREAM_URL=$timestream SMITHYCURL_MODEL_DIR=examples/httpbin
# The pizza model is in the shared test data.
shared=${SMITHYCURL_SHARED:-../shared}
[ -d "$shared" ] && export SMITHYCURL_SHARED="$(cd "$shared" && pwd)"
# The AWS shared files the tests read are these, not the user's.
aws="$build/ctest-aws"
mkdir -p "$aws"
printf '[profile ctest]\nregion = eu-west-3\n\n[profile ctest-checksums]\nrequest_checksum_calculation = when_required\nresponse_checksum_validation = WHEN_REQUIRED\n\n[profile ctest-timestream]\nregion = us-east-1\nendpoint_url = %s\n' "$timestream" > "$aws/config"
: > "$aws/credentials"
export AWS_CONFIG_FILE="$aws/config" AWS_SHARED_CREDENTIALS_FILE="$aws/credentials"
unset AWS_PROFILE AWS_DEFAULT_PROFILE AWS_REGION AWS_DEFAULT_REGION
# cgo's pointer checks on (the default, made explicit).
export GODEBUG=cgocheck=1
ld_path=${LD_LIBRARY_PATH:-}
export LD_LIBRARY_PATH="$build${ld_path:+:$ld_path}"

if [ $valgrind = 0 ]; then
  timeout 300 "$build/ctest" "$@"
  exit
fi

# Under valgrind everything is ~30x slower: fewer calls in the thread test,
# 200 calls in flight instead of 1,000 and 10,000 in the async tests (valgrind runs one
# thread at a time, and until the engine runs them each call in flight has
# one; --max-threads leaves room for them), and longer time limits; the
# suite is otherwise the same.
# Under valgrind the suite runs twice, because memcheck cannot do both jobs
# on one Go library:
#  1. errors: with the library built with -tags valgrind (make ctest), whose
#     Go runtime describes its heap and goroutine stacks to valgrind; without
#     that, memory that served as a goroutine stack and is reused for the Go
#     heap is reported as invalid reads and writes (valgrind saw it "popped").
#     Its leak checker aborts on the runtime's block annotations, so it is off;
#  2. leaks: with the plain library; only the definite-leak summary of the C
#     heap is read (the errors of 1. are ignored here).
# GOMAXPROCS is pinned: valgrind runs one thread at a time, and the extra Ps
# the library adds for calling threads (a throughput measure) only add
# spinning threads there, which starved connects in the 8-thread test.
# Two Go runtime features valgrind cannot follow are turned off in both (not
# ours to fix): asynchronous preemption, whose signal handler writes below
# the stack pointer of the interrupted goroutine, and the RDTSCP instruction
# (valgrind 3.19 does not implement it; the runtime falls back to RDTSC;
# golang.org/x/sys/cpu, which does not know the name, prints a harmless
# "unknown cpu feature" line).
vg() { # vg <library dir> <log> <valgrind options...> -- runs the suite
  local dir=$1 log=$2; shift 2
  LD_LIBRARY_PATH="$dir${ld_path:+:$ld_path}" GODEBUG=cgocheck=1,asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=2 \
  SMITHYCURL_TEST_CALLS=${SMITHYCURL_TEST_CALLS:-100} SMITHYCURL_TEST_ASYNC_N=${SMITHYCURL_TEST_ASYNC_N:-200} SMITHYCURL_TEST_ASYNC_PENDING=${SMITHYCURL_TEST_ASYNC_PENDING:-200} SMITHYCURL_TEST_SLOW=10 \
    timeout 900 valgrind --tool=memcheck --suppressions=bindings/c/valgrind.supp --num-callers=30 --max-threads=1000 \
    --log-file="$log" "$@"
}
[ -f "$build/valgrind/libsmithycurl.so" ] || { echo "$build/valgrind/libsmithycurl.so missing (make ctest builds it)"; exit 1; }
log=$build/ctest-valgrind.log leaklog=$build/ctest-valgrind-leaks.log out=$build/ctest-valgrind.out
vg "$build/valgrind" "$log" --leak-check=no --error-exitcode=99 "$build/ctest" "$@" | tee "$out" | sed '$d' && rc=0 || rc=${PIPESTATUS[0]}
grep -h "ERROR SUMMARY" "$log" | sed 's/^==[0-9]*== /    valgrind errors: /' | sort | uniq || true
echo "    valgrind leak pass (plain library):"
vg "$build" "$leaklog" --leak-check=full --show-leak-kinds=definite "$build/ctest" "$@" > /dev/null || true
grep -h "definitely lost\|indirectly lost" "$leaklog" | sed 's/^==[0-9]*== /    valgrind leaks: /' | sort | uniq || true
leaks=ok
grep -q "definitely lost: [1-9]" "$leaklog" && leaks=definite
grep -q "definitely lost:" "$leaklog" || leaks=missing
# The memcheck verdict counts as one more test; the last line stays the
# runner's "N passed, N failed".
read -r passed _ failed _ < <(tail -n 1 "$out") || true
passed=${passed:-0} failed=${failed:-1}
if [ "$rc" = 0 ] && [ $leaks = ok ]; then
  echo "ok   valgrind memcheck (no errors, no definite leaks)"; passed=$((passed + 1))
else
  echo "FAIL valgrind memcheck (suite exit $rc, leaks: $leaks; see $log and $leaklog)"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
