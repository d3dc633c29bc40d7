package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

// newE returns an engine closed at the end of the test.
func newE(t testing.TB, cfg Config, ecfg EngineConfig) *Engine {
	t.Helper()
	e, err := NewEngine(cfg, ecfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// waitFor polls cond every 5 ms for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// echoCalls sends n echo calls through tr from n goroutines at once and
// checks every answer.
func echoCalls(t *testing.T, tr Transport, url string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	var fails atomic.Int64
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := strconv.Itoa(i)
			body := fmt.Appendf(nil, `{"i":%d}`, i)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			r, err := tr.Do(ctx, &Request{Method: "POST", URL: url, Header: wire.Header{"X-Id": {id}}, Body: body})
			if err != nil || r.Status != 200 || !bytes.Equal(r.Body, body) || r.Header.Get("X-Id") != id {
				if fails.Add(1) < 5 {
					t.Errorf("call %d: err %v resp %+v", i, err, r)
				}
			}
		}()
	}
	wg.Wait()
	if f := fails.Load(); f > 0 {
		t.Fatalf("%d of %d calls failed", f, n)
	}
}

// TestEngineCancelMany cancels 1,000 calls in flight at once: each fails
// once, KindCancelled with context.Canceled, promptly, and the engine
// (with the same handles) then answers correctly.
func TestEngineCancelMany(t *testing.T) {
	const n = 1000
	srv, started := hangServer(t)
	echo, _ := countingServer(t, echoHandler())
	e := newE(t, Config{}, EngineConfig{MaxTransfers: n})

	type result struct {
		i   int
		err error
		at  time.Time
	}
	results := make(chan result, 2*n)
	cancels := make([]context.CancelFunc, n)
	var wg sync.WaitGroup
	for i := range n {
		ctx, cancel := context.WithCancel(context.Background())
		cancels[i] = cancel
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.Do(ctx, &Request{Method: "POST", URL: srv.URL, Body: []byte("x")})
			results <- result{i, err, time.Now()}
		}()
	}
	if !waitFor(30*time.Second, func() bool { return started.Load() == n }) {
		t.Fatalf("only %d of %d requests reached the server", started.Load(), n)
	}
	if s := e.Stats(); s.InFlight != n || s.Queued != 0 {
		t.Errorf("stats before cancel %+v", s)
	}
	// The blocking path would hold a thread per call; the engine enters C
	// from at most 4 × GOMAXPROCS goroutines at once, so a burst of 1,000
	// submissions parks the rest instead of pinning an OS thread each.
	if most, bound := e.mostInC.Load(), int32(cap(e.cgo)); most < 1 || most > bound || bound != int32(4*runtime.GOMAXPROCS(0)) {
		t.Errorf("%d goroutines in C at most with %d calls in flight, want 1 to %d (4 x GOMAXPROCS)", most, n, bound)
	}
	cancelAt := time.Now()
	for _, cancel := range cancels {
		cancel()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("calls still running 10 s after the cancel (%d returned)", len(results))
	}
	close(results)
	seen := make([]bool, n)
	var slowest time.Duration
	for r := range results {
		if seen[r.i] {
			t.Fatalf("call %d returned twice", r.i)
		}
		seen[r.i] = true
		if e := asErr(t, r.err); e.Kind != KindCancelled || !errors.Is(r.err, context.Canceled) || !e.MayHaveReached {
			t.Errorf("call %d: %v (kind %v)", r.i, r.err, e.Kind)
		}
		slowest = max(slowest, r.at.Sub(cancelAt))
	}
	t.Logf("%d calls cancelled, the last returned %v after the cancel", n, slowest)
	if slowest > 3*time.Second {
		t.Errorf("the last cancelled call returned %v after the cancel", slowest)
	}
	if s := e.Stats(); s.InFlight != 0 || s.Queued != 0 || s.Handles.Busy != 0 {
		t.Errorf("stats after cancel %+v", s)
	}
	// Still usable, on the handles of the cancelled calls: no stray
	// completion of theirs reaches a new call.
	echoCalls(t, e, echo.URL, n)
}

