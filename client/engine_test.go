package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
	"github.com/smithycurl/smithycurl/transport"
)

// blockingPath is no engine option: the client's default, blocking path.
var blockingPath = client.WithEngineLimits(0, 0)

// viaBoth runs a client test on the blocking path and through the engine
// (WithEngine), which must behave the same.
func viaBoth(t *testing.T, test func(t *testing.T, path client.Option)) {
	t.Run("blocking", func(t *testing.T) { test(t, blockingPath) })
	t.Run("engine", func(t *testing.T) { test(t, client.WithEngine()) })
}

// osThreads is the number of OS threads of this process.
func osThreads(t testing.TB) int {
	t.Helper()
	n := procStatus("Threads:")
	if n < 0 {
		t.Skip("no Threads line in /proc/self/status")
	}
	return int(n)
}

// procStatus reads a number from /proc/self/status (kB for sizes); -1
// when it cannot. Safe from any goroutine.
func procStatus(field string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}

// todoClient starts the example Todos service on 127.0.0.1 (wrapped by
// wrap when not nil) and a client for it.
func todoClient(t *testing.T, wrap func(http.Handler) http.Handler, opts ...client.Option) *client.Client {
	t.Helper()
	h := todoserver.New().Handler()
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "examples", "todo"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.todo#Todos", srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

type todo struct{ ID, Title string }

// createTodos adds n items and returns them.
func createTodos(t *testing.T, c *client.Client, n int, opts ...client.CallOption) []todo {
	t.Helper()
	items := make([]todo, n)
	for i := range items {
		out, err := c.Call(context.Background(), "CreateTodo", fmt.Appendf(nil, `{"title": "todo %d"}`, i), opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &items[i]); err != nil || items[i].Title != fmt.Sprintf("todo %d", i) {
			t.Fatalf("CreateTodo: %s (%v)", out, err)
		}
	}
	return items
}

// TestEngineManyCallsFewThreads makes 10,000 calls at once from as many
// goroutines through one client WithEngine and checks every output; the
// process keeps fewer than 50 OS threads throughout (the blocking path
// holds one per call in flight).
func TestEngineManyCallsFewThreads(t *testing.T) {
	const n = 10000
	if raceEnabled {
		t.Skip("10,000 goroutines: over the race detector's limit")
	}
	noLeaks(t)
	c := todoClient(t, nil, client.WithEngine())
	items := createTodos(t, c, 100)

	osThreads(t) // skips where /proc/self/status is missing
	stop := make(chan struct{})
	peak := make(chan int)
	go func() {
		most := 0
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			most = max(most, int(procStatus("Threads:")))
			select {
			case <-stop:
				peak <- most
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	var fails atomic.Int64
	var running, mostRunning atomic.Int64
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := running.Add(1)
			for m := mostRunning.Load(); r > m && !mostRunning.CompareAndSwap(m, r); m = mostRunning.Load() {
			}
			defer running.Add(-1)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			it := items[i%len(items)]
			out, err := c.Call(ctx, "GetTodo", fmt.Appendf(nil, `{"id": %q}`, it.ID))
			var got todo
			if err == nil {
				err = json.Unmarshal(out, &got)
			}
			if err != nil || got != it {
				if fails.Add(1) < 5 {
					t.Errorf("call %d: %+v, %v; want %+v", i, got, err, it)
				}
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	close(stop)
	threads := <-peak
	t.Logf("%d calls in %v (%.0f calls/s), at most %d goroutines calling at once, at most %d OS threads",
		n, took, n/took.Seconds(), mostRunning.Load(), threads)
	if f := fails.Load(); f > 0 {
		t.Fatalf("%d of %d calls failed", f, n)
	}
	if mostRunning.Load() < 1000 {
		t.Errorf("only %d calls were in flight at once: the test does not test what it should", mostRunning.Load())
	}
	if threads >= 50 {
		t.Errorf("%d OS threads for %d calls in flight, want < 50", threads, n)
	}
}

// concurrency counts the requests a handler serves at once, each held
// for hold.
type concurrency struct {
	hold      time.Duration
	now, most atomic.Int64
}

func (cc *concurrency) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := cc.now.Add(1)
		for m := cc.most.Load(); n > m && !cc.most.CompareAndSwap(m, n); m = cc.most.Load() {
		}
		time.Sleep(cc.hold)
		cc.now.Add(-1)
		h.ServeHTTP(w, r)
	})
}

// TestEngineViaEngineAndLimits: ViaEngine sends one call through the
// engine, whose WithEngineLimits bound the calls in flight; calls without
// it keep the blocking path.
func TestEngineViaEngineAndLimits(t *testing.T) {
	cc := &concurrency{hold: 20 * time.Millisecond}
	c := todoClient(t, cc.wrap, client.WithEngineLimits(2, 0))
	items := createTodos(t, c, 10)
	burst := func(opts ...client.CallOption) int64 {
		cc.most.Store(0)
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				it := items[i%len(items)]
				out, err := c.Call(context.Background(), "GetTodo", fmt.Appendf(nil, `{"id": %q}`, it.ID), opts...)
				var got todo
				if err == nil {
					err = json.Unmarshal(out, &got)
				}
				if err != nil || got != it {
					t.Errorf("GetTodo %s: %+v, %v", it.ID, got, err)
				}
			}()
		}
		wg.Wait()
		return cc.most.Load()
	}
	if most := burst(client.ViaEngine()); most > 2 || most < 1 {
		t.Errorf("ViaEngine with at most 2 transfers: %d requests at once", most)
	}
	if most := burst(); most <= 2 {
		t.Errorf("blocking path: only %d requests at once", most)
	}
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "examples", "todo"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.New(m, "smithycurl.examples.todo#Todos", "http://127.0.0.1:1", client.WithEngineLimits(-1, 0)); err == nil {
		t.Error("a negative limit was accepted")
	}
}

