// Package benchserver is the benchmarks' loopback server and measuring
// loop. The server runs in a child process (the test binary itself, started
// again with an environment variable set) so that the CPU a benchmark
// reports is the client's alone.
package benchserver

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	curl "github.com/andelf/go-curl"
)

// Request is a ~210-byte JSON request body; Response the server's answer.
var (
	Request  = []byte(`{"name":"margherita","size":12,"crust":"thin","toppings":["basil","mozzarella","tomato"],"notes":"extra basil please, and cut in eight slices","customer":{"id":"c-0042","tier":"gold"},"requestId":"7f9c2ba4e88f827d"}`)
	Response = []byte(`{"id":"a1b2c3d4","name":"margherita","size":12,"toppings":["basil","mozzarella","tomato"],"price":9.5}`)
)

const childEnv = "SMITHYCURL_BENCH_SERVER"

// ServeIfChild serves and exits when this process is the child that Start
// runs; call it first in TestMain.
func ServeIfChild() {
	if os.Getenv(childEnv) == "" {
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	go func() { io.Copy(io.Discard, os.Stdin); os.Exit(0) }() // exit with the parent
	http.Serve(ln, Handler())
	os.Exit(0)
}

// Handler answers Response to a POST of Request on any path, 400 to any
// other body (the echo service of the benchmarks; build/testserver serves
// it too, line "bench <URL>", model client/testdata/bench.smithy).
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !bytes.Equal(body, Request) {
			http.Error(w, "unexpected request "+r.URL.Path+" "+string(body), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(Response)
	})
}

var (
	once  sync.Once
	base  string
	err   error
	stdin io.WriteCloser // kept referenced: the child exits when it closes
)

// Start starts the child server once per test binary and returns its base
// URL ("http://127.0.0.1:PORT"). It answers Response to a POST of Request
// on any path.
func Start(b testing.TB) string {
	once.Do(func() {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		if stdin, err = cmd.StdinPipe(); err != nil {
			return
		}
		out, e := cmd.StdoutPipe()
		if e != nil {
			err = e
			return
		}
		if err = cmd.Start(); err != nil {
			return
		}
		line, e := bufio.NewReader(out).ReadString('\n')
		if e != nil || strings.HasPrefix(line, "ERR") {
			err = fmt.Errorf("bench server: %q %v", line, e)
			return
		}
		base = "http://" + strings.TrimSpace(line)
	})
	if err != nil {
		b.Fatal(err)
	}
	return base
}

// CPUTime is the CPU time of this process, every thread, user and system.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Measure runs fn b.N times over workers goroutines and reports client CPU
// per call and calls per second next to wall time and allocations.
func Measure(b *testing.B, workers int, fn func() error) {
	b.ReportAllocs()
	b.ResetTimer()
	c0 := CPUTime()
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
	cpu := CPUTime() - c0
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// GoCurlLoop measures the straightforward go-curl loop against url (Go write
// callback through go-curl's handle map, Setopt per call, curl_easy_perform
// on one handle per worker): the baseline smithycurl is measured against.
func GoCurlLoop(b *testing.B, url string, workers int) {
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
	body := string(Request)
	Measure(b, workers, func() error {
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
		if !bytes.Equal(got, Response) {
			return fmt.Errorf("got %s", got)
		}
		return nil
	})
}

// NetHTTPLoop measures net/http sending the same request to url, one
// keep-alive connection per worker.
func NetHTTPLoop(b *testing.B, url string, workers int) {
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	Measure(b, workers, func() error {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(Request))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || !bytes.Equal(body, Response) {
			return fmt.Errorf("status %d: %s %v", resp.StatusCode, body, err)
		}
		return nil
	})
}
