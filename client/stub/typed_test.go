package stub_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client/stub"
	"github.com/smithycurl/smithycurl/examples/go/todo-typed/todo"
)

// TestStubTyped: the generated Todos client (simpleRestJson) reads
// stubbed outputs and errors as typed values, as it reads the server's.
func TestStubTyped(t *testing.T) {
	c, err := todo.New("https://todos.invalid")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := stub.For(c.Untyped())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Activate(); err != nil {
		t.Fatal(err)
	}
	defer s.Deactivate()
	const id = "0f8fad5b-d9cb-469f-a165-70867728950e"
	if err := s.Add("GetTodo", []byte(`{"id":"`+id+`","title":"milk","priority":"HIGH","created":"2024-05-06T07:08:09Z","tags":["shop"]}`),
		stub.ExpectInput([]byte(`{"id":"`+id+`"}`))); err != nil {
		t.Fatal(err)
	}
	if err := s.AddError("GetTodo", "TodoNotFound", []byte(`{"message":"gone","id":"`+id+`"}`)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	item, err := c.GetTodo(ctx, &todo.GetTodoInput{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	if item.ID != id || item.Title != "milk" || item.Priority != todo.PriorityHigh || item.Done ||
		!item.Created.Equal(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)) || len(item.Tags) != 1 {
		t.Errorf("item %+v", item)
	}
	_, err = c.GetTodo(ctx, &todo.GetTodoInput{ID: id})
	var nf *todo.TodoNotFound
	if !errors.As(err, &nf) || nf.Message != "gone" || nf.Status != 404 {
		t.Errorf("error %T %v, want *todo.TodoNotFound with status 404", err, err)
	}
	s.AssertDone(t)
}
