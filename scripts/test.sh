#!/usr/bin/env bash
# make test: builds once, then runs the stages in two lanes at once — the Go
# lane (multi-threaded go test, the differentials, a daily sample of the
# AWS models through every stage (make reach-sample), then the demo and the
# README) beside the native lane (C under valgrind, typed C, Python), which
# mostly keeps one core busy. The lanes are balanced by time: about 550 s
# each on 2 cores with two other busy processes.
# Each stage is a make target; its output goes to build/test-logs/STAGE.log
# and is printed whole when it fails. Ends with a line per stage (seconds,
# result) and "test: N passed, N failed", counting stages.
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
# never the user's ~/.cache.
export XDG_CACHE_HOME=$PWD/build/test-cache
rm -rf "$XDG_CACHE_HOME" && mkdir -p "$XDG_CACHE_HOME"
start=$(date +%s)

# stage NAME: runs `make NAME` into its log; records "NAME SECONDS RC".
# A stage that passed shows its count lines ("N passed, N failed" of the
# suites, differentials and vectors, or "<what>: not run").
stage() {
  local t0 rc
  t0=$(date +%s)
  $make --no-print-directory "$1" >"$logs/$1.log" 2>&1
  rc=$?
  echo "$1 $(($(date +%s) - t0)) $rc" >>"$logs/times"
  if [ $rc -ne 0 ]; then
    echo "---- $1 failed (exit $rc); its output:"
    cat "$logs/$1.log"
    echo "---- end of $1"
  else
    echo "test: $1 passed in $(($(date +%s) - t0)) s"
    grep -E '[0-9]+ passed, [0-9]+ failed|^[A-Za-z][^:]*: not run' "$logs/$1.log" | sed "s/^/  $1: /"
  fi
  return $rc
}

lane() { local s; for s in "$@"; do stage "$s"; done; }

# Everything both lanes use, built once (and the missing dependencies
# installed first, so that nothing is found missing late in the run).
stage test-build || { echo "test: 0 passed, 1 failed"; exit 1; }
lane "${go_lane[@]}" &
go_pid=$!
lane "${native_lane[@]}"
wait $go_pid

echo
echo "stage                       seconds  result"
passed=0 failed=0
while read -r name secs rc; do
  if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); r=ok; else failed=$((failed + 1)); r="FAILED (exit $rc)"; fi
  printf '%-27s %7d  %s\n' "$name" "$secs" "$r"
done <"$logs/times"
echo "wall: $(($(date +%s) - start)) s"
echo "test: $passed passed, $failed failed"
[ $failed -eq 0 ]
