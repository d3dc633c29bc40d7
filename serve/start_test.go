package serve_test

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/serve"
)

// TestStart: a mock on 127.0.0.1 answers a client until Stop, which ends
// its listener; a bad option is New's error, nothing left listening.
func TestStart(t *testing.T) {
	ctx := context.Background()
	m, err := model.LoadPaths(ctx, filepath.Join("..", "examples", "todo"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("smithycurl.examples.todo#Todos")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := serve.Start(m, svc, serve.WithFixtures([]byte(`{"Nope": []}`))); err == nil {
		t.Fatal("Start with a fixture of no operation: no error")
	}
	mock, err := serve.Start(m, svc, serve.WithFixturesFile(filepath.Join("..", "testing", "fixtures", "todo.json")))
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, svc.Shape.ID, mock.URL, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out, err := c.Call(ctx, "GetTodo", []byte(`{"id": "0f8fad5b-d9cb-469f-a165-70867728950e"}`))
	if err != nil || len(out) == 0 {
		t.Fatalf("GetTodo = %s, %v", out, err)
	}
	if err := mock.Stop(); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.Get(mock.URL + "/todos"); err == nil {
		resp.Body.Close()
		t.Fatalf("after Stop: %s answered %s", mock.URL, resp.Status)
	}
}
