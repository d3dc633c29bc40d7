#!/usr/bin/env bash
# Runs the per-stage profile of make bench-stages: the echo workload through
# the C API (bench/c/bench.c's workers) beside the hand-written libcurl loop
# in the same run, at 1, 2 and 8 threads, alternately, each measurement in a
# fresh process under `perf record -g`; bench/c/stages.py puts each sample
# in a stage (encode, transport, wait, decode, copies, runtime, client) and
# prints the medians: CPU per stage and call, CPU and calls/s as ratios to
# the loop, and voluntary context switches per call (the loop blocks once a
# call, in poll; the rest is the Go scheduler's).
#
#   bench/c/stages.sh [NAME=LIBSMITHYCURL.so ...]
#
# Without arguments the one column is build/libsmithycurl.so; with several
# (a library before and after a change) they alternate, round by round.
#   BENCH_STAGES_CALLS   calls per measurement (default 4000)
#   BENCH_STAGES_ROUNDS  rounds (default 3)
#   BENCH_STAGES_ENGINE  1: also each call through smithycurl_call_async and a
#                        wait for its completion, the last library's (the
#                        synchronous call through the client's multi loop)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
command -v perf >/dev/null || { echo "bench-stages: needs perf (apt-get install linux-perf)" >&2; exit 1; }
libs=("$@")
[ ${#libs[@]} -gt 0 ] || libs=("smithycurl=$PWD/$build/libsmithycurl.so")
calls=${BENCH_STAGES_CALLS:-4000} rounds=${BENCH_STAGES_ROUNDS:-3}
. bench/c/testserver.sh
testserver_start bench
export BENCH_C_ECHO_MODEL=$PWD/client/testdata/bench.smithy
out=$(mktemp) data=$(mktemp)

measure() { # name kind lib threads
  local res
  res=$(perf record -q -F 999 -g -o "$data" "$build/bench-c" worker "$2" "$4" "$calls" "$3" "$TS_bench" 2>/dev/null)
  read -r wall cpu fails vcs <<<"$res"
  [ "${fails:-1}" = 0 ] || { echo "bench-stages: $1 failed: $res" >&2; exit 1; }
  echo "$1 $4 $calls $wall $cpu $vcs" >>"$out"
  perf script -F tid,period,ip,sym,dso -i "$data" 2>/dev/null | python3 -B bench/c/stages.py >>"$out"
}
for _ in $(seq "$rounds"); do
  for t in 1 2 8; do
    measure libcurl libcurl - "$t"
    for l in "${libs[@]}"; do measure "${l%%=*}" smithycurl "${l#*=}" "$t"; done
    [ "${BENCH_STAGES_ENGINE:-0}" = 0 ] || measure engine smithycurl-engine "${libs[-1]#*=}" "$t"
  done
done
echo "per-stage CPU of the echo workload (us per call: the share of perf samples x the measurement's CPU per call),"
echo "$calls calls per measurement, medians of $rounds rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 -B bench/c/stages.py summary "$out"
rm -f "$out" "$data"
