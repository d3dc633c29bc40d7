package client

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// hostRecorder answers every request with 200 and keeps the URLs it saw.
type hostRecorder struct {
	mu   sync.Mutex
	urls []string
}

func (h *hostRecorder) Do(_ context.Context, req *transport.Request) (*wire.Response, error) {
	h.mu.Lock()
	h.urls = append(h.urls, req.URL)
	h.mu.Unlock()
	return &wire.Response{Status: 200, Header: wire.Header{}}, nil
}

func (h *hostRecorder) last() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.urls[len(h.urls)-1]
}

// A call whose endpoint parameters were resolved before skips the rules
// engine; different parameters (the bucket, the per-call region) give
// different endpoints; the rules' errors come back each time; the cache
// stays bounded and its entries are never shared with a caller.
func TestEndpointCacheSkipsRules(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "models", "aws-large", "s3.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec := &hostRecorder{}
	c, err := New(m, s3Service, "", WithRegion("us-east-1"), WithAWSCredentials(AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret"}),
		WithoutRetries(), WithTransport(rec))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	call := func(in string) string {
		t.Helper()
		if _, err := c.Call(ctx, "HeadObject", []byte(in)); err != nil {
			t.Fatalf("HeadObject %s: %v", in, err)
		}
		return rec.last()
	}
	evals := func() int64 { return c.rules.evals.Load() }

	// The same parameters (Bucket and Key are HeadObject's), from goroutines at once (run under -race).
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 5 {
				if _, err := c.Call(ctx, "HeadObject", []byte(`{"Bucket": "bucket-a", "Key": "k"}`)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	start := evals()
	if start < 1 || start > 4 { // each goroutine's first call may miss at once
		t.Fatalf("20 calls with one set of parameters evaluated the rules %d times, want 1 to 4", start)
	}
	if u := call(`{"Bucket": "bucket-a", "Key": "k"}`); !strings.HasPrefix(u, "https://bucket-a.s3.us-east-1.amazonaws.com/k") || evals() != start {
		t.Errorf("bucket-a again: %s after %d evaluations, want bucket-a's host and none", u, evals()-start)
	}
	if u := call(`{"Bucket": "bucket-b", "Key": "k"}`); !strings.HasPrefix(u, "https://bucket-b.s3.us-east-1.amazonaws.com/") || evals() != start+1 {
		t.Errorf("bucket-b: %s after %d evaluations, want bucket-b's host and 1", u, evals()-start)
	}
	if u := call(`{"Bucket": "bucket-a", "Key": "k"}`); !strings.HasPrefix(u, "https://bucket-a.s3.us-east-1.amazonaws.com/") || evals() != start+1 {
		t.Errorf("bucket-a after bucket-b: %s after %d evaluations", u, evals()-start)
	}

	// A per-call region is a parameter too.
	r1, err := c.resolveEndpoint(c.svc.Operations[0], nil, "")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := c.resolveEndpoint(c.svc.Operations[0], nil, "eu-west-1")
	if err != nil {
		t.Fatal(err)
	}
	if r1.base.Host == r2.base.Host || !strings.Contains(r2.base.Host, "eu-west-1") {
		t.Errorf("region override: %s and %s", r1.base.Host, r2.base.Host)
	}

	// What a call gets is its own copy.
	r1.base.Host = "changed.example"
	r1.headers = map[string][]string{"X": {"y"}}
	again, err := c.resolveEndpoint(c.svc.Operations[0], nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if again.base.Host == "changed.example" {
		t.Error("a call's change to its endpoint reached the cache")
	}
	ep, err := c.ResolveEndpoint("HeadObject", []byte(`{"Bucket": "bucket-a", "Key": "k"}`))
	if err != nil {
		t.Fatal(err)
	}
	ep.URL = "https://changed.example"
	if u := call(`{"Bucket": "bucket-a", "Key": "k"}`); strings.Contains(u, "changed.example") {
		t.Errorf("a change to ResolveEndpoint's result reached the calls: %s", u)
	}

	// The rules' errors are the same from the cache.
	bad := `{"Bucket": "arn:aws:s3:us-east-1:123456789012:bogus:x", "Key": "k"}`
	before := evals()
	_, err1 := c.Call(ctx, "HeadObject", []byte(bad))
	_, err2 := c.Call(ctx, "HeadObject", []byte(bad))
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() || evals() != before+1 {
		t.Errorf("invalid ARN twice: %v, %v after %d evaluations, want one error twice and 1", err1, err2, evals()-before)
	}

	// Bounded.
	for i := range endpointCacheSize + 20 {
		if _, err := c.ResolveEndpoint("HeadObject", fmt.Appendf(nil, `{"Bucket": "bucket-%d", "Key": "k"}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.rules.cache.Len(); n != endpointCacheSize {
		t.Errorf("%d endpoints kept, want %d", n, endpointCacheSize)
	}
}
