#!/usr/bin/env bash
# make bench: every benchmark in turn, one after the other (they measure
# ratios against a peer in the same run, so nothing else may run beside
# them). Each step's output is printed as it comes and kept in
# build/bench.log; a step that fails does not stop the others. Ends with the
# goal table — every "goal: WHAT: MEASURED (goal OP TARGET): met|NOT met"
# line the steps printed (bench/c/goal.h, bench/python/goal.py,
# benchserver.Goal), the load average at the start and the end — and
# "bench: N passed, N failed", counting steps.
#
#   scripts/bench.sh               # every step
#   scripts/bench.sh STEP...       # only these (names below)
#   BENCH_BEFORE=REF scripts/bench.sh bench-stages
#                                  # the per-stage profile with a column for
#                                  # the library built from git REF too
set -uo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
go=${GO:-go}
build=${BUILD:-build}
log=$build/bench.log
# The per-call and start-up goals first (the longest steps, S3 transfers
# and the soak, last).
steps=(bench-c bench-async-c bench-stages bench-startup bench-python client-call bench-aws
  model protocol client-startup gen-go credentials identity attempt-identity
  bench-typed-c bench-python-async bench-serve bench-stream bench-soak)
[ $# -eq 0 ] || steps=("$@")

# run STEP: the commands of one step.
run() {
  case $1 in
  model) $go test ./model -run '^$' -bench . -benchmem ;;
  protocol) $go test ./protocol -run '^$' -bench '^Benchmark(RoundTrip1KB|RoundTrip1MB|SonicTyped|AWSJSON|RPCv2|FxCBORTyped|XML)' -benchmem ;;
  client-call) $go test ./client -run '^$' -bench '^BenchmarkCall' -benchmem -benchtime 1s ;;
  client-startup) $go test ./client -run '^$' -bench '^BenchmarkStartup' -benchmem -benchtime 20x ;;
  gen-go) $go test ./codegen/go -run '^$' -bench 'GenGo' -benchmem -benchtime 3x ;;
  credentials) $go test ./credentials -run '^$' -bench '^BenchmarkStaticProfile$' -benchmem ;;
  identity) $go test ./identity -run '^$' -bench '^BenchmarkCacheGet$' -benchmem ;;
  attempt-identity) $go test ./client -run '^$' -bench '^BenchmarkAttemptIdentity$' -benchmem ;;
  bench-stages)
    if [ -n "${BENCH_BEFORE:-}" ]; then
      local src=$build/before-src
      rm -rf "$src" && mkdir -p "$src" &&
        git archive "$BENCH_BEFORE" | tar -x -C "$src" &&
        (cd "$src" && $go build -buildmode=c-shared -o "$OLDPWD/$build/before/libsmithycurl.so" ./export) &&
        rm -rf "$src" || return 1
      $make --no-print-directory bench-stages BENCH_STAGES_LIBS="before=$PWD/$build/before/libsmithycurl.so now=$PWD/$build/libsmithycurl.so"
    else
      $make --no-print-directory bench-stages
    fi ;;
  *) $make --no-print-directory "$1" ;;
  esac
}

mkdir -p "$build"
: >"$log"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
passed=0 failed=0 failures=()
for s in "${steps[@]}"; do
  echo "== bench: $s" | tee -a "$log"
  run "$s" 2>&1 | tee -a "$log"
  if [ "${PIPESTATUS[0]}" -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)) failures+=("$s")
  fi
done

echo
echo "bench goals (load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end):"
grep -a '^goal: ' "$log" | sed 's/^goal: /  /'
met=$(grep -ac '^goal: .*: met$' "$log")
missed=$(grep -ac '^goal: .*: NOT met$' "$log")
echo "  $met met, $missed not met"
[ ${#failures[@]} -eq 0 ] || echo "bench: failed steps: ${failures[*]}"
echo "bench: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
