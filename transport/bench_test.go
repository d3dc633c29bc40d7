package transport

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
	"sync"
	"syscall"
	"testing"
	"time"

	curl "github.com/andelf/go-curl"

	"github.com/smithycurl/smithycurl/wire"
)

// The benchmark server runs in a child process (this test binary started
// with benchServerEnv set) so that the CPU figures are the client's alone.
const benchServerEnv = "SMITHYCURL_TRANSPORT_BENCH_SERVER"

var benchResp = []byte(`{"id":"a1b2c3d4","name":"margherita","size":12,"toppings":["basil","mozzarella","tomato"],"price":9.5}`)

// benchBody is a ~210-byte JSON request.
var benchBody = []byte(`{"name":"margherita","size":12,"crust":"thin","toppings":["basil","mozzarella","tomato"],"notes":"extra basil please, and cut in eight slices","customer":{"id":"c-0042","tier":"gold"},"requestId":"7f9c2ba4e88f827d"}`)

func runBenchServer() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	go func() { io.Copy(io.Discard, os.Stdin); os.Exit(0) }() // exit with the parent
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(benchResp)
	}))
}

var (
	benchOnce  sync.Once
	benchURL   string
	benchErr   error
	benchStdin io.WriteCloser
)

func benchServer(b *testing.B) string {
	benchOnce.Do(func() {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), benchServerEnv+"=1")
		// The child exits when this pipe closes, i.e. when the parent exits.
		benchStdin, _ = cmd.StdinPipe()
		out, err := cmd.StdoutPipe()
		if err != nil {
			benchErr = err
			return
		}
		if err := cmd.Start(); err != nil {
			benchErr = err
			return
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			benchErr = err
			return
		}
		benchURL = "http://" + string(bytes.TrimSpace([]byte(line))) + "/op"
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchURL
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs fn b.N times over `workers` goroutines and reports client
// CPU per call next to the usual wall time and allocations.
func measure(b *testing.B, workers int, fn func() error) {
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	var wg sync.WaitGroup
	var next sync.Mutex
	n := 0
	var firstErr error
	var errOnce sync.Once
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				if n >= b.N {
					next.Unlock()
					return
				}
				n++
				next.Unlock()
				if err := fn(); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	if firstErr != nil {
		b.Fatal(firstErr)
	}
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

func benchCurl(b *testing.B, workers int) {
	url := benchServer(b)
	tr, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	hdr := wire.Header{"Content-Type": {"application/json"}}
	ctx := context.Background()
	measure(b, workers, func() error {
		r, err := tr.Do(ctx, &Request{Method: "POST", URL: url, Header: hdr, Body: benchBody})
		if err != nil {
			return err
		}
		if r.Status != 200 || len(r.Body) != len(benchResp) {
			return fmt.Errorf("status %d, %d bytes", r.Status, len(r.Body))
		}
		return nil
	})
}

func benchNetHTTP(b *testing.B, workers int) {
	url := benchServer(b)
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	measure(b, workers, func() error {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(benchBody))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || len(body) != len(benchResp) {
			return fmt.Errorf("status %d, %d bytes, %v", resp.StatusCode, len(body), err)
		}
		return nil
	})
}

// benchGoCurlPlain is the straightforward go-curl loop (Go write callback
// through go-curl's handle map, Setopt per call, curl_easy_perform): the
// baseline the shim is measured against.
func benchGoCurlPlain(b *testing.B, workers int) {
	url := benchServer(b)
	if err := globalInit(); err != nil {
		b.Fatal(err)
	}
	pool := make(chan *curl.CURL, workers)
	for i := 0; i < workers; i++ {
		e := curl.EasyInit()
		e.Setopt(curl.OPT_NOSIGNAL, 1)
		e.Setopt(curl.OPT_URL, url)
		e.Setopt(curl.OPT_HTTPHEADER, []string{"Content-Type: application/json", "Expect:"})
		pool <- e
		defer e.Cleanup()
	}
	body := string(benchBody)
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
		if len(got) != len(benchResp) {
			return fmt.Errorf("%d bytes", len(got))
		}
		return nil
	})
}

func BenchmarkTransportSmallPOST(b *testing.B)    { benchCurl(b, 1) }
func BenchmarkNetHTTPSmallPOST(b *testing.B)      { benchNetHTTP(b, 1) }
func BenchmarkGoCurlPlainSmallPOST(b *testing.B)  { benchGoCurlPlain(b, 1) }
func BenchmarkTransportSmallPOST2(b *testing.B)   { benchCurl(b, 2) }
func BenchmarkNetHTTPSmallPOST2(b *testing.B)     { benchNetHTTP(b, 2) }
func BenchmarkGoCurlPlainSmallPOST2(b *testing.B) { benchGoCurlPlain(b, 2) }
func BenchmarkTransportSmallPOST8(b *testing.B)   { benchCurl(b, 8) }
func BenchmarkNetHTTPSmallPOST8(b *testing.B)     { benchNetHTTP(b, 8) }
func BenchmarkGoCurlPlainSmallPOST8(b *testing.B) { benchGoCurlPlain(b, 8) }