// TestEngineClose closes an engine with calls in flight and calls waiting
// for a slot: each fails once, KindCancelled with ErrClosed; Close is
// idempotent and safe concurrently; every handle and goroutine is gone.
func TestEngineClose(t *testing.T) {
	const slots, n = 20, 100
	srv, started := hangServer(t)
	runtime.GC()
	baseG := runtime.NumGoroutine()
	baseH := LiveHandles()

	e, err := NewEngine(Config{}, EngineConfig{MaxTransfers: slots})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, n)
	for range n {
		go func() {
			_, err := e.Do(context.Background(), &Request{URL: srv.URL})
			errs <- err
		}()
	}
	if !waitFor(10*time.Second, func() bool { s := e.Stats(); return started.Load() == slots && s.Queued == n-slots }) {
		t.Fatalf("started %d, stats %+v", started.Load(), e.Stats())
	}
	if LiveHandles()-baseH != slots {
		t.Errorf("%d live handles for %d transfers", LiveHandles()-baseH, slots)
	}
	var closers sync.WaitGroup
	for range 3 {
		closers.Add(1)
		go func() { defer closers.Done(); e.Close() }()
	}
	closers.Wait()
	for i := range n {
		select {
		case err := <-errs:
			if e := asErr(t, err); e.Kind != KindCancelled || !errors.Is(err, ErrClosed) {
				t.Errorf("call: %v (kind %v)", err, e.Kind)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%d of %d calls did not return after Close", n-i, n)
		}
	}
	select {
	case err := <-errs:
		t.Fatalf("a call returned twice: %v", err)
	default:
	}
	if _, err := e.Do(context.Background(), &Request{URL: srv.URL}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if n := LiveHandles(); n != baseH {
		t.Errorf("live handles %d, want %d", n, baseH)
	}
	e.mu.Lock()
	if e.c != nil {
		t.Error("the C engine was not freed")
	}
	e.mu.Unlock()
	if !waitFor(2*time.Second, func() bool { return runtime.NumGoroutine() <= baseG }) {
		t.Errorf("goroutines %d, want <= %d", runtime.NumGoroutine(), baseG)
	}
}

// TestEngineCloseRace closes engines while calls are being submitted,
// completed and cancelled: every call returns once, and nothing leaks.
func TestEngineCloseRace(t *testing.T) {
	echo, _ := countingServer(t, echoHandler())
	baseH := LiveHandles()
	for round := range 20 {
		e, err := NewEngine(Config{}, EngineConfig{MaxTransfers: 8})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if i%3 == 0 {
					time.AfterFunc(time.Duration(i%7)*100*time.Microsecond, cancel)
				}
				r, err := e.Do(ctx, &Request{Method: "POST", URL: echo.URL, Body: []byte("x")})
				if err == nil && (r.Status != 200 || string(r.Body) != "x") {
					t.Errorf("round %d: %d %q", round, r.Status, r.Body)
				}
				if err != nil {
					if e := asErr(t, err); e.Kind != KindCancelled {
						t.Errorf("round %d: %v", round, err)
					}
				}
			}()
		}
		time.Sleep(time.Duration(round%5) * time.Millisecond)
		e.Close()
		wg.Wait()
	}
	if n := LiveHandles(); n != baseH {
		t.Errorf("live handles %d, want %d", n, baseH)
	}
}

