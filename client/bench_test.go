package client_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	curl "github.com/andelf/go-curl"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// Per-call cost of a small JSON operation (~210-byte request, ~100-byte
// response, one keep-alive connection per worker): client.Call against the
// raw transport, a hand-written go-curl loop and net/http sending the same
// bytes. The server runs in a child process (this test binary, started with
// benchServerEnv set), so cpu-µs/op is the client's alone (getrusage
// RUSAGE_SELF around the loop: every thread of this process).
//
//	go test ./client -run '^$' -bench . -benchmem

const benchServerEnv = "SMITHYCURL_CLIENT_BENCH_SERVER"

const benchService = "smithycurl.test.bench#Bench"

var benchIn = []byte(`{"name":"margherita","size":12,"crust":"thin","toppings":["basil","mozzarella","tomato"],"notes":"extra basil please, and cut in eight slices","customer":{"id":"c-0042","tier":"gold"},"requestId":"7f9c2ba4e88f827d"}`)

var benchOut = []byte(`{"id":"a1b2c3d4","name":"margherita","size":12,"toppings":["basil","mozzarella","tomato"],"price":9.5}`)

func init() {
	if os.Getenv(benchServerEnv) != "" {
		runBenchServer()
		os.Exit(0)
	}
}

func runBenchServer() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	go func() { io.Copy(io.Discard, os.Stdin); os.Exit(0) }() // exit with the parent
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path != "/orders" || !bytes.Equal(body, benchIn) {
			http.Error(w, "unexpected request "+r.URL.Path+" "+string(body), 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(benchOut)
	}))
}

var (
	benchOnce sync.Once
	benchBase string
	benchErr  error
	// benchStdin is kept referenced: the child exits when it closes.
	benchStdin io.WriteCloser
)

