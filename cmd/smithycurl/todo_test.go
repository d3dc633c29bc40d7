package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestReadmeTodoFlow runs the README's flow against the demo's Todos
// service: `example ... CreateTodo > in.json`, then `call ... CreateTodo
// --input @in.json`, as it is (the example's due goes out as epoch seconds).
func TestReadmeTodoFlow(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(todoserver.New().Handler())
	defer srv.Close()
	model := filepath.Join("..", "..", "examples", "todo")
	in := filepath.Join(t.TempDir(), "in.json")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "example", "--model", model, "CreateTodo")
	cmd.Stdout = f
	err = cmd.Run()
	f.Close()
	if err != nil {
		t.Fatalf("example: %v", err)
	}
	out, errOut, code := runCmd(t, bin, "call", "--model", model, "--endpoint", srv.URL, "CreateTodo", "--input", "@"+in)
	var item struct{ ID, Title, Due string }
	if code != 0 || json.Unmarshal([]byte(out), &item) != nil || item.ID == "" || item.Title != "string" || item.Due != "1970-01-01T00:00:00Z" {
		t.Errorf("call CreateTodo --input @in.json: exit %d: %s%s", code, out, errOut)
	}
}

// TestOutputLayout: every command's JSON is indented on a terminal and
// compact otherwise.
func TestOutputLayout(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(todoserver.New().Handler())
	defer srv.Close()
	model := filepath.Join("..", "..", "examples", "todo")
	for _, args := range [][]string{
		{"example", "--model", model, "CreateTodo"},
		{"describe", "--json", "--model", model, "GetTodo"},
		{"endpoint", "--model", shareddata.Path(t, "models", "aws", "dynamodb.json"), "--region", "us-east-1"},
		{"call", "--model", model, "--endpoint", srv.URL, "CreateTodo", "--input", `{"title": "t", "tags": ["a"]}`},
		{"call", "--model", model, "--endpoint", srv.URL, "GetTodo", "--input", `{"id": "00000000-0000-4000-8000-000000000000"}`},
	} {
		piped, errOut, _ := runCmd(t, bin, args...)
		if compact(piped) != piped {
			t.Errorf("%s piped: want compact JSON and a newline, got %q %s", args[0], piped, errOut)
		}
		if got := runOnTerminal(t, bin, args...); indent(got) != got || !strings.Contains(got, "\n  ") {
			t.Errorf("%s on a terminal: want it indented, got %q", args[0], got)
		}
	}
}

// TestRawAsReceived: --raw prints the body as the service sent it, on a
// terminal or not.
func TestRawAsReceived(t *testing.T) {
	bin := smithycurl(t)
	const body = "{\n    \"items\": [ ]\n}"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	args := []string{"call", "--model", filepath.Join("..", "..", "examples", "todo"), "--endpoint", srv.URL, "ListTodos", "--input", "{}", "--raw"}
	piped, _, code := runCmd(t, bin, args...)
	for where, out := range map[string]string{"piped": piped, "on a terminal": runOnTerminal(t, bin, args...)} {
		if code != 0 || !strings.HasPrefix(out, "HTTP 200\n") || !strings.HasSuffix(out, "\n\n"+body+"\n") {
			t.Errorf("%s: exit %d: %q", where, code, out)
		}
	}
}

// compact and indent give JSON text as writeJSON prints it (or "" when it is no JSON).
func compact(text string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(text)) != nil {
		return ""
	}
	return b.String() + "\n"
}

func indent(text string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(compact(text)), "", "  ") != nil {
		return ""
	}
	return b.String()
}
