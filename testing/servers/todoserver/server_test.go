package todoserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
)

// newTodos serves the Todos service for the test and returns a client of it.
func newTodos(t *testing.T) (*httptest.Server, *model.Model, *client.Client) {
	t.Helper()
	srv := httptest.NewServer(todoserver.New().Handler())
	t.Cleanup(srv.Close)
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "..", "..", "examples", "todo"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.todo#Todos", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return srv, m, c
}

// TestTodoService calls every operation of the example service through the
// client, errors included.
func TestTodoService(t *testing.T) {
	srv, m, c := newTodos(t)
	ctx := context.Background()
	call := func(op, in string, out any) error {
		data, err := c.Call(ctx, op, []byte(in))
		if err == nil && out != nil {
			if err := json.Unmarshal(data, out); err != nil {
				t.Fatalf("%s output %s: %v", op, data, err)
			}
		}
		return err
	}
	type todo struct {
		ID, Title, Priority, Created string
		Done                         bool
		Tags                         []string
	}
	var a todo
	if err := call("CreateTodo", `{"title": "write the demo", "tags": ["docs"], "clientToken": "tok-1"}`, &a); err != nil {
		t.Fatal(err)
	}
	if a.Priority != "NORMAL" || a.Created == "" || len(a.ID) != 36 {
		t.Errorf("created %+v", a)
	}
	var again todo
	call("CreateTodo", `{"title": "write the demo", "clientToken": "tok-1"}`, &again)
	if again.ID != a.ID {
		t.Errorf("same clientToken created a second item: %s != %s", again.ID, a.ID)
	}
	var got todo
	if err := call("GetTodo", fmt.Sprintf(`{"id": %q}`, a.ID), &got); err != nil || got.Title != "write the demo" {
		t.Errorf("GetTodo = %+v, %v", got, err)
	}
	var upd todo
	if err := call("UpdateTodo", fmt.Sprintf(`{"id": %q, "done": true, "priority": "HIGH"}`, a.ID), &upd); err != nil || !upd.Done || upd.Priority != "HIGH" {
		t.Errorf("UpdateTodo = %+v, %v", upd, err)
	}
	for i := range 3 {
		call("CreateTodo", fmt.Sprintf(`{"title": "item %d"}`, i), nil)
	}
	var page struct {
		Items     []todo
		NextToken string
	}
	if err := call("ListTodos", `{"limit": 2}`, &page); err != nil || len(page.Items) != 2 || page.NextToken == "" {
		t.Errorf("ListTodos page 1 = %+v, %v", page, err)
	}
	if err := call("ListTodos", `{"done": false}`, &page); err != nil || len(page.Items) != 3 {
		t.Errorf("ListTodos done=false = %+v, %v", page, err)
	}
	if err := call("DeleteTodo", fmt.Sprintf(`{"id": %q}`, a.ID), nil); err != nil {
		t.Errorf("DeleteTodo: %v", err)
	}
	err := call("GetTodo", fmt.Sprintf(`{"id": %q}`, a.ID), nil)
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Shape != "smithycurl.examples.todo#TodoNotFound" || ce.Status != 404 {
		t.Fatalf("GetTodo after delete: %v", err)
	}
	var members struct{ Message, ID string }
	if json.Unmarshal(ce.Members, &members) != nil || members.ID != a.ID || members.Message == "" {
		t.Errorf("TodoNotFound members = %s", ce.Members)
	}
	// The constraint traits are checked by the client only when asked; the
	// server checks them anyway.
	if err := call("CreateTodo", `{"title": ""}`, nil); !errors.As(err, &ce) || ce.Kind != client.KindService || ce.Status != 400 {
		t.Errorf("empty title: %v", err)
	}
	cv, err := client.New(m, "smithycurl.examples.todo#Todos", srv.URL, client.WithValidation())
	if err != nil {
		t.Fatal(err)
	}
	defer cv.Close()
	if _, err := cv.Call(ctx, "CreateTodo", []byte(`{"title": ""}`)); !errors.As(err, &ce) || ce.Kind != client.KindValidation {
		t.Errorf("empty title with validation: %v", err)
	}
	for i := 3; i < todoserver.MaxTodos; i++ {
		if err := call("CreateTodo", `{"title": "filler"}`, nil); err != nil {
			t.Fatal(err)
		}
	}
	err = call("CreateTodo", `{"title": "one too many"}`, nil)
	if !errors.As(err, &ce) || ce.Shape != "smithycurl.examples.todo#TooManyTodos" || ce.Status != 409 {
		t.Errorf("full list: %v", err)
	}
}

// TestCreateTodoDue: CreateTodo's due has no @timestampFormat, so it comes
// as simpleRestJson's default, epoch seconds (what the client sends, from
// either document form); TodoItem's due goes back as a date-time.
func TestCreateTodoDue(t *testing.T) {
	srv, _, c := newTodos(t)
	for in, want := range map[string]string{
		`"2024-05-01T12:00:00.5Z"`:    "2024-05-01T12:00:00.5Z",
		`1714564800.123456789`:        "2024-05-01T12:00:00.123456789Z",
		`"2024-05-01T14:00:00+02:00"`: "2024-05-01T12:00:00Z",
		`-1`:                          "1969-12-31T23:59:59Z",
	} {
		out, err := c.Call(context.Background(), "CreateTodo", []byte(`{"title": "t", "due": `+in+`}`))
		var item struct{ Due string }
		if err != nil || json.Unmarshal(out, &item) != nil || item.Due != want {
			t.Errorf("due %s: %s, %v; want due %s", in, out, err, want)
		}
	}
	// Other forms are not the protocol's.
	for _, body := range []string{`{"title": "t", "due": "2024-05-01T12:00:00Z"}`, `{"title": "t", "due": 1e20}`, `{"title": "t", "due": 1e-999999999}`} {
		resp, err := http.Post(srv.URL+"/todos", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: HTTP %d, want 400", body, resp.StatusCode)
		}
	}
}
