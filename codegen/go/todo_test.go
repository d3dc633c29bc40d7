package gogen_test

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/codegen/go"
	"github.com/smithycurl/smithycurl/examples/go/todo-typed/todo"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
)

// TestTodoTyped calls the example Todos server through the generated
// client checked in under examples/go/todo-typed: typed values both ways,
// a per-call option, and the modeled error found with errors.As.
func TestTodoTyped(t *testing.T) {
	srv := httptest.NewServer(todoserver.New().Handler())
	defer srv.Close()
	c, err := todo.New(srv.URL, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	high := todo.PriorityHigh
	item, err := c.CreateTodo(ctx, &todo.CreateTodoInput{Title: "typed", Priority: &high, Tags: []string{"a", "b"}},
		client.WithCallHeader("X-Test", "1"), client.WithCallTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if item.Title != "typed" || item.Priority != todo.PriorityHigh ||
		len(item.Tags) != 2 || item.Created.IsZero() || item.ID == "" {
		t.Errorf("created %+v", item)
	}
	got, err := c.GetTodo(ctx, &todo.GetTodoInput{ID: item.ID})
	if err != nil || got.ID != item.ID {
		t.Fatalf("GetTodo = %+v, %v", got, err)
	}
	if err := c.DeleteTodo(ctx, &todo.DeleteTodoInput{ID: item.ID}); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTodo(ctx, &todo.GetTodoInput{ID: item.ID})
	var nf *todo.TodoNotFound
	if !errors.As(err, &nf) {
		t.Fatalf("want *todo.TodoNotFound, got %T %v", err, err)
	}
	if nf.Status != 404 || nf.Meta().Shape != "smithycurl.examples.todo#TodoNotFound" || nf.Message == "" {
		t.Errorf("error %+v", nf.ErrorMeta)
	}
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != client.KindService {
		t.Errorf("errors.As(*client.Error) = %v", ce)
	}
	if len(todo.Priority("").Values()) != 3 {
		t.Errorf("Values() = %v", todo.Priority("").Values())
	}
}

// TestTodoTypedUpToDate checks that the checked-in example package is what
// gen go writes today (go generate ./examples/go/todo-typed refreshes it).
func TestTodoTypedUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	m, err := model.LoadPaths(context.Background(), filepath.Join(root, "examples", "todo"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("smithycurl.examples.todo#Todos")
	if err != nil {
		t.Fatal(err)
	}
	files, err := gogen.Generate(m, svc, "todo")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		old, err := os.ReadFile(filepath.Join(root, "examples", "go", "todo-typed", "todo", f.Name))
		if err != nil || !bytes.Equal(old, f.Data) {
			t.Errorf("examples/go/todo-typed/todo/%s is stale: run go generate ./examples/go/todo-typed", f.Name)
		}
	}
}
