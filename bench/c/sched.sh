#!/usr/bin/env bash
# Runs bench/c/sched.c (make bench-sched): the echo workload made three ways
# (c, inside, split; see testing/cmd/schedprobe), alternately, each in a
# fresh process with GOMAXPROCS = threads + 1 (the library's own setting);
# prints the median CPU per call and calls/s of each and their ratio to c.
#   BENCH_SCHED_CALLS  calls per measurement (default 3000)
#   BENCH_SCHED_ROUNDS rounds (default 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
. bench/c/testserver.sh
testserver_start bench
echo_url=$TS_bench
calls=${BENCH_SCHED_CALLS:-3000} rounds=${BENCH_SCHED_ROUNDS:-5}
echo "where a call waits: the echo workload, $calls calls per measurement, medians of $rounds rounds"
echo "  c: libcurl only; inside: one entry into Go, perform in a cgo call; split: prepare in Go, perform in C, finish in Go"
out=$(for _ in $(seq "$rounds"); do
  for t in 1 2 8; do
    for m in c inside split; do
      GOMAXPROCS=$((t + 1)) "$build/bench-sched" "$echo_url" "$m" "$t" "$calls"
    done
  done
done)
echo "$out" | awk '
  { cpu[$1" "$2] = cpu[$1" "$2] " " $3; cps[$1" "$2] = cps[$1" "$2] " " $4; if ($5 != 0) bad = 1 }
  function med(s,   a, n, i, j, t) {
    n = split(s, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    if (bad) { print "failed calls" > "/dev/stderr"; exit 1 }
    split("1 2 8", ts, " "); split("c inside split", ms, " ")
    for (i = 1; i <= 3; i++) {
      base = med(cpu["c " ts[i]]); basecps = med(cps["c " ts[i]])
      for (j = 1; j <= 3; j++) {
        k = ms[j] " " ts[i]; c = med(cpu[k]); s = med(cps[k])
        printf "  %-6s %d thread%s %7.1f us CPU/call %7.0f calls/s   %5.2fx CPU %5.2fx calls/s\n", ms[j], ts[i], (ts[i] > 1 ? "s" : " "), c, s, c / base, s / basecps
      }
    }
  }'
