#!/usr/bin/env bash
# Runs bench/c/bench.c against build/testserver (go-httpbin for the cold
# start, the echo service "bench" for the throughput): make bench-c runs the
# throughput part (BENCH_C_COLD=0), make bench-startup the cold start
# (BENCH_C_CALLS=0).
#   BENCH_C_CALLS  calls per throughput measurement (default 4000; 0: none)
#   BENCH_C_COLD   cold-start runs of each program (default 21; 0: none)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
. bench/c/testserver.sh
testserver_start httpbin bench
url=$TS_httpbin echo=$TS_bench
# The cold start also loads the model from its snapshot (smithycurl compile);
# the model cache's entries go to a folder of this run.
export XDG_CACHE_HOME="$PWD/$build/bench-c-cache"
rm -rf "$XDG_CACHE_HOME"
"$build/smithycurl" compile -o "$build/httpbin.scmodel" examples/httpbin >/dev/null
# The Go libraries are read from the disk, as an installed library is after
# a boot: the linker writes its output through a shared mapping, and a
# process loading that file's cached pages had up to 2.4 MiB more of the
# same 16 MB library resident (peak RSS) than from a copy or the disk.
for so in "$build/libsmithycurl.so" "$build/libgofloor.so"; do
  if [ -f "$so" ]; then sync "$so" && dd if="$so" iflag=nocache count=0 status=none; fi
done
timeout 900 "$build/bench-c" "$url" examples/httpbin "${BENCH_C_CALLS:-4000}" "${BENCH_C_COLD:-21}" \
  "$build/bench-c-cold-curl" "$build/bench-c-cold-smithycurl" "$PWD/$build/libsmithycurl.so" \
  "$echo" client/testdata/bench.smithy "$build/httpbin.scmodel" "$build/bench-c-cold-gofloor"