// benchServer starts the child process once per test binary and returns
// its base URL. The child exits when this process's stdin pipe to it closes.
func benchServer(b *testing.B) string {
	benchOnce.Do(func() {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), benchServerEnv+"=1")
		if benchStdin, benchErr = cmd.StdinPipe(); benchErr != nil {
			return
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			benchErr = err
			return
		}
		if benchErr = cmd.Start(); benchErr != nil {
			return
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || strings.HasPrefix(line, "ERR") {
			benchErr = fmt.Errorf("bench server: %q %v", line, err)
			return
		}
		benchBase = "http://" + strings.TrimSpace(line)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchBase
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs fn b.N times over workers goroutines and reports client CPU
// per call and calls per second next to wall time and allocations.
func measure(b *testing.B, workers int, fn func() error) {
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	var wg sync.WaitGroup
	var n atomic.Int64
	errs := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n.Add(1) <= int64(b.N) {
				if err := fn(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	cpu := cpuTime() - c0
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

var (
	benchModelOnce sync.Once
	benchModelVal  *model.Model
	benchModelErr  error
)

func benchClient(b *testing.B) *client.Client {
	base := benchServer(b)
	benchModelOnce.Do(func() {
		benchModelVal, benchModelErr = model.LoadPaths(context.Background(), filepath.Join("testdata", "bench.smithy"))
	})
	if benchModelErr != nil {
		b.Fatal(benchModelErr)
	}
	c, err := client.New(benchModelVal, benchService, base)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func benchCall(b *testing.B, workers int) {
	c := benchClient(b)
	defer c.Close()
	ctx := context.Background()
	measure(b, workers, func() error {
		out, err := c.Call(ctx, "CreateOrder", benchIn)
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
	url := benchServer(b) + "/orders"
	tr, err := transport.New(transport.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	hdr := wire.Header{"Content-Type": {"application/json"}}
	ctx := context.Background()
	measure(b, workers, func() error {
		r, err := tr.Do(ctx, &transport.Request{Method: "POST", URL: url, Header: hdr, Body: benchIn})
		if err != nil {
			return err
		}
		if r.Status != 200 || !bytes.Equal(r.Body, benchOut) {
			return fmt.Errorf("status %d: %s", r.Status, r.Body)
		}
		return nil
	})
}

// benchGoCurl is the straightforward go-curl loop: one easy handle per
// worker, Go write callback through go-curl's handle map, POSTFIELDS per
// call, curl_easy_perform.
func benchGoCurl(b *testing.B, workers int) {
	url := benchServer(b) + "/orders"
	if err := curl.GlobalInit(curl.GLOBAL_ALL); err != nil {
		b.Fatal(err)
	}
	pool := make(chan *curl.CURL, workers)
	for range workers {
		e := curl.EasyInit()
		e.Setopt(curl.OPT_NOSIGNAL, 1)
		e.Setopt(curl.OPT_URL, url)
		e.Setopt(curl.OPT_HTTPHEADER, []string{"Content-Type: application/json", "Expect:"})
		pool <- e
		defer e.Cleanup()
	}
	body := string(benchIn)
	measure(b, workers, func() error {
		e := <-pool
		defer func() { pool <- e }()
		var got []byte
		e.Setopt(curl.OPT_WRITEFUNCTION, func(p []byte, _ any) bool { got = append(got, p...); return true })
		e.Setopt(curl.OPT_POSTFIELDSIZE, len(body))
		cs := curl.NewCurlString(body)
		e.Setopt(curl.OPT_POSTFIELDS, cs)
		err := e.Perform()
		curl.FreeCurlString(cs)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, benchOut) {
			return fmt.Errorf("got %s", got)
		}
		return nil
	})
}

func benchNetHTTP(b *testing.B, workers int) {
	url := benchServer(b) + "/orders"
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	measure(b, workers, func() error {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(benchIn))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || !bytes.Equal(body, benchOut) {
			return fmt.Errorf("status %d: %s %v", resp.StatusCode, body, err)
		}
		return nil
	})
}

func BenchmarkCall(b *testing.B)             { benchCall(b, 1) }
func BenchmarkCallRawTransport(b *testing.B) { benchTransport(b, 1) }
func BenchmarkCallGoCurlLoop(b *testing.B)   { benchGoCurl(b, 1) }
func BenchmarkCallNetHTTP(b *testing.B)      { benchNetHTTP(b, 1) }

// Concurrency: workers goroutines sharing one client (or one transport,
// go-curl handle pool, net/http client).
func BenchmarkCallConcurrent(b *testing.B) {
	for _, w := range []int{1, 2, 8, 64} {
		b.Run(fmt.Sprintf("client/workers=%d", w), func(b *testing.B) { benchCall(b, w) })
		b.Run(fmt.Sprintf("transport/workers=%d", w), func(b *testing.B) { benchTransport(b, w) })
		b.Run(fmt.Sprintf("gocurl/workers=%d", w), func(b *testing.B) { benchGoCurl(b, w) })
		b.Run(fmt.Sprintf("nethttp/workers=%d", w), func(b *testing.B) { benchNetHTTP(b, w) })
	}
}

// stubTransport answers every request at once with benchOut.
type stubTransport struct{}

func (stubTransport) Do(ctx context.Context, req *transport.Request) (*wire.Response, error) {
	return &wire.Response{Status: 200, Header: wire.Header{"Content-Type": {"application/json"}}, Body: benchOut}, nil
}

// BenchmarkCallOverhead is client.Call's own cost with a transport that
// answers at once: encoding, decoding, the plan lookup and the retry loop.
func BenchmarkCallOverhead(b *testing.B) {
	benchModelOnce.Do(func() {
		benchModelVal, benchModelErr = model.LoadPaths(context.Background(), filepath.Join("testdata", "bench.smithy"))
	})
	if benchModelErr != nil {
		b.Fatal(benchModelErr)
	}
	c, err := client.New(benchModelVal, benchService, "http://127.0.0.1:1", client.WithTransport(stubTransport{}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Call(ctx, "CreateOrder", benchIn); err != nil {
			b.Fatal(err)
		}
	}
}
