package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/serve"
)

// The services of testdata/shop.smithy, one per protocol.
const (
	shopJSON   = "smithycurl.serve.shop#ShopJson"
	shopJSON11 = "smithycurl.serve.shop#ShopJson11"
	shopRest   = "smithycurl.serve.shop#ShopRest"
	shopXML    = "smithycurl.serve.shop#ShopXml"
	shopQuery  = "smithycurl.serve.shop#ShopQuery"
	shopEC2    = "smithycurl.serve.shop#ShopEc2"
	shopCBOR   = "smithycurl.serve.shop#ShopCbor"
)

var shopServices = []model.ShapeID{shopJSON, shopJSON11, shopRest, shopXML, shopQuery, shopEC2, shopCBOR}

func loadShop(t *testing.T) *model.Model {
	t.Helper()
	m, err := loadShopModel()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func loadShopModel() (*model.Model, error) {
	return model.LoadPaths(context.Background(), filepath.Join("testdata", "shop.smithy"))
}

// logBuffer collects a server's log lines (written from its goroutines).
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// mock starts the mock server of service id on 127.0.0.1 and returns a
// client of it (that does not validate its input: the server does) and
// the server's log.
func mock(t *testing.T, m *model.Model, id model.ShapeID, opts ...serve.Option) (*client.Client, string, *logBuffer) {
	t.Helper()
	svc, err := m.Service(id)
	if err != nil {
		t.Fatal(err)
	}
	logs := &logBuffer{}
	opts = append([]serve.Option{serve.WithLogger(slog.New(slog.NewTextHandler(logs, nil)))}, opts...)
	h, err := serve.New(m, svc, opts...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := client.New(m, id, srv.URL, client.WithoutValidation(), client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	return c, srv.URL, logs
}

func call(t *testing.T, c *client.Client, op, input string) map[string]any {
	t.Helper()
	out, err := c.Call(context.Background(), op, []byte(input))
	if err != nil {
		t.Fatalf("%s %s: %v", op, input, err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s: %v: %s", op, err, out)
	}
	return v
}

// serviceError calls op and returns the service's error.
func serviceError(t *testing.T, c *client.Client, op, input string) *client.Error {
	t.Helper()
	out, err := c.Call(context.Background(), op, []byte(input))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != client.KindService {
		t.Fatalf("%s %s: want a service error, got %s, %v", op, input, out, err)
	}
	return ce
}

// TestEveryOperation: every operation of every protocol's service answers
// a valid input with an output the client decodes and the model accepts,
// event streams and streaming blobs included.
func TestEveryOperation(t *testing.T) {
	m := loadShop(t)
	inputs := map[string]string{
		"GetItem":  `{"id": "abc"}`,
		"PutItem":  `{"name": "pen", "count": 3, "tags": ["blue"], "secret": "s"}`,
		"Watch":    `{"topic": "news"}`,
		"Download": `{"id": "abc"}`,
	}
	for _, id := range shopServices {
		t.Run(id.Name(), func(t *testing.T) {
			c, _, logs := mock(t, m, id)
			svc, _ := m.Service(id)
			for _, op := range svc.Operations {
				if op.Name == "Watch" {
					st, err := c.CallStream(context.Background(), op.Name, []byte(inputs[op.Name]))
					if err != nil {
						t.Fatalf("Watch: %v", err)
					}
					n := 0
					for ev, err := range st.Events() {
						if err != nil {
							t.Fatalf("Watch event %d: %v", n, err)
						}
						if err := protocol.CheckMembers(m, op.Output.ID, []byte(`{"changes":`+string(ev)+`}`)); err != nil {
							t.Errorf("Watch event %s: %v", ev, err)
						}
						n++
					}
					if n == 0 {
						t.Errorf("Watch: no events")
					}
					continue
				}
				out, err := c.Call(context.Background(), op.Name, []byte(inputs[op.Name]))
				if err != nil {
					t.Fatalf("%s: %v\n%s", op.Name, err, logs)
				}
				if err := protocol.CheckValue(m, op.Output.ID, out); err != nil {
					t.Errorf("%s: %s: %v", op.Name, out, err)
				}
			}
			if got := strings.Count(logs.String(), "msg=request"); got != len(svc.Operations) {
				t.Errorf("%d log lines for %d requests:\n%s", got, len(svc.Operations), logs)
			}
		})
	}
}

// TestRandomReproducible: random outputs are valid, the same for the same
// seed and request, and another seed gives others.
func TestRandomReproducible(t *testing.T) {
	m := loadShop(t)
	outputs := func(seed int64) string {
		c, _, _ := mock(t, m, shopJSON, serve.WithSeed(seed))
		var b strings.Builder
		for _, id := range []string{"a", "b", "c", "d"} {
			out, err := c.Call(context.Background(), "GetItem", []byte(`{"id": "`+id+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			if err := protocol.CheckValue(m, "smithycurl.serve.shop#Item", out); err != nil {
				t.Errorf("%s: %v", out, err)
			}
			b.Write(out)
			b.WriteByte('\n')
		}
		return b.String()
	}
	one, again, other := outputs(1), outputs(1), outputs(2)
	if one != again {
		t.Errorf("seed 1 twice:\n%s\n%s", one, again)
	}
	if one == other {
		t.Errorf("seeds 1 and 2 gave the same outputs:\n%s", one)
	}
}

// TestExamples: a request whose input an @examples entry has gets its
// output or its error.
func TestExamples(t *testing.T) {
	m := loadShop(t)
	for _, id := range shopServices {
		c, _, logs := mock(t, m, id)
		out := call(t, c, "GetItem", `{"id": "ex1"}`)
		if out["name"] != "Example item" || out["price"] != 9.5 {
			t.Errorf("%s: GetItem ex1 = %v", id.Name(), out)
		}
		ce := serviceError(t, c, "GetItem", `{"id": "gone"}`)
		if ce.Shape != "smithycurl.serve.shop#NotFound" || !strings.Contains(string(ce.Members), "gone for good") {
			t.Errorf("%s: GetItem gone: %v %s", id.Name(), ce, ce.Members)
		}
		if !strings.Contains(logs.String(), "answer=example") {
			t.Errorf("%s: the log does not say the example answered:\n%s", id.Name(), logs)
		}
	}
}

const shopFixtures = `{
  "GetItem": [
    {"match": {"id": "pen"}, "output": {"id": "pen", "name": "A pen", "tags": ["blue", "ink"], "created": 1700000000}},
    {"match": {"id": "ex1"}, "output": {"id": "ex1", "name": "The fixture wins"}},
    {"match": {"id": "locked"}, "error": "NotFound", "members": {"message": "locked away"}, "status": 410, "headers": {"X-Why": "locked"}}
  ],
  "PutItem": [
    {"match": {"tags": ["a", "b"]}, "output": {"id": "tagged", "created": "2024-05-01T12:00:00Z"}},
    {"output": {"id": "any", "created": 0}}
  ],
  "Download": [{"output": {"contentType": "text/plain", "data": "aGVsbG8gd29ybGQ="}}],
  "Watch": [
    {"match": {"topic": "two"}, "output": {"topic": "two"}, "events": [{"change": {"id": "a", "count": 1}}, {"change": {"id": "b"}}]},
    {"match": {"topic": "fault"}, "events": [{"change": {"id": "a"}}, {"fault": {"message": "broken"}}]}
  ]
}`

// TestFixtures: the first entry whose match the input meets answers, ahead
// of the examples; outputs, modeled errors with status and headers, and
// events.
func TestFixtures(t *testing.T) {
	m := loadShop(t)
	for _, id := range shopServices {
		t.Run(id.Name(), func(t *testing.T) {
			c, url, logs := mock(t, m, id, serve.WithFixtures(fixturesFor(t, m, id, shopFixtures)))
			if out := call(t, c, "GetItem", `{"id": "pen"}`); out["name"] != "A pen" || out["created"] != "2023-11-14T22:13:20Z" {
				t.Errorf("GetItem pen = %v", out)
			}
			if out := call(t, c, "GetItem", `{"id": "ex1"}`); out["name"] != "The fixture wins" {
				t.Errorf("GetItem ex1 = %v", out)
			}
			ce := serviceError(t, c, "GetItem", `{"id": "locked"}`)
			if ce.Shape != "smithycurl.serve.shop#NotFound" || ce.Status != 410 || !strings.Contains(string(ce.Members), "locked away") {
				t.Errorf("GetItem locked: %v status %d %s", ce, ce.Status, ce.Members)
			}
			if out := call(t, c, "PutItem", `{"name": "x", "tags": ["a", "b"]}`); out["id"] != "tagged" {
				t.Errorf("PutItem tagged = %v", out)
			}
			if out := call(t, c, "PutItem", `{"name": "x", "tags": ["b", "a"]}`); out["id"] != "any" {
				t.Errorf("PutItem other tags = %v", out)
			}
			if out := call(t, c, "GetItem", `{"id": "other"}`); out["id"] == nil {
				t.Errorf("GetItem other (random) = %v", out)
			}
			svc, _ := m.Service(id)
			if _, err := svc.Operation("Watch"); err != nil {
				return // no event streams in the query protocols
			}
			st, err := c.CallStream(context.Background(), "Watch", []byte(`{"topic": "two"}`))
			if err != nil {
				t.Fatal(err)
			}
			var events []string
			for ev, err := range st.Events() {
				if err != nil {
					t.Fatal(err)
				}
				events = append(events, string(ev))
			}
			if strings.Join(events, " ") != `{"change":{"id":"a","count":1}} {"change":{"id":"b"}}` || !strings.Contains(string(st.Initial()), `"two"`) {
				t.Errorf("Watch two: initial %s, events %v", st.Initial(), events)
			}
			st, err = c.CallStream(context.Background(), "Watch", []byte(`{"topic": "fault"}`))
			if err != nil {
				t.Fatal(err)
			}
			events = nil
			var streamErr error
			for ev, err := range st.Events() {
				if err != nil {
					streamErr = err
					break
				}
				events = append(events, string(ev))
			}
			var fe *client.Error
			if len(events) != 1 || !errors.As(streamErr, &fe) || fe.Shape != "smithycurl.serve.shop#Fault" {
				t.Errorf("Watch fault: events %v, then %v", events, streamErr)
			}
			if !strings.Contains(logs.String(), "answer=fixture") {
				t.Errorf("the log does not say a fixture answered:\n%s", logs)
			}
			if id == shopRest || id == shopXML {
				resp, err := http.Get(url + "/items/locked")
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.Header.Get("X-Why") != "locked" {
					t.Errorf("headers of GetItem locked: %v", resp.Header)
				}
				// A streaming blob payload is the body as it is.
				resp, err = http.Get(url + "/download/abc")
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if string(body) != "hello world" || resp.Header.Get("Content-Type") != "text/plain" {
					t.Errorf("Download: %q %v", body, resp.Header)
				}
			}
		})
	}
}

// fixturesFor keeps the fixtures of the operations service id has.
func fixturesFor(t *testing.T, m *model.Model, id model.ShapeID, fixtures string) []byte {
	var all map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fixtures), &all); err != nil {
		t.Fatal(err)
	}
	svc, _ := m.Service(id)
	for name := range all {
		if _, err := svc.Operation(name); err != nil {
			delete(all, name)
		}
	}
	b, _ := json.Marshal(all)
	return b
}

// TestFixturesChecked: a fixture that does not fit the model is refused
// when loaded, naming the file, the operation, the entry and the member.
func TestFixturesChecked(t *testing.T) {
	m := loadShop(t)
	svc, _ := m.Service(shopJSON)
	path := filepath.Join(t.TempDir(), "bad.json")
	for _, c := range []struct{ fixtures, want string }{
		{`{"GetItem": [{"output": {"id": "a", "name": 7}}]}`, "operation GetItem, entry 1: output: member name: "},
		{`{"GetItem": [{"match": {"id": "a"}, "output": {"id": "a"}}]}`, "operation GetItem, entry 1: output: member name: is required"},
		{`{"GetItem": [{"match": {"id": "a"}}]}`, "operation GetItem, entry 1: output: member id: is required"},
		{`{"GetItem": [{"match": {"nope": 1}, "output": {"id": "a", "name": "n"}}]}`, `operation GetItem, entry 1: match: `},
		{`{"GetItem": [{"error": "Nope"}]}`, `"Nope" is not an error of operation GetItem`},
		{`{"GetItem": [{"outptu": {}}]}`, `unknown field "outptu"`},
		{`{"GetItems": []}`, `GetItems`},
		{`{"PutItem": [{"output": {"id": "a", "created": 0}, "events": [{"change": {}}]}]}`, "no event stream"},
		{`{"Watch": [{"events": [{"change": {"count": 1}}]}]}`, "operation Watch, entry 1: event 1: member changes.change.id: is required"},
		{`[]`, "not an object"},
	} {
		if err := os.WriteFile(path, []byte(c.fixtures), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := serve.New(m, svc, serve.WithFixturesFile(path))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want the file and %q", c.fixtures, err, c.want)
		}
	}
}

// TestConcurrent: one server answers many clients at once, from fixtures,
// examples and at random, each answer the one its request gets alone (run
// under -race in make test).
func TestConcurrent(t *testing.T) {
	m := loadShop(t)
	for _, id := range []model.ShapeID{shopJSON, shopRest} {
		c, _, _ := mock(t, m, id, serve.WithFixtures(fixturesFor(t, m, id, shopFixtures)))
		inputs := []string{`{"id": "pen"}`, `{"id": "ex1"}`, `{"id": "r1"}`, `{"id": "r2"}`}
		want := make([]string, len(inputs))
		for i, in := range inputs {
			out, err := c.Call(context.Background(), "GetItem", []byte(in))
			if err != nil {
				t.Fatal(err)
			}
			want[i] = string(out)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 8*40)
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 40; i++ {
					k := (w + i) % len(inputs)
					out, err := c.Call(context.Background(), "GetItem", []byte(inputs[k]))
					if err != nil || string(out) != want[k] {
						errs <- fmt.Sprintf("%s: %s, %v; want %s", inputs[k], out, err, want[k])
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("%s: %s", id.Name(), e)
		}
	}
}