// TestEngineTimeoutWhilePending: 10,000 calls to a server that never
// answers, with a 1 s timeout and 100 transfer slots, all fail KindTimeout
// about 1 s after they were made: the time waiting for a slot counts.
func TestEngineTimeoutWhilePending(t *testing.T) {
	const n = 10000
	if raceEnabled {
		t.Skip("10,000 goroutines: over the race detector's limit")
	}
	srv, started := hangServer(t)
	e := newE(t, Config{Timeout: time.Second}, EngineConfig{})
	var wg sync.WaitGroup
	var slowest atomic.Int64
	var bad atomic.Int64
	start := time.Now()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			_, err := e.Do(context.Background(), &Request{URL: srv.URL})
			d := time.Since(t0)
			for {
				s := slowest.Load()
				if int64(d) <= s || slowest.CompareAndSwap(s, int64(d)) {
					break
				}
			}
			var te *Error
			if !errors.As(err, &te) || te.Kind != KindTimeout {
				if bad.Add(1) < 5 {
					t.Errorf("err %v", err)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d calls timed out in %v (slowest %v); %d reached the server", n, time.Since(start), time.Duration(slowest.Load()), started.Load())
	if d := time.Duration(slowest.Load()); d > 4*time.Second {
		t.Errorf("the slowest call took %v with a 1 s timeout", d)
	}
	if s := e.Stats(); s.InFlight != 0 || s.Queued != 0 {
		t.Errorf("stats %+v", s)
	}
}

// connTracker counts a server's connections: opened, and most open at once.
type connTracker struct {
	mu             sync.Mutex
	open, max, all int
}

func (c *connTracker) state(_ net.Conn, s http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch s {
	case http.StateNew:
		c.open++
		c.all++
		c.max = max(c.max, c.open)
	case http.StateClosed, http.StateHijacked:
		c.open--
	}
}

func (c *connTracker) counts() (maxOpen, all int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.max, c.all
}

// TestEngineMaxHostConnections: 200 calls, 50 at once, to a server that
// takes 10 ms per request use at most MaxHostConnections connections.
func TestEngineMaxHostConnections(t *testing.T) {
	run := func(t *testing.T, limit int) (maxOpen, all int) {
		var ct connTracker
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			time.Sleep(10 * time.Millisecond)
			w.Header().Set("X-Id", r.Header.Get("X-Id"))
			w.Write(b)
		}))
		srv.Config.ConnState = ct.state
		srv.Start()
		defer srv.Close()
		e := newE(t, Config{}, EngineConfig{MaxTransfers: 50, MaxHostConnections: limit})
		echoCalls(t, e, srv.URL, 200)
		return ct.counts()
	}
	maxOpen, all := run(t, 3)
	t.Logf("MaxHostConnections 3: %d connections, at most %d open", all, maxOpen)
	if maxOpen > 3 || all > 3 {
		t.Errorf("MaxHostConnections 3: %d connections, at most %d open at once", all, maxOpen)
	}
	// Without the bound the same calls use many more (the test can fail).
	if maxOpen, _ := run(t, 0); maxOpen <= 3 {
		t.Errorf("no bound: at most %d connections open at once", maxOpen)
	}
}

// TestEngineHTTP2Multiplex: calls in flight together to an HTTP/2 server
// (TLS, ALPN) share one connection.
func TestEngineHTTP2Multiplex(t *testing.T) {
	var ct connTracker
	var protos sync.Map
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		protos.Store(r.Proto, true)
		b, _ := io.ReadAll(r.Body)
		time.Sleep(50 * time.Millisecond)
		w.Header().Set("X-Id", r.Header.Get("X-Id"))
		w.Write(b)
	}))
	srv.EnableHTTP2 = true
	srv.Config.ConnState = ct.state
	srv.StartTLS()
	t.Cleanup(srv.Close)
	e := newE(t, Config{CAFile: writeCA(t, srv)}, EngineConfig{})
	echoCalls(t, e, srv.URL, 50)
	_, all := ct.counts()
	var seen []string
	protos.Range(func(k, _ any) bool { seen = append(seen, k.(string)); return true })
	if all != 1 || len(seen) != 1 || seen[0] != "HTTP/2.0" {
		t.Errorf("50 calls at once: %d connections, protocols %v; want 1, HTTP/2.0", all, seen)
	}
}

// TestEngineFIFO: with one transfer slot, calls go out in the order they
// were made.
func TestEngineFIFO(t *testing.T) {
	var mu sync.Mutex
	var order []string
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		order = append(order, r.Header.Get("X-Id"))
		first := len(order) == 1
		mu.Unlock()
		if first {
			<-release
		}
	}))
	t.Cleanup(srv.Close)
	e := newE(t, Config{}, EngineConfig{MaxTransfers: 1})
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.Do(context.Background(), &Request{URL: srv.URL, Header: wire.Header{"X-Id": {strconv.Itoa(i)}}}); err != nil {
				t.Error(err)
			}
		}()
		// The next call comes once this one is in flight or queued.
		if !waitFor(5*time.Second, func() bool { s := e.Stats(); return s.InFlight+s.Queued == i+1 }) {
			t.Fatalf("call %d: stats %+v", i, e.Stats())
		}
	}
	close(release)
	wg.Wait()
	want := make([]string, n)
	for i := range want {
		want[i] = strconv.Itoa(i)
	}
	mu.Lock() // the server's goroutines wrote it (libcurl's sockets are no happens-before edge for -race)
	defer mu.Unlock()
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Errorf("order %v", order)
	}
}

