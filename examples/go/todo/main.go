// A walk through the example Todos service: create, read, update, list,
// delete, and the modeled error for an item that is gone.
//
//	go run ./examples/go/todo -endpoint http://127.0.0.1:8081
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

func main() {
	endpoint := flag.String("endpoint", "http://127.0.0.1:8081", "Todos service base URL")
	modelPath := flag.String("model", "examples/todo", "the Todos Smithy model")
	flag.Parse()
	ctx := context.Background()

	m, err := model.LoadPaths(ctx, *modelPath)
	if err != nil {
		log.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.todo#Todos", *endpoint)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	call := func(op string, input any) []byte {
		in, _ := json.Marshal(input)
		out, err := c.Call(ctx, op, in)
		if err != nil {
			log.Fatalf("%s: %v", op, err)
		}
		fmt.Printf("%-10s %s\n", op, out)
		return out
	}

	var item struct{ ID string }
	json.Unmarshal(call("CreateTodo", map[string]any{"title": "try smithycurl", "tags": []string{"demo"}}), &item)
	call("GetTodo", map[string]any{"id": item.ID})
	call("UpdateTodo", map[string]any{"id": item.ID, "done": true})
	call("ListTodos", map[string]any{"limit": 10})
	call("DeleteTodo", map[string]any{"id": item.ID})

	// The item is gone: the service answers with its modeled error.
	_, err = c.Call(ctx, "GetTodo", []byte(fmt.Sprintf(`{"id": %q}`, item.ID)))
	var e *client.Error
	if errors.As(err, &e) && e.Kind == client.KindService {
		fmt.Printf("%-10s error %s (HTTP %d): %s\n", "GetTodo", e.Shape, e.Status, e.Members)
	}

	// With WithValidation, input that breaks the model's constraints never
	// leaves the process: every violation is listed. (By default only
	// @required members and value types are checked, and the service has
	// the last word.)
	strict, err := client.New(m, "smithycurl.examples.todo#Todos", *endpoint, client.WithValidation())
	if err != nil {
		log.Fatal(err)
	}
	defer strict.Close()
	_, err = strict.Call(ctx, "CreateTodo", []byte(`{"title": "", "priority": "URGENT"}`))
	if errors.As(err, &e) && e.Kind == client.KindValidation {
		fmt.Printf("%-10s rejected before sending: %s\n", "CreateTodo", e.Message())
	}
}
