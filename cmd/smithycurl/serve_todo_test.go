package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestServeTodoCalls: `smithycurl call` against `smithycurl serve` on the
// Todo example with testing/fixtures/todo.json (the fixtures the C, Go and
// Python tests use): every operation and every modeled error, exit codes
// and output.
func TestServeTodoCalls(t *testing.T) {
	bin := smithycurl(t)
	root := filepath.Join("..", "..")
	todo := filepath.Join(root, "examples", "todo")
	url, stop := startServe(t, bin, "--model", todo, "--fixtures", filepath.Join(root, "testing", "fixtures", "todo.json"))
	defer stop()
	const id, other = `"0f8fad5b-d9cb-469f-a165-70867728950e"`, `"00000000-0000-4000-8000-000000000000"`
	const notFound = `{"error":"smithycurl.examples.todo#TodoNotFound","status":404,"data":{"message":"no such item"}}`
	for _, tc := range []struct {
		op, input string
		code      int
		want      string // the output, or a part of it
	}{
		{"CreateTodo", `{"title": "milk"}`, 0, `"tags":["shop"]`},
		{"CreateTodo", `{"title": "full"}`, exitServiceError,
			`{"error":"smithycurl.examples.todo#TooManyTodos","status":409,"data":{"limit":3,"message":"the list is full"}}`},
		{"GetTodo", `{"id": ` + id + `}`, 0, `"created":"2024-05-06T07:08:09Z"`},
		{"GetTodo", `{"id": ` + other + `}`, exitServiceError, notFound},
		{"ListTodos", `{}`, 0, `{"items":[{`},
		{"ListTodos", `{"done": true}`, 0, `{"items":[]}`},
		{"UpdateTodo", `{"id": ` + id + `, "done": true}`, 0, `"done":true`},
		{"UpdateTodo", `{"id": ` + other + `}`, exitServiceError, notFound},
		{"DeleteTodo", `{"id": ` + id + `}`, 0, `{}`},
		{"DeleteTodo", `{"id": ` + other + `}`, exitServiceError, notFound},
	} {
		out, errOut, code := runCmd(t, bin, "call", "--model", todo, "--endpoint", url, tc.op, "--input", tc.input)
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%s %s: exit %d (want %d): %s%s, want %s", tc.op, tc.input, code, tc.code, out, errOut, tc.want)
		}
	}
}
