package client_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// Per-call cost of a small JSON operation (~210-byte request, ~100-byte
// response, one keep-alive connection per worker): client.Call against the
// raw transport, a hand-written go-curl loop and net/http sending the same
// bytes. The server runs in a child process (this test binary, started with
// the bench server of testing/servers/benchserver), so cpu-µs/op is the client's alone (getrusage
// RUSAGE_SELF around the loop: every thread of this process).
//
//	go test ./client -run '^$' -bench . -benchmem

const benchService = "smithycurl.test.bench#Bench"

func init() {
	benchserver.ServeIfChild()
	runInFlightIfChild()
}

var (
	benchModelOnce sync.Once
	benchModelVal  *model.Model
	benchModelErr  error
)

// benchModel is the model of the echo workload, loaded once.
func benchModel(tb testing.TB) *model.Model {
	benchModelOnce.Do(func() {
		benchModelVal, benchModelErr = model.LoadPaths(context.Background(), filepath.Join("testdata", "bench.smithy"))
	})
	if benchModelErr != nil {
		tb.Fatal(benchModelErr)
	}
	return benchModelVal
}

// benchClient is a client of the echo workload's server (a child process).
func benchClient(b testing.TB) *client.Client {
	base := benchserver.Start(b)
	c, err := client.New(benchModel(b), benchService, base)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func benchCall(b *testing.B, workers int) {
	c := benchClient(b)
	defer c.Close()
	ctx := context.Background()
	benchserver.Measure(b, workers, func() error {
		out, err := c.Call(ctx, "CreateOrder", benchserver.Request)
		if err != nil {
			return err
		}
		if len(out) == 0 {
			return fmt.Errorf("empty output")
		}
		return nil
	})
}

// benchTransport sends what client.Call sends, straight through the
// transport: the difference to benchCall is the client's own cost (codec,
// plan, auth, retry bookkeeping).
func benchTransport(b *testing.B, workers int) {
	url := benchserver.Start(b) + "/orders"
	tr, err := transport.New(transport.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	hdr := wire.Header{"Content-Type": {"application/json"}}
	ctx := context.Background()
	benchserver.Measure(b, workers, func() error {
		r, err := tr.Do(ctx, &transport.Request{Method: "POST", URL: url, Header: hdr, Body: benchserver.Request})
		if err != nil {
			return err
		}
		if r.Status != 200 || !bytes.Equal(r.Body, benchserver.Response) {
			return fmt.Errorf("status %d: %s", r.Status, r.Body)
		}
		return nil
	})
}

func BenchmarkCall(b *testing.B)             { benchCall(b, 1) }
func BenchmarkCallRawTransport(b *testing.B) { benchTransport(b, 1) }
func BenchmarkCallGoCurlLoop(b *testing.B) {
	benchserver.GoCurlLoop(b, benchserver.Start(b)+"/orders", 1)
}
func BenchmarkCallNetHTTP(b *testing.B) {
	benchserver.NetHTTPLoop(b, benchserver.Start(b)+"/orders", 1)
}

// Concurrency: workers goroutines sharing one client (or one transport,
// go-curl handle pool, net/http client).
func BenchmarkCallConcurrent(b *testing.B) {
	for _, w := range []int{1, 2, 8, 64} {
		b.Run(fmt.Sprintf("client/workers=%d", w), func(b *testing.B) { benchCall(b, w) })
		b.Run(fmt.Sprintf("transport/workers=%d", w), func(b *testing.B) { benchTransport(b, w) })
		b.Run(fmt.Sprintf("gocurl/workers=%d", w), func(b *testing.B) { benchserver.GoCurlLoop(b, benchserver.Start(b)+"/orders", w) })
		b.Run(fmt.Sprintf("nethttp/workers=%d", w), func(b *testing.B) { benchserver.NetHTTPLoop(b, benchserver.Start(b)+"/orders", w) })
	}
}

// stubTransport answers every request at once with benchserver.Response.
type stubTransport struct{}

func (stubTransport) Do(ctx context.Context, req *transport.Request) (*wire.Response, error) {
	return &wire.Response{Status: 200, Header: wire.Header{"Content-Type": {"application/json"}}, Body: benchserver.Response}, nil
}

// BenchmarkCallOverhead is client.Call's own cost with a transport that
// answers at once: encoding, decoding, the plan lookup and the retry loop.
func BenchmarkCallOverhead(b *testing.B) {
	c, err := client.New(benchModel(b), benchService, "http://127.0.0.1:1", client.WithTransport(stubTransport{}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Call(ctx, "CreateOrder", benchserver.Request); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallVsC is the goal of the per-call cost: client.Call on the
// echo workload, workers goroutines sharing one client, against the
// hand-written libcurl loop in C (bench/c/bench.c's, one easy handle per
// thread) in the same run: CPU per call and calls/s of each and their
// ratios (cpu-x, calls/s-x; medians of BENCH_ROUNDS, default 5, rounds of
// 3000 calls, alternating). Run with -benchtime 1x.
func BenchmarkCallVsC(b *testing.B) {
	for _, w := range []int{1, 2, 8} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			c := benchClient(b)
			defer c.Close()
			ctx := context.Background()
			cpuX, _ := benchserver.CompareToC(b, benchserver.Start(b)+"/orders", w, 3000, 5, func() error {
				out, err := c.Call(ctx, "CreateOrder", benchserver.Request)
				if err != nil {
					return err
				}
				if !bytes.HasPrefix(out, []byte(`{"id":"a1b2c3d4"`)) {
					return fmt.Errorf("unexpected output %s", out)
				}
				return nil
			})
			benchserver.Goal(fmt.Sprintf("Go client.Call CPU per call / libcurl loop, %d goroutines", w), cpuX, true, 1.25, "x")
		})
	}
}

// emptyOK answers every request at once with 200 and no body.
type emptyOK struct{}

func (emptyOK) Do(ctx context.Context, req *transport.Request) (*wire.Response, error) {
	return &wire.Response{Status: 200, Header: wire.Header{}}, nil
}

// BenchmarkCallS3Endpoint is client.Call's own cost for an S3 HeadObject,
// whose endpoint comes from S3's rules (bucket, key, region) on every call:
// the rules engine, or the client's cache of its results.
func BenchmarkCallS3Endpoint(b *testing.B) {
	m, err := model.LoadPaths(context.Background(), shareddata.Path(b, "models", "aws-large", "s3.json"))
	if err != nil {
		b.Fatal(err)
	}
	c, err := client.New(m, "com.amazonaws.s3#AmazonS3", "", client.WithRegion("us-west-2"),
		client.WithAWSCredentials(testCreds), client.WithoutRetries(), client.WithTransport(emptyOK{}))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	in := []byte(`{"Bucket": "my-bucket", "Key": "photos/2026/a.jpg"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Call(ctx, "HeadObject", in); err != nil {
			b.Fatal(err)
		}
	}
}
