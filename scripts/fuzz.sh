#!/usr/bin/env bash
# Runs each fuzzer given as PKG:NAME for FUZZTIME (a duration or Nx).
# Go's fuzzing engine sometimes ends a run with a bare "context deadline
# exceeded" when the time runs out while a worker is busy (no failing input
# is written): that run is repeated once. A real failure writes its input
# under testdata/fuzz/ and fails at once.
set -uo pipefail
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-20s}
# FUZZ_SHARE=N: only every Nth fuzzer, which ones by the day of the year,
# so that N days cover them all.
share=${FUZZ_SHARE:-1}
if [ "$share" -gt 1 ]; then
    day=$((10#$(date -u +%j)))
    picked=() i=0
    for f in "$@"; do
        [ $(((i + day) % share)) -eq 0 ] && picked+=("$f")
        i=$((i + 1))
    done
    echo "fuzz: ${#picked[@]} of $# fuzzers today (one in $share, by the day of the year $day)"
    set -- "${picked[@]}"
fi
for f in "$@"; do
    pkg=${f%%:*} name=${f#*:}
    for try in 1 2; do
        echo "$GO test $pkg -run '^\$' -fuzz '^$name\$' -fuzztime $FUZZTIME"
        out=$($GO test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime "$FUZZTIME" 2>&1)
        rc=$?
        echo "$out" | tail -n 4
        [ $rc -eq 0 ] && break
        if [ $try -eq 1 ] && echo "$out" | grep -q 'context deadline exceeded' && ! echo "$out" | grep -q 'Failing input written'; then
            echo "fuzz: $name ended with the engine's deadline race, not a failing input: once more"
            continue
        fi
        echo "$out"
        exit 1
    done
done
