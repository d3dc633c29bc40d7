package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
)

// pagesServer serves testdata/pages.smithy (awsJson1_0) on 127.0.0.1: ten
// things t0..t9, a page of Limit (default 3) from the index in Marker. It
// records each request's input.
type pagesServer struct {
	mu   sync.Mutex
	reqs []map[string]any
}

func (s *pagesServer) requests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.reqs...)
}

func (s *pagesServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var in map[string]any
	_ = json.Unmarshal(body, &in)
	s.mu.Lock()
	s.reqs = append(s.reqs, in)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	limit, start := 3, 0
	if v, ok := in["Limit"].(float64); ok {
		limit = int(v)
	}
	marker, _ := in["Marker"].(string)
	if marker != "" {
		n, err := strconv.Atoi(marker)
		if err != nil && marker != "same" {
			w.WriteHeader(400)
			fmt.Fprintf(w, `{"__type": "BadMarker", "message": "marker %q"}`, marker)
			return
		}
		start = n
	}
	end := min(start+limit, 10)
	var things []string
	for i := start; i < end; i++ {
		things = append(things, fmt.Sprintf("t%d", i))
	}
	next := ""
	if end < 10 {
		next = strconv.Itoa(end)
	}
	out := map[string]any{}
	switch op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "Pages."); op {
	case "ListThings":
		switch in["Mode"] {
		case "repeat":
			next = "same"
		case "empty":
			out["NextMarker"] = ""
		case "fail":
			if marker != "" {
				w.WriteHeader(500)
				io.WriteString(w, `{"__type": "InternalFailure", "message": "page two is broken"}`)
				return
			}
		}
		out["Things"] = things
		if next != "" && in["Mode"] != "empty" {
			out["NextMarker"] = next
		}
	case "ListWrapped":
		res := map[string]any{"Items": things}
		if next != "" {
			res["Token"] = next
		}
		out["Result"] = res
	case "ListCounts":
		counts := map[string]any{}
		for i, t := range things {
			counts[t] = start + i
		}
		out["Counts"] = counts
		if next != "" {
			out["NextMarker"] = next
		}
	default:
		w.WriteHeader(400)
		fmt.Fprintf(w, `{"__type": "UnknownOperation", "message": %q}`, op)
		return
	}
	json.NewEncoder(w).Encode(out)
}

