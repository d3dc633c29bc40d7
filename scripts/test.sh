#!/usr/bin/env bash
# make test: builds once, then runs the stages in two lanes at once — the Go
# lane (multi-threaded go test, the differentials, a daily sample of the
# AWS models through every stage (make reach-sample), then the demo and the
# README) beside the native lane (C under valgrind, typed C, Python), which
# mostly keeps one core busy. The lanes are balanced by time: about 550 s
# each on 2 cores with two other busy processes.
# Each stage is a make target; its output goes to build/test-logs/STAGE.log
# and is printed whole when it fails. Ends with a line per stage (wall and
# CPU seconds, result), the sums and "test: N passed, N failed", counting
# stages.
#
#   scripts/test.sh                 # every stage
#   scripts/test.sh STAGE...        # only these (the builds still run first)
set -uo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
logs=build/test-logs
go_lane=(vet test-race test-go conformance sigv4a-vectors proptest fuzz-brief diff-botocore diff-botocore-responses reach-sample diff-presign credchain demo readme)
native_lane=(ctest gentest-c pytest)
if [ $# -gt 0 ]; then
  want=" $* "
  keep() { local s out=(); for s in "$@"; do [[ $want == *" $s "* ]] && out+=("$s"); done; echo "${out[@]:-}"; }
  read -ra go_lane <<<"$(keep "${go_lane[@]}")"
  read -ra native_lane <<<"$(keep "${native_lane[@]}")"
fi

shared=${SMITHYCURL_SHARED:-../shared}
[ -d "$shared/conformance" ] || { echo "test: the shared test data is not at $shared (set SMITHYCURL_SHARED)"; echo "test: 0 passed, 1 failed"; exit 1; }

rm -rf "$logs" && mkdir -p "$logs"
# The model cache's snapshots (model/cache.go) go to a folder of this run,
# never the user's ~/.cache; Go's build cache stays the user's (it was under
# XDG_CACHE_HOME too: every run compiled everything from nothing).
GOCACHE=${GOCACHE:-$(${GO:-go} env GOCACHE)} || exit 1
export GOCACHE
export XDG_CACHE_HOME=$PWD/build/test-cache
rm -rf "$XDG_CACHE_HOME" && mkdir -p "$XDG_CACHE_HOME"
start=$EPOCHREALTIME
# elapsed T0: whole seconds since T0 (an $EPOCHREALTIME).
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'; }

# stage NAME: runs `make NAME` into its log; records "NAME WALL CPU RC"
# (seconds; CPU: user+sys of the stage's processes, from the subshell's
# `times`, which the load of other processes distorts less than wall time).
# A stage that passed shows its count lines ("N passed, N failed" of the
# suites, differentials and vectors, or "<what>: not run").
# After test-build, a stage does not remake what test-build made (make -o):
# each would check every Go package again and rebuild the C examples
# (28 s of CPU for build, lib and examples when nothing changed).
made=()
stage() {
  local t0 rc cpu
  t0=$EPOCHREALTIME
  ( $make --no-print-directory "${made[@]}" "$1" >"$logs/$1.log" 2>&1; rc=$?; times >"$logs/$1.times"; exit $rc )
  rc=$?
  # The second line of `times`: the children's user and sys, "XmY.YYYs XmY.YYYs".
  cpu=$(sed -n 2p "$logs/$1.times" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%.0f", s }')
  echo "$1 $(elapsed "$t0") ${cpu:-0} $rc" >>"$logs/times"
  if [ $rc -ne 0 ]; then
    echo "---- $1 failed (exit $rc); its output:"
    cat "$logs/$1.log"
    echo "---- end of $1"
  else
    echo "test: $1 passed in $(elapsed "$t0") s"
    grep -E '[0-9]+ passed, [0-9]+ failed|^[A-Za-z][^:]*: not run' "$logs/$1.log" | sed "s/^/  $1: /"
  fi
  return $rc
}

lane() { local s; for s in "$@"; do stage "$s"; done; }

# Everything both lanes use, built once (and the missing dependencies
# installed first, so that nothing is found missing late in the run).
stage test-build || { echo "test: 0 passed, 1 failed"; exit 1; }
made=(-o deps -o deps-test -o build -o lib -o examples)
lane "${go_lane[@]}" &
go_pid=$!
lane "${native_lane[@]}"
wait $go_pid

echo
echo "stage                       wall s   CPU s  result"
passed=0 failed=0 cpu=0
while read -r name secs stagecpu rc; do
  if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); r=ok; else failed=$((failed + 1)); r="FAILED (exit $rc)"; fi
  cpu=$((cpu + stagecpu))
  printf '%-27s %6d  %6d  %s\n' "$name" "$secs" "$stagecpu" "$r"
done <"$logs/times"
echo "wall: $(elapsed "$start") s, CPU: $cpu s"
echo "test: $passed passed, $failed failed"
[ $failed -eq 0 ]
