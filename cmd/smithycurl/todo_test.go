package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
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
