package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenGo runs gen go on the Todo example and on bad arguments.
func TestGenGo(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	model := filepath.Join("..", "..", "examples", "todo")
	var out, errOut bytes.Buffer
	if rc := genGo(ctx, []string{"--model", model, "--package", "todo", "-o", dir}, &out, &errOut); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut.String())
	}
	for _, f := range []string{"types.go", "client.go", "model.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	src, _ := os.ReadFile(filepath.Join(dir, "client.go"))
	if !bytes.Contains(src, []byte("func (c *Client) CreateTodo(ctx context.Context, in *CreateTodoInput, opts ...client.CallOption) (*TodoItem, error)")) {
		t.Errorf("client.go has no CreateTodo method:\n%s", src)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", model, "-o", dir}, "--package and -o are required"},
		{[]string{"--model", model, "--package", "todo"}, "--package and -o are required"},
		{[]string{"--model", model, "--package", "func", "-o", dir}, `package name "func" is not a Go identifier`},
		{[]string{"--model", model, "--package", "my-pkg", "-o", dir}, `package name "my-pkg" is not a Go identifier`},
		{[]string{"--model", model, "--service", "a.b#Nope", "--package", "x", "-o", dir}, "service a.b#Nope not found"},
		{[]string{"--package", "x", "-o", dir}, "no model given"},
		{[]string{"--model", model, "--package", "x", "-o", dir, "extra"}, `unexpected argument "extra"`},
	} {
		errOut.Reset()
		if rc := genGo(ctx, c.args, &out, &errOut); rc != exitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: rc %d, stderr %q, want %q", c.args, rc, errOut.String(), c.want)
		}
	}
}
