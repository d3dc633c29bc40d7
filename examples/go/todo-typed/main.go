// The example Todos service through the typed Go client that
// `smithycurl gen go` wrote into ./todo (no model file at run time): create,
// read, update, list, delete, and the modeled error found with errors.As.
//
//	go run ./examples/go/todo-typed -endpoint http://127.0.0.1:8081
package main

//go:generate go run ../../../cmd/smithycurl gen go --model ../../todo --package todo -o todo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/examples/go/todo-typed/todo"
)

func main() {
	endpoint := flag.String("endpoint", "http://127.0.0.1:8081", "Todos service base URL")
	flag.Parse()
	if err := run(context.Background(), *endpoint); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, endpoint string) error {
	c, err := todo.New(endpoint, client.WithTimeout(10*time.Second))
	if err != nil {
		return err
	}
	defer c.Close()
	high := todo.PriorityHigh
	item, err := c.CreateTodo(ctx, &todo.CreateTodoInput{Title: "try the typed client", Priority: &high, Tags: []string{"go"}})
	if err != nil {
		return err
	}
	fmt.Printf("created %s %q (%s) at %s\n", item.ID, item.Title, item.Priority, item.Created.Format(time.RFC3339))
	done := true
	if _, err := c.UpdateTodo(ctx, &todo.UpdateTodoInput{ID: item.ID, Done: &done}, client.WithCallTimeout(5*time.Second)); err != nil {
		return err
	}
	list, err := c.ListTodos(ctx, &todo.ListTodosInput{Done: &done})
	if err != nil {
		return err
	}
	fmt.Printf("done items: %d\n", len(list.Items))
	if err := c.DeleteTodo(ctx, &todo.DeleteTodoInput{ID: item.ID}); err != nil {
		return err
	}
	_, err = c.GetTodo(ctx, &todo.GetTodoInput{ID: item.ID})
	var nf *todo.TodoNotFound
	if !errors.As(err, &nf) {
		return fmt.Errorf("GetTodo after delete: want *todo.TodoNotFound, got %v", err)
	}
	fmt.Printf("gone: %s (status %d, message %q)\n", nf.Meta().Shape, nf.Status, nf.Message)
	return nil
}