func newPages(t *testing.T) (*client.Client, *pagesServer) {
	t.Helper()
	m, err := model.LoadPaths(context.Background(), filepath.Join("testdata", "pages.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	s := &pagesServer{}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := client.New(m, "smithycurl.test.pages#Pages", srv.URL, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, s
}

// pages collects what Paginate yields: the pages' JSON, and the error (at
// most 50 pages: a paginator that does not stop fails the test).
func pages(seq func(func([]byte, error) bool)) ([]string, error) {
	var out []string
	for page, err := range seq {
		if err != nil {
			return out, err
		}
		if out = append(out, string(page)); len(out) > 50 {
			return out, errors.New("more than 50 pages")
		}
	}
	return out, nil
}

func TestPaginatePages(t *testing.T) {
	c, srv := newPages(t)
	ctx := context.Background()
	got, err := pages(c.Paginate(ctx, "ListThings", nil, client.WithPageSize(4)))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"NextMarker":"4","Things":["t0","t1","t2","t3"]}`,
		`{"NextMarker":"8","Things":["t4","t5","t6","t7"]}`,
		`{"Things":["t8","t9"]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pages:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	reqs := srv.requests()
	if len(reqs) != 3 || reqs[0]["Marker"] != nil || reqs[1]["Marker"] != "4" || reqs[2]["Marker"] != "8" {
		t.Errorf("requests: %v", reqs)
	}
	for _, r := range reqs {
		if r["Limit"] != float64(4) {
			t.Errorf("request without the page size: %v", r)
		}
	}
}

func TestPaginateItems(t *testing.T) {
	c, _ := newPages(t)
	ctx := context.Background()
	items, err := pages(c.PaginateItems(ctx, "ListThings", []byte(`{"Marker": "2"}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(items, ","); got != `"t2","t3","t4","t5","t6","t7","t8","t9"` {
		t.Errorf("items: %s", got)
	}
	// A map's entries are one-member objects, in the page's order.
	items, err = pages(c.PaginateItems(ctx, "ListCounts", []byte(`{"Limit": 4}`)))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 10 || items[0] != `{"t0":0}` || items[9] != `{"t9":9}` {
		t.Errorf("map items: %v", items)
	}
}

func TestPaginateMaxItems(t *testing.T) {
	c, srv := newPages(t)
	ctx := context.Background()
	got, err := pages(c.Paginate(ctx, "ListThings", nil, client.WithMaxItems(5)))
	if err != nil {
		t.Fatal(err)
	}
	// The page that reaches 5 is cut, and no third page is asked for.
	if len(got) != 2 || got[1] != `{"NextMarker":"6","Things":["t3","t4"]}` || len(srv.requests()) != 2 {
		t.Errorf("pages %v, %d requests", got, len(srv.requests()))
	}
	items, err := pages(c.PaginateItems(ctx, "ListCounts", nil, client.WithMaxItems(4)))
	if err != nil || strings.Join(items, ",") != `{"t0":0},{"t1":1},{"t2":2},{"t3":3}` {
		t.Errorf("map items %v, %v", items, err)
	}
	got, err = pages(c.Paginate(ctx, "ListCounts", nil, client.WithMaxItems(4)))
	if err != nil || len(got) != 2 || got[1] != `{"Counts":{"t3":3},"NextMarker":"6"}` {
		t.Errorf("map pages %v, %v", got, err)
	}
	// Exactly at a page's end: no page more.
	got, _ = pages(c.Paginate(ctx, "ListThings", nil, client.WithMaxItems(3)))
	if len(got) != 1 {
		t.Errorf("max items 3: %v", got)
	}
	if _, err := pages(c.Paginate(ctx, "ListThings", nil, client.WithMaxItems(-1))); !isKind(err, client.KindUsage) {
		t.Errorf("max items -1: %v", err)
	}
}

func isKind(err error, k client.Kind) bool {
	var e *client.Error
	return errors.As(err, &e) && e.Kind == k
}

func TestPaginateRepeatedToken(t *testing.T) {
	c, srv := newPages(t)
	ctx := context.Background()
	got, err := pages(c.Paginate(ctx, "ListThings", []byte(`{"Mode": "repeat"}`)))
	// Page 1 gives "same", page 2 (sent "same") gives "same" again.
	if len(got) != 2 || !errors.Is(err, client.ErrRepeatedToken) || !isKind(err, client.KindDecode) {
		t.Fatalf("pages %v, err %v", got, err)
	}
	if !strings.Contains(err.Error(), `NextMarker "same", page 2`) || len(srv.requests()) != 2 {
		t.Errorf("error %q after %d requests", err, len(srv.requests()))
	}
	got, err = pages(c.Paginate(ctx, "ListThings", []byte(`{"Mode": "repeat"}`), client.WithStopOnRepeatedToken()))
	if len(got) != 2 || err != nil {
		t.Errorf("stop on repeated token: pages %v, err %v", got, err)
	}
	// The token of the first request counts: the caller's own.
	got, err = pages(c.Paginate(ctx, "ListThings", []byte(`{"Mode": "repeat", "Marker": "same"}`)))
	if len(got) != 1 || !errors.Is(err, client.ErrRepeatedToken) {
		t.Errorf("caller's token repeated: pages %v, err %v", got, err)
	}
}

func TestPaginateEmptyToken(t *testing.T) {
	c, srv := newPages(t)
	got, err := pages(c.Paginate(context.Background(), "ListThings", []byte(`{"Mode": "empty"}`)))
	if err != nil || len(got) != 1 || got[0] != `{"NextMarker":"","Things":["t0","t1","t2"]}` || len(srv.requests()) != 1 {
		t.Errorf("pages %v, err %v, %d requests", got, err, len(srv.requests()))
	}
}

func TestPaginateDottedPaths(t *testing.T) {
	c, srv := newPages(t)
	items, err := pages(c.PaginateItems(context.Background(), "ListWrapped", nil, client.WithPageSize(6)))
	if err != nil || len(items) != 10 || items[9] != `"t9"` {
		t.Errorf("items %v, err %v", items, err)
	}
	if reqs := srv.requests(); len(reqs) != 2 || reqs[1]["Marker"] != "6" || reqs[1]["Limit"] != float64(6) {
		t.Errorf("requests: %v", reqs)
	}
}

func TestPaginateErrors(t *testing.T) {
	c, srv := newPages(t)
	ctx := context.Background()
	_, err := pages(c.Paginate(ctx, "GetThing", nil))
	if !isKind(err, client.KindUsage) || !strings.Contains(err.Error(), "operation GetThing is not paginated") {
		t.Errorf("not paginated: %v", err)
	}
	_, err = pages(c.Paginate(ctx, "ListThingz", nil))
	if !isKind(err, client.KindUsage) || !strings.Contains(err.Error(), "ListThings") {
		t.Errorf("unknown operation: %v", err)
	}
	// Input errors come before anything is sent.
	for _, in := range []string{`{"Limit": "x"}`, `[1]`, `{"Limit": 1`} {
		if _, err := pages(c.Paginate(ctx, "ListThings", []byte(in))); !isKind(err, client.KindUsage) {
			t.Errorf("input %s: %v", in, err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent for bad inputs", n)
	}
	// A service error on page 2 ends the pages after page 1.
	got, err := pages(c.Paginate(ctx, "ListThings", []byte(`{"Mode": "fail"}`)))
	var e *client.Error
	if len(got) != 1 || !errors.As(err, &e) || e.Kind != client.KindService || e.Status != 500 {
		t.Errorf("pages %v, err %v", got, err)
	}
	// Breaking out of the loop sends nothing more.
	before := len(srv.requests())
	for range c.Paginate(ctx, "ListThings", nil) {
		break
	}
	if n := len(srv.requests()) - before; n != 1 {
		t.Errorf("%d requests for one page", n)
	}
	// A cancelled context is the iterator's error.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := pages(c.Paginate(cctx, "ListThings", nil)); !isKind(err, client.KindCancelled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestPaginateTodos pages through the example Todos service (restJson1,
// the token and page size in the query string).
func TestPaginateTodos(t *testing.T) {
	srv := httptest.NewServer(todoserver.New().Handler())
	t.Cleanup(srv.Close)
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "examples", "todo"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.todo#Todos", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	for i := range 5 {
		if _, err := c.Call(ctx, "CreateTodo", fmt.Appendf(nil, `{"title": "todo %d"}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := pages(c.Paginate(ctx, "ListTodos", nil, client.WithPageSize(2)))
	if err != nil || len(got) != 3 {
		t.Fatalf("pages %v, err %v", got, err)
	}
	var titles []string
	for item, err := range c.PaginateItems(ctx, "ListTodos", []byte(`{"limit": 2}`)) {
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Title string }
		if err := json.Unmarshal(item, &v); err != nil {
			t.Fatal(err)
		}
		titles = append(titles, v.Title)
	}
	if strings.Join(titles, ",") != "todo 0,todo 1,todo 2,todo 3,todo 4" {
		t.Errorf("titles: %v", titles)
	}
}

// BenchmarkPaginate compares a page of Paginate (10 pages of 1 item) with a
// plain Call of the same request, against the in-test server.
func BenchmarkPaginate(b *testing.B) {
	m, err := model.LoadPaths(context.Background(), filepath.Join("testdata", "pages.smithy"))
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(&pagesServer{})
	defer srv.Close()
	c, err := client.New(m, "smithycurl.test.pages#Pages", srv.URL, client.WithoutRetries())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	b.Run("call", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := c.Call(ctx, "ListThings", fmt.Appendf(nil, `{"Limit": 1, "Marker": "%d"}`, i%10)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("page", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, err := range c.Paginate(ctx, "ListThings", nil, client.WithPageSize(1)) {
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/page")
	})
}