// TestEngineStreamedBodies: streamed bodies take the blocking path inside
// the engine, with the same results.
func TestEngineStreamedBodies(t *testing.T) {
	echo, _ := countingServer(t, echoHandler())
	e := newE(t, Config{}, EngineConfig{})
	var out bytes.Buffer
	body := strings.Repeat("streamed ", 1000)
	r, err := e.Do(context.Background(), &Request{Method: "PUT", URL: echo.URL, BodyReader: strings.NewReader(body),
		BodySize: int64(len(body)), BodyWriter: &out})
	if err != nil || r.Status != 200 || !r.Streamed || out.String() != body {
		t.Fatalf("streamed PUT: %v %+v, %d bytes", err, r, out.Len())
	}
}

// TestEngineCancelStress cancels calls at random moments (queued, being
// added, on the wire, completing) while others run on the same handles:
// every answer that arrives is its own call's, every failure is the
// cancel's, and nothing is left behind.
func TestEngineCancelStress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if len(b)%3 == 0 {
			time.Sleep(time.Duration(len(b)%7) * 100 * time.Microsecond)
		}
		w.Header().Set("X-Id", r.Header.Get("X-Id"))
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	e := newE(t, Config{}, EngineConfig{MaxTransfers: 64})
	var wg sync.WaitGroup
	var ok, cancelled atomic.Int64
	for i := range 3000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if i%2 == 0 {
				time.AfterFunc(time.Duration(i%97)*time.Millisecond, cancel)
			}
			id := strconv.Itoa(i)
			body := []byte(strings.Repeat("b", i%50) + id)
			r, err := e.Do(ctx, &Request{Method: "POST", URL: srv.URL, Header: wire.Header{"X-Id": {id}}, Body: body})
			switch {
			case err == nil:
				ok.Add(1)
				if r.Status != 200 || !bytes.Equal(r.Body, body) || r.Header.Get("X-Id") != id {
					t.Errorf("call %s got %d %q (X-Id %s)", id, r.Status, r.Body, r.Header.Get("X-Id"))
				}
			case i%2 == 0 && errors.Is(err, context.Canceled):
				cancelled.Add(1)
				if e := asErr(t, err); e.Kind != KindCancelled {
					t.Errorf("call %s: %v", id, err)
				}
			default:
				t.Errorf("call %s: %v", id, err)
			}
		}()
	}
	wg.Wait()
	t.Logf("%d answered, %d cancelled", ok.Load(), cancelled.Load())
	if s := e.Stats(); s.InFlight != 0 || s.Queued != 0 || s.Handles.Busy != 0 {
		t.Errorf("stats %+v", s)
	}
	echoCalls(t, e, srv.URL, 100)
}

// TestEngineTracePanic: a trace hook that panics fails its call with that
// panic and costs the engine neither a transfer slot nor a handle.
func TestEngineTracePanic(t *testing.T) {
	echo, _ := countingServer(t, echoHandler())
	var panicking atomic.Bool
	e := newE(t, Config{Trace: func(ev TraceEvent) {
		if ev.Phase == TraceRequest && panicking.Load() {
			panic("trace hook")
		}
	}}, EngineConfig{MaxTransfers: 1})
	panicking.Store(true)
	for range 3 {
		func() {
			defer func() {
				if r := recover(); r != "trace hook" {
					t.Errorf("recovered %v", r)
				}
			}()
			e.Do(context.Background(), &Request{URL: echo.URL})
		}()
	}
	if s := e.Stats(); s.InFlight != 0 || s.Handles.Busy != 0 {
		t.Errorf("stats after the panics %+v", s)
	}
	panicking.Store(false)
	echoCalls(t, e, echo.URL, 5)
}
