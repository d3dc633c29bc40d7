#!/usr/bin/env bash
# The README's main job: start the bundled local services on loopback, call
# them from the shell, C, Python and Go, print what each got, stop them.
# Run through `make demo`, which builds everything first.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build

# testserver stops when its stdin closes: the coprocess pipe is its stdin,
# closed on exit so that the services always stop.
coproc SERVER { exec "$bin/testserver"; }
server_pid=$SERVER_PID
server_in=${SERVER[1]}
trap 'exec {server_in}>&-; wait "$server_pid" 2>/dev/null || true' EXIT
read -r _ httpbin <&"${SERVER[0]}"
read -r _ todo <&"${SERVER[0]}"
exec </dev/null # the examples read no input from whoever runs the demo
echo "== local services: httpbin at $httpbin, Todos at $todo"

step() { printf '\n== %s\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@" || printf '(exit code %d)\n' "$?"; }

step "The command line: what the httpbin model offers, and the seed's two calls"
show "$bin/smithycurl" ops --model examples/httpbin
show "$bin/smithycurl" call --model examples/httpbin --endpoint "$httpbin" GetIp
show "$bin/smithycurl" call --model examples/httpbin --endpoint "$httpbin" Anything \
    --input '{"id": 25, "test": "yo", "queryParam": "hello"}'

step "The command line: the Todos service, and its errors with their exit codes"
show "$bin/smithycurl" describe --model examples/todo CreateTodo
show "$bin/smithycurl" call --model examples/todo --endpoint "$todo" CreateTodo --input '{"title": "read the README"}'
show "$bin/smithycurl" call --model examples/todo --endpoint "$todo" GetTodo \
    --input '{"id": "00000000-0000-4000-8000-000000000000"}'
show "$bin/smithycurl" call --model examples/todo --endpoint "$todo" CreateTodo --input '{"title": ""}' --validate

if [ -x "$bin/examples/httpbin" ]; then
    step "C: examples/c/httpbin.c through libsmithycurl.so"
    show env LD_LIBRARY_PATH="$bin" "$bin/examples/httpbin" "$httpbin"
fi

if [ -x "$bin/examples/todo_typed" ]; then
    step "C, typed: examples/c/todo_typed.c (a client written by smithycurl gen c at build time)"
    show "$bin/examples/todo_typed" "$todo"
fi

if [ -f bindings/python/smithycurl/__init__.py ] && [ -f examples/python/httpbin.py ]; then
    step "Python: examples/python/httpbin.py"
    show env PYTHONPATH=bindings/python SMITHYCURL_LIBRARY="$bin/libsmithycurl.so" \
        python3 examples/python/httpbin.py "$httpbin"
fi

step "Go: examples/go/httpbin and examples/go/todo"
show "$bin/examples/go-httpbin" -endpoint "$httpbin"
show "$bin/examples/go-todo" -endpoint "$todo"
if [ -x "$bin/examples/go-todo-typed" ]; then
    step "Go, typed: examples/go/todo-typed (a client written by smithycurl gen go)"
    show "$bin/examples/go-todo-typed" -endpoint "$todo"
fi

step "done: the services stop now"
