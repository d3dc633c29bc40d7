package gogen_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/examples/go/todo-typed/todo"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/serve"
)

// TestTodoTypedMock: the generated Todos client against the mock server
// (serve.Start) with testing/fixtures/todo.json, the fixtures the C and
// Python tests use: every operation and every modeled error, typed.
func TestTodoTypedMock(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join("..", "..")
	m, err := model.LoadPaths(ctx, filepath.Join(root, "examples", "todo"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("smithycurl.examples.todo#Todos")
	if err != nil {
		t.Fatal(err)
	}
	mock, err := serve.Start(m, svc, serve.WithFixturesFile(filepath.Join(root, "testing", "fixtures", "todo.json")))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := mock.Stop(); err != nil {
			t.Error(err)
		}
	}()
	c, err := todo.New(mock.URL, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const id, other = "0f8fad5b-d9cb-469f-a165-70867728950e", "00000000-0000-4000-8000-000000000000"

	item, err := c.CreateTodo(ctx, &todo.CreateTodoInput{Title: "milk"})
	if err != nil || item.ID != id || item.Priority != todo.PriorityHigh || len(item.Tags) != 1 || item.Created.Year() != 2024 {
		t.Fatalf("CreateTodo = %+v, %v", item, err)
	}
	_, err = c.CreateTodo(ctx, &todo.CreateTodoInput{Title: "full"})
	var full *todo.TooManyTodos
	if !errors.As(err, &full) || full.Limit == nil || *full.Limit != 3 || full.Status != 409 {
		t.Errorf("CreateTodo full: %T %v", err, err)
	}
	if got, err := c.GetTodo(ctx, &todo.GetTodoInput{ID: id}); err != nil || got.Title != "milk" {
		t.Errorf("GetTodo = %+v, %v", got, err)
	}
	if page, err := c.ListTodos(ctx, &todo.ListTodosInput{}); err != nil || len(page.Items) != 1 || page.Items[0].ID != id {
		t.Errorf("ListTodos = %+v, %v", page, err)
	}
	done := true
	if page, err := c.ListTodos(ctx, &todo.ListTodosInput{Done: &done}); err != nil || len(page.Items) != 0 {
		t.Errorf("ListTodos done = %+v, %v", page, err)
	}
	if got, err := c.UpdateTodo(ctx, &todo.UpdateTodoInput{ID: id, Done: &done}); err != nil || !got.Done || got.Priority != todo.PriorityLow {
		t.Errorf("UpdateTodo = %+v, %v", got, err)
	}
	if err := c.DeleteTodo(ctx, &todo.DeleteTodoInput{ID: id}); err != nil {
		t.Errorf("DeleteTodo: %v", err)
	}
	for name, call := range map[string]func() error{
		"GetTodo":    func() error { _, err := c.GetTodo(ctx, &todo.GetTodoInput{ID: other}); return err },
		"UpdateTodo": func() error { _, err := c.UpdateTodo(ctx, &todo.UpdateTodoInput{ID: other}); return err },
		"DeleteTodo": func() error { return c.DeleteTodo(ctx, &todo.DeleteTodoInput{ID: other}) },
	} {
		var nf *todo.TodoNotFound
		if err := call(); !errors.As(err, &nf) || nf.Status != 404 || nf.Message != "no such item" {
			t.Errorf("%s %s: %T %v", name, other, err, err)
		}
	}
}
