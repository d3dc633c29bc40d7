package gogen_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/examples/go/todo-typed/todo"
	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
)

// TestTodoTypedPaginator pages through ListTodos with the generated
// PaginateListTodos: typed pages, max items, and an early break.
func TestTodoTypedPaginator(t *testing.T) {
	srv := httptest.NewServer(todoserver.New().Handler())
	defer srv.Close()
	c, err := todo.New(srv.URL, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	for i := range 5 {
		if _, err := c.CreateTodo(ctx, &todo.CreateTodoInput{Title: fmt.Sprintf("p%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	limit := int32(2)
	var titles []string
	pages := 0
	for page, err := range c.PaginateListTodos(ctx, &todo.ListTodosInput{Limit: &limit}) {
		if err != nil {
			t.Fatal(err)
		}
		if pages++; pages > 10 {
			t.Fatal("more than 10 pages")
		}
		for _, it := range page.Items {
			titles = append(titles, it.Title)
		}
	}
	if pages != 3 || fmt.Sprint(titles) != "[p0 p1 p2 p3 p4]" {
		t.Errorf("%d pages, titles %v", pages, titles)
	}
	n := 0
	for page, err := range c.PaginateListTodos(ctx, nil, client.WithPageSize(2), client.WithMaxItems(3)) {
		if err != nil {
			t.Fatal(err)
		}
		n += len(page.Items)
	}
	if n != 3 {
		t.Errorf("max items 3: %d items", n)
	}
	for _, err := range c.PaginateListTodos(ctx, nil, client.WithMaxItems(-1)) {
		if err == nil {
			t.Error("max items -1: no error")
		}
	}
}