// TestEngineClientClose closes a client WithEngine with calls in flight
// and waiting for a transfer slot: each fails once, KindCancelled with
// transport.ErrClosed, and no handle or goroutine is left.
func TestEngineClientClose(t *testing.T) {
	noLeaks(t)
	release := make(chan struct{})
	started, hang := hangGets(release)
	c := todoClient(t, hang, client.WithEngine(), client.WithEngineLimits(5, 0))
	defer close(release)
	items := createTodos(t, c, 1)
	const n = 30
	errs := make(chan error, n)
	for range n {
		go func() {
			_, err := c.Call(context.Background(), "GetTodo", fmt.Appendf(nil, `{"id": %q}`, items[0].ID))
			errs <- err
		}()
	}
	for end := time.Now().Add(10 * time.Second); started.Load() < 5 && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		select {
		case err := <-errs:
			e := asError(t, err, client.KindCancelled)
			// Queued or not yet queued when Close came: never retried.
			if !errors.Is(err, transport.ErrClosed) || e.Attempts > 1 {
				t.Errorf("call: %v (attempts %d)", err, e.Attempts)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%d calls still running after Close", n-i)
		}
	}
	if _, err := c.Call(context.Background(), "GetTodo", []byte(`{"id": "x"}`)); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("a call after Close: %v", err)
	}
	if _, err := c.Call(context.Background(), "GetTodo", []byte(`{"id": "x"}`), client.ViaEngine()); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("a ViaEngine call after Close: %v", err)
	}
}

// TestEnginePaginateAndWait: paginators and waiters make their calls
// through the engine of a client WithEngine.
func TestEnginePaginateAndWait(t *testing.T) {
	cc := &concurrency{}
	var gets atomic.Int64
	count := func(h http.Handler) http.Handler {
		return cc.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "GET" {
				gets.Add(1)
			}
			h.ServeHTTP(w, r)
		}))
	}
	c := todoClient(t, count, client.WithEngine())
	createTodos(t, c, 5)
	var titles []string
	for item, err := range c.PaginateItems(context.Background(), "ListTodos", []byte(`{"limit": 2}`)) {
		if err != nil {
			t.Fatal(err)
		}
		var v todo
		if err := json.Unmarshal(item, &v); err != nil {
			t.Fatal(err)
		}
		titles = append(titles, v.Title)
	}
	if strings.Join(titles, ",") != "todo 0,todo 1,todo 2,todo 3,todo 4" || gets.Load() != 3 {
		t.Errorf("titles %v in %d pages", titles, gets.Load())
	}

	s := &scripted{replies: []string{notFound, `200 {"status": "pending"}`, `200 {"status": "ready", "name": "a"}`}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	wc, err := client.New(loadIDL(t, waitModel), "t#Things", srv.URL, client.WithoutRetries(), client.WithEngine())
	if err != nil {
		t.Fatal(err)
	}
	defer wc.Close()
	out, err := wc.Wait(context.Background(), "ThingReady", []byte(`{"name": "a"}`), 10*time.Second, fast)
	if err != nil || !strings.Contains(string(out), `"ready"`) || s.count() != 3 {
		t.Errorf("Wait: %s, %v after %d attempts", out, err, s.count())
	}
}

// hangGets wraps a test server's handler so that each GET waits for
// release (or its request's end); started counts the GETs that arrived.
func hangGets(release <-chan struct{}) (started *atomic.Int64, wrap func(http.Handler) http.Handler) {
	started = new(atomic.Int64)
	return started, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "GET" {
				started.Add(1)
				select {
				case <-release:
				case <-r.Context().Done():
				}
			}
			h.ServeHTTP(w, r)
		})
	}
}
