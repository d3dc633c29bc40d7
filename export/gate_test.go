package main

import (
	"context"
	"net"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

// TestGate: 2,000 asynchronous calls to a server that never answers run on
// a bounded number of goroutines (the others wait as data); cancelling
// their token completes each exactly once with SMITHYCURL_E_CANCELLED,
// waiting or not; freeing the client completes those of another token the
// same way; the goroutines go back to what they were.
func TestGate(t *testing.T) {
	hole, err := net.Listen("tcp", "127.0.0.1:0") // never accepted from
	if err != nil {
		t.Fatal(err)
	}
	defer hole.Close()
	m, err := model.LoadPaths(context.Background(), "../examples/httpbin")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.httpbin#HttpBin", "http://"+hole.Addr().String(),
		client.WithoutRetries(), client.WithEngineLimits(20, 0))
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	cl := newClientH(c)
	// One goroutine per transfer slot: none of them ever waits for one.
	if cl.gate.max != c.MaxTransfers() {
		t.Fatalf("the gate runs %d goroutines, want the engine's %d transfers", cl.gate.max, c.MaxTransfers())
	}
	const n = 2000
	var mu sync.Mutex
	codes := map[int]int{}
	hits := make([]int, 2*n)
	var wg sync.WaitGroup
	wg.Add(2 * n)
	submit := func(ctx context.Context, i int) {
		cl.gate.submit(&asyncCall{ctx: ctx, name: "Delay", input: []byte(`{"seconds": 10}`), done: func(code int, r *result) {
			mu.Lock()
			codes[code]++
			hits[i]++
			mu.Unlock()
			if r != nil {
				r.free()
			}
			wg.Done()
		}})
	}
	tok1, cancel1 := context.WithCancel(context.Background())
	tok2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	for i := 0; i < n; i++ {
		submit(tok1, i)
		submit(tok2, n+i)
	}
	time.Sleep(300 * time.Millisecond)
	if g := runtime.NumGoroutine() - before; g > cl.gate.max+20 {
		t.Errorf("%d goroutines for %d calls in flight, want at most the gate's %d and a few", g, 2*n, cl.gate.max)
	}
	mu.Lock()
	if len(codes) != 0 {
		t.Errorf("completions before any cancel: %v", codes)
	}
	mu.Unlock()
	cancel1()
	cl.close()
	wg.Add(1)
	submit(tok2, 0) // after the free: completes cancelled, once (hits[0] is then 2)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("not every call completed: %v", codes)
	}
	if codes[codeCancelled] != 2*n+1 || len(codes) != 1 {
		t.Errorf("completion codes %v, want %d × SMITHYCURL_E_CANCELLED", codes, 2*n+1)
	}
	for i, h := range hits {
		if want := 1 + btoi(i == 0); h != want {
			t.Fatalf("call %d completed %d times, want %d", i, h, want)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before+2 {
		t.Errorf("%d goroutines left, %d before", g, before)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
