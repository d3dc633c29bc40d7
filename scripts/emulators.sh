#!/usr/bin/env bash
# The AWS emulators the end-to-end tests and benchmarks call: dynalite
# (DynamoDB, awsJson1_0), kinesalite (Kinesis, awsJson1_1), fauxqs (SQS in
# awsJson1_0, SNS in awsQuery, S3) and s3rver (S3, restXml path-style),
# installed from npm into a git-ignored cache and bound to 127.0.0.1.
#
#   scripts/emulators.sh install   # npm install into $SMITHYCURL_CACHE/npm (default .cache/npm); prints node_modules
#   scripts/emulators.sh start     # install, start them all (free ports), print their URLs as shell exports:
#                                  #   export SMITHYCURL_DYNALITE_URL=http://127.0.0.1:PORT
#                                  #   export SMITHYCURL_KINESALITE_URL=http://127.0.0.1:PORT
#                                  #   export SMITHYCURL_FAUXQS_URL=http://127.0.0.1:PORT
#                                  #   export SMITHYCURL_S3RVER_URL=http://127.0.0.1:PORT
#   scripts/emulators.sh env       # print the same for the running emulators (exit 1 if not running)
#   scripts/emulators.sh stop      # stop the emulators this script started
#
# Use: eval "$(scripts/emulators.sh start)"; ...; scripts/emulators.sh stop
# (the exports reach the shell's child processes). Needs node and npm (Node
# 18 or newer), and the npm registry on a first run (install). Fake
# credentials are fine: the emulators do not check signatures (s3rver knows
# only the access keys S3RVER and AKIDEXAMPLE, the tests' key:
# scripts/emulator.js).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${SMITHYCURL_CACHE:-$root/.cache}"
npmdir="$cache/npm"
state="$cache/emulators"
versions=(dynalite@4.0.0 kinesalite@3.3.3 fauxqs@1.9.2 s3rver@3.7.1)
names=(dynalite kinesalite fauxqs s3rver)

installed() {
  local spec name version
  for spec in "${versions[@]}"; do
    name="${spec%@*}" version="${spec#*@}"
    node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' \
      "$npmdir/node_modules/$name/package.json" "$version" 2>/dev/null || return 1
  done
}

install() {
  command -v node >/dev/null && command -v npm >/dev/null || { echo "emulators: node and npm are needed" >&2; exit 1; }
  if ! installed; then
    echo "emulators: npm install ${versions[*]} into $npmdir" >&2
    mkdir -p "$npmdir"
    timeout 300 npm install --prefix "$npmdir" --no-audit --no-fund --no-save --loglevel=error "${versions[@]}" >&2
    installed || { echo "emulators: install failed" >&2; exit 1; }
  fi
}

alive() { [ -f "$state/$1.pid" ] && kill -0 "$(cat "$state/$1.pid")" 2>/dev/null && [ -s "$state/$1.port" ]; }

var() { case "$1" in dynalite) echo SMITHYCURL_DYNALITE_URL ;; kinesalite) echo SMITHYCURL_KINESALITE_URL ;; fauxqs) echo SMITHYCURL_FAUXQS_URL ;;
  s3rver) echo SMITHYCURL_S3RVER_URL ;; esac; }

print_env() {
  local n
  for n in "${names[@]}"; do
    alive "$n" || return 1
    echo "export $(var "$n")=http://127.0.0.1:$(head -n1 "$state/$n.port")"
  done
}

start() {
  install
  mkdir -p "$state"
  local n i
  for n in "${names[@]}"; do
    alive "$n" && continue
    rm -f "$state/$n.port"
    setsid node "$root/scripts/emulator.js" "$npmdir/node_modules" "$n" 0 \
      </dev/null >"$state/$n.port" 2>"$state/$n.log" &
    echo $! >"$state/$n.pid"
    for i in $(seq 100); do
      [ -s "$state/$n.port" ] && break
      kill -0 "$(cat "$state/$n.pid")" 2>/dev/null || { echo "emulators: $n exited: $(cat "$state/$n.log")" >&2; exit 1; }
      sleep 0.1
    done
    [ -s "$state/$n.port" ] || { echo "emulators: $n did not start within 10 s" >&2; stop; exit 1; }
  done
  print_env
}

stop() {
  local n
  for n in "${names[@]}"; do
    if [ -f "$state/$n.pid" ]; then
      kill "$(cat "$state/$n.pid")" 2>/dev/null || true
      rm -f "$state/$n.pid" "$state/$n.port"
    fi
  done
}

case "${1:-}" in
  install) install; echo "$npmdir/node_modules" ;;
  start) start ;;
  env) print_env ;;
  stop) stop ;;
  *) echo "usage: $0 install|start|env|stop" >&2; exit 2 ;;
esac
