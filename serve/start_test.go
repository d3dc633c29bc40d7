package serve_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/serve"
)

// TestStart: a mock on 127.0.0.1 answers a client until Stop, which ends
// its listener; a bad option is New's error, nothing left listening.
func TestStart(t *testing.T) {
	ctx := context.Background()
	m, svc := todoService(t)
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

// TestStartLibcurl: libcurl, through the client, against Start's server:
// calls reuse a connection; a body over the bound is a 413 before the
// server reads it, the connection closed, and the next call works; a body
// of 3 MiB (libcurl's size for Expect: 100-continue, which the client
// turns off) and many calls in a row on one client are read whole.
func TestStartLibcurl(t *testing.T) {
	ctx := context.Background()
	m, svc := todoService(t)
	for _, bound := range []int64{4 << 10, 8 << 20} {
		mock, err := serve.Start(m, svc, serve.WithMaxBody(bound))
		if err != nil {
			t.Fatal(err)
		}
		c, err := client.New(m, svc.Shape.ID, mock.URL, client.WithoutRetries(), client.WithoutValidation())
		if err != nil {
			t.Fatal(err)
		}
		big := `{"title": "big", "tags": ["` + strings.Repeat("t", 3<<20) + `"]}`
		_, err = c.Call(ctx, "CreateTodo", []byte(big))
		var ce *client.Error
		if bound < int64(len(big)) {
			if !errors.As(err, &ce) || ce.Status != http.StatusRequestEntityTooLarge {
				t.Fatalf("CreateTodo over the bound of %d: %v, want a 413", bound, err)
			}
		} else if !errors.As(err, &ce) || ce.Status != http.StatusBadRequest { // read whole, then refused by the model (a tag's length)
			t.Fatalf("CreateTodo of 3 MiB: %v, want the model's 400", err)
		}
		for i := 0; i < 50; i++ {
			if out, err := c.Call(ctx, "CreateTodo", []byte(`{"title": "small"}`)); err != nil || len(out) == 0 {
				t.Fatalf("CreateTodo %d after it = %s, %v", i, out, err)
			}
		}
		c.Close()
		if err := mock.Stop(); err != nil {
			t.Fatal(err)
		}
	}
}

// todoService is the Todo example's model and service.
func todoService(t *testing.T) (*model.Model, *model.Service) {
	t.Helper()
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "examples", "todo"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("smithycurl.examples.todo#Todos")
	if err != nil {
		t.Fatal(err)
	}
	return m, svc
}
