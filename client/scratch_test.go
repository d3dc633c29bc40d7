package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// maxCallAllocs bounds the allocations of client.Call in the steady state
// of the echo workload: the codec's (about 18: the request's members,
// body and headers, the output document) and at most 3 of the client's
// and the transport's, whose request, call state and response (header
// map, values, body) come from the client's pool (scratch.go). Before the
// pool a call made 44.
const maxCallAllocs = 23

// TestCallSteadyAllocs: a steady stream of like calls allocates little.
// The server runs in a child process, so that only the client's
// allocations count.
func TestCallSteadyAllocs(t *testing.T) {
	c := benchClient(t)
	defer c.Close()
	ctx := context.Background()
	benchserver.CheckSteadyAllocs(t, "client.Call", maxCallAllocs, func() {
		out, err := c.Call(ctx, "CreateOrder", benchserver.Request)
		if err != nil || !bytes.HasPrefix(out, []byte(`{"id":"a1b2c3d4"`)) {
			t.Fatalf("%s, %v", out, err)
		}
	})
}

// TestCallPooledOutputsIndependent: outputs kept from earlier calls stay
// what they were while the client's pool serves later calls, from many
// goroutines at once (under the race detector the pool poisons what is
// given back: a view of a pooled response would show it). Error results
// and retries keep theirs too.
func TestCallPooledOutputsIndependent(t *testing.T) {
	var mu sync.Mutex
	fails := map[string]int{} // name -> 503s left to answer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Name string }
		body, _ := io.ReadAll(r.Body)
		json.Unmarshal(body, &in)
		mu.Lock()
		fail := fails[in.Name] > 0
		fails[in.Name]--
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Name", in.Name)
		if fail {
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprintf(w, `{"message":"busy %s"}`, in.Name)
			return
		}
		fmt.Fprintf(w, `{"id":"id-%s","name":%q,"size":%d}`, in.Name, in.Name, len(in.Name))
	}))
	defer srv.Close()
	c, err := client.New(benchModel(t), benchService, srv.URL, client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: 5 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	const workers, calls = 4, 60
	mu.Lock()
	for w := range workers {
		fails[fmt.Sprintf("w%d-retried", w)] = 1
		fails[fmt.Sprintf("w%d-failed", w)] = 100
	}
	mu.Unlock()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var outs [][]byte
			var names []string
			var failure error
			for i := range calls {
				name := fmt.Sprintf("w%d-c%d-%s", w, i, bytes.Repeat([]byte("x"), i%7*40))
				switch i {
				case 10:
					name = fmt.Sprintf("w%d-retried", w)
				case 20:
					name = fmt.Sprintf("w%d-failed", w)
				}
				out, err := c.Call(ctx, "CreateOrder", fmt.Appendf(nil, `{"name":%q}`, name))
				if i == 20 {
					if err == nil {
						errs <- fmt.Errorf("%s: succeeded, want 429s", name)
						return
					}
					failure = err
					continue
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %v", name, err)
					return
				}
				outs, names = append(outs, out), append(names, name)
			}
			for i, out := range outs {
				want := fmt.Sprintf(`{"id":"id-%s","name":%q,"size":%d}`, names[i], names[i], len(names[i]))
				if string(out) != want {
					errs <- fmt.Errorf("output kept from call %d: %s, want %s", i, out, want)
					return
				}
			}
			var ce *client.Error
			if want := fmt.Sprintf(`{"message":"busy w%d-failed"}`, w); !errors.As(failure, &ce) || string(ce.Members) != want {
				errs <- fmt.Errorf("error kept: %v, members %q, want %s", failure, ce.Members, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// keeping is a transport of the caller's that keeps every response it
// returns (a recorder): the client must not pool them.
type keeping struct {
	inner transport.Transport
	kept  []*wire.Response
	given int // requests that came with a response to reuse
}

func (k *keeping) Do(ctx context.Context, req *transport.Request) (*wire.Response, error) {
	if req.Reuse != nil {
		k.given++
	}
	resp, err := k.inner.Do(ctx, req)
	if resp != nil {
		k.kept = append(k.kept, resp)
	}
	return resp, err
}

// TestCallTransportOfTheCaller: a transport given with WithTransport may
// keep the responses it returns, so its calls get none from the pool.
func TestCallTransportOfTheCaller(t *testing.T) {
	tr, err := transport.New(transport.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	k := &keeping{inner: tr}
	c, err := client.New(benchModel(t), benchService, benchserver.Start(t), client.WithTransport(k))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 5 {
		if _, err := c.Call(context.Background(), "CreateOrder", benchserver.Request); err != nil {
			t.Fatal(err)
		}
	}
	if k.given != 0 {
		t.Errorf("%d of 5 requests came with a pooled response to a transport of the caller's", k.given)
	}
	for i, resp := range k.kept {
		if resp.Status != 200 || !bytes.Equal(resp.Body, benchserver.Response) {
			t.Errorf("kept response %d: %d %q", i, resp.Status, resp.Body)
		}
	}
}
