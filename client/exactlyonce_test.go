package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/onceserver"
)

// Exactly once, proven: non-idempotent calls (Once's Add, a counter per
// id) through testing/servers/onceserver's proxy, which resets, truncates,
// answers garbage, delays past the timeout, and answers 500, 503 and
// throttling errors, before and after forwarding. No call may be executed
// twice, and a call executed once may fail only with an error that says
// the request may have reached the server. The C (bindings/c
// test_exactly_once.c) and Python (test_exactly_once.py) tests run the
// same check through the library.
func TestExactlyOnceThroughFaults(t *testing.T) { viaBoth(t, testExactlyOnceThroughFaults) }

func testExactlyOnceThroughFaults(t *testing.T, path client.Option) {
	const calls, workers = 150, 8
	const timeout = 300 * time.Millisecond
	p, err := onceserver.Start(0.4, timeout+200*time.Millisecond, 31)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "testing", "servers", "onceserver", "once.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.once#Once", p.URL, path, client.WithTimeout(timeout),
		client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: 5 * time.Millisecond, Cap: time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	type outcome struct {
		out []byte
		err error
	}
	results := make([]outcome, calls)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out, err := c.Call(context.Background(), "Add", fmt.Appendf(nil, `{"id":"go-%d"}`, i))
				results[i] = outcome{out, err}
			}
		}()
	}
	for i := range calls {
		next <- i
	}
	close(next)
	wg.Wait()
	p.Close() // every delayed request has reached the counter or never will

	kinds := map[string]int{}
	ok, failedRan := 0, 0
	for i, r := range results {
		n := p.Counter.Count(fmt.Sprintf("go-%d", i))
		if n > 1 {
			t.Errorf("call %d was executed %d times (err: %v)", i, n, r.err)
		}
		if r.err == nil {
			ok++
			var out struct{ Count int }
			if json.Unmarshal(r.out, &out); out.Count != 1 || n != 1 {
				t.Errorf("call %d succeeded with %s, the counter is %d", i, r.out, n)
			}
			continue
		}
		var e *client.Error
		if !errors.As(r.err, &e) {
			t.Fatalf("call %d: %v is no *client.Error", i, r.err)
		}
		kinds[e.Kind.String()]++
		if e.Attempts > 3 {
			t.Errorf("call %d: %d attempts, the limit is 3: %v", i, e.Attempts, e)
		}
		if n == 1 {
			failedRan++
			if !e.MayHaveReached() {
				t.Errorf("call %d was executed, but its error says the request did not reach the server: %v", i, e)
			}
		}
		if e.Kind == client.KindTransport || e.Kind == client.KindTimeout {
			if says := strings.Contains(e.Message(), "may have reached the server"); says != e.MayHaveReached() {
				t.Errorf("call %d: MayHaveReached %v, but the message says otherwise: %s", i, e.MayHaveReached(), e.Message())
			}
		}
	}
	var names []string
	for k, n := range kinds {
		names = append(names, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(names)
	t.Logf("%d calls: %d succeeded, %d failed (%s), %d of them executed; faults injected: %s",
		calls, ok, calls-ok, strings.Join(names, ", "), failedRan, p.FaultsJSON())
	if ok == 0 {
		t.Error("no call succeeded")
	}
}
