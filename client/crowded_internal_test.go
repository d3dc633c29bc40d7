package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
)

// With as many of a client's calls blocked in libcurl as there are Ps (at
// least two), the next call goes through the client's engine, not a
// thread of its own (transportFor); the ones before took the blocking path.
func TestCrowdedCallTakesTheEngine(t *testing.T) {
	release := make(chan struct{})
	var arrived atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		<-release
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(benchserver.Response)
	}))
	defer srv.Close()
	m, err := model.LoadPaths(context.Background(), filepath.Join("testdata", "bench.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, "smithycurl.test.bench#Bench", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	n := max(2, runtime.GOMAXPROCS(0))
	errs := make(chan error, n+1)
	call := func() {
		_, err := c.Call(context.Background(), "CreateOrder", benchserver.Request)
		errs <- err
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				close(release)
				t.Fatalf("waiting for %s", what)
			}
		}
	}
	for range n {
		go call()
	}
	waitFor("the calls blocked in libcurl", func() bool { return c.owned.Waiting() == n && arrived.Load() == int32(n) })
	if c.engine.Load() != nil {
		close(release)
		t.Fatalf("the first %d calls made the engine", n)
	}
	go call()
	waitFor("the last call at the server", func() bool { return arrived.Load() == int32(n+1) })
	if c.engine.Load() == nil || c.owned.Waiting() != n {
		close(release)
		t.Fatalf("call %d with %d blocked in libcurl on %d Ps took the blocking path", n+1, c.owned.Waiting(), runtime.GOMAXPROCS(0))
	}
	close(release)
	for range n + 1 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
