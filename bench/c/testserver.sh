# Sourced by the benchmark scripts of bench/c: testserver_start NAME...
# starts $build/testserver (build/ by default) for the rest of the script
# (stopped at its exit) and reads the URLs it prints until it has those of
# the services named; each URL is then in TS_<name> (TS_bench, TS_httpbin,
# TS_todo, ...).
testserver_start() {
  coproc SERVER { exec "${build:-build}/testserver"; }
  server_pid=$SERVER_PID
  trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
  local name u w v missing
  while read -r -t 30 name u <&"${SERVER[0]}"; do
    [[ $name =~ ^[a-z0-9_]+$ ]] && printf -v "TS_$name" '%s' "$u"
    missing=0
    for w in "$@"; do
      v="TS_$w"
      [ -n "${!v:-}" ] || missing=1
    done
    [ "$missing" = 0 ] && return 0
  done
  echo "testserver did not start (wanted: $*)" >&2
  exit 1
}
