package transport

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// A goroutine that loops on blocking transfers keeps its P in the
// system-call state while libcurl waits, and nothing else moves the P's
// schedule tick: Do yields to the scheduler once per period of the
// thread's clock (sc_yield_due), so that sysmon does not preempt the P
// every 10 ms (a signal, the P handed off, sysmon polling every 20 us).
func TestDoYieldsOncePerPeriod(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	tr, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	yields := 0
	tr.yield = func() { yields++ }
	// The clock is per OS thread: stay on one.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ctx := context.Background()
	start := time.Now()
	calls := 0
	for yields < 2 && time.Since(start) < 10*time.Second {
		if _, err := tr.Do(ctx, &Request{Method: "GET", URL: srv.URL}); err != nil {
			t.Fatal(err)
		}
		calls++
	}
	took := time.Since(start)
	if yields < 2 {
		t.Fatalf("%d calls in %v yielded %d times, want a yield every 5 ms", calls, took, yields)
	}
	// The first yield comes 5 ms after the thread's first transfer or
	// later; never two in one period.
	if most := int(took/(5*time.Millisecond)) + 1; yields > most || calls <= yields {
		t.Fatalf("%d calls in %v yielded %d times, want at most %d and fewer than the calls", calls, took, yields, most)
	}
}

// The engine's loop yields after each turn, so that the goroutines it woke
// run on its P at once rather than wait there while it blocks in C again.
func TestEngineLoopYieldsAfterEachTurn(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	var yields atomic.Int64
	e, err := newEngine(Config{}, EngineConfig{}, func() { yields.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	const calls = 5
	for range calls {
		if _, err := e.Do(context.Background(), &Request{Method: "GET", URL: srv.URL}); err != nil {
			t.Fatal(err)
		}
	}
	// One turn per completion here (the calls are sequential); the last
	// turn's yield may follow Do's return.
	deadline := time.Now().Add(10 * time.Second)
	for yields.Load() < calls && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if n := yields.Load(); n != calls {
		t.Fatalf("%d sequential calls: the loop yielded %d times, want %d", calls, n, calls)
	}
}
