package client_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
)

// BenchmarkCallInFlight: inflight goroutines (1,000 and 10,000), started
// together, each making calls one after the other (20,000 calls in all,
// at least two per goroutine) through one client: WithEngine (default
// limits: 100 transfers at once, the others queued) against the blocking
// client with the same goroutines (a thread and a connection per call in
// flight). The echo workload of BenchmarkCall, the server in a child
// process; each round runs in a fresh process of its own (this test
// binary again), so that threads and memory left by one round do not
// count in the next. Per path: calls/s, client CPU per call (getrusage),
// the most OS threads, and the bytes of resident memory per call in
// flight (peak RSS during the run less RSS before its goroutines started,
// over inflight); then the ratios engine/blocking (…-x).
//
//	go test ./client -run '^$' -bench CallInFlight -benchtime 1x
func BenchmarkCallInFlight(b *testing.B) {
	url := benchserver.Start(b)
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("inflight=%d", n), func(b *testing.B) {
			per := max(2, 20000/n)
			eng := inFlightChild(b, "engine", n, per, url)
			blk := inFlightChild(b, "blocking", n, per, url)
			b.ReportMetric(eng.cps, "engine-calls/s")
			b.ReportMetric(blk.cps, "blocking-calls/s")
			b.ReportMetric(eng.cpu, "engine-cpu-µs/call")
			b.ReportMetric(blk.cpu, "blocking-cpu-µs/call")
			b.ReportMetric(eng.threads, "engine-threads")
			b.ReportMetric(blk.threads, "blocking-threads")
			b.ReportMetric(eng.bytes, "engine-B/inflight")
			b.ReportMetric(blk.bytes, "blocking-B/inflight")
			b.ReportMetric(eng.cps/blk.cps, "calls/s-x")
			b.ReportMetric(eng.cpu/blk.cpu, "cpu-x")
			b.ReportMetric(eng.threads/blk.threads, "threads-x")
			b.ReportMetric(eng.bytes/blk.bytes, "B/inflight-x")
		})
	}
}

// inFlightEnv holds "path n per url" in the child process of a round.
const inFlightEnv = "SMITHYCURL_INFLIGHT_ROUND"

type inFlightResult struct {
	cps, cpu, bytes, threads float64
}

// inFlightChild runs one round in a new process and reads its result.
func inFlightChild(b *testing.B, path string, n, per int, url string) inFlightResult {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d %s", inFlightEnv, path, n, per, url))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%s round of %d: %v", path, n, err)
	}
	var r inFlightResult
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		if _, err := fmt.Sscanf(sc.Text(), "INFLIGHT %g %g %g %g", &r.cps, &r.cpu, &r.bytes, &r.threads); err == nil {
			return r
		}
	}
	b.Fatalf("%s round of %d: no result in %q", path, n, out)
	return r
}

// runInFlightIfChild runs the round and exits when this process is the
// child of inFlightChild.
func runInFlightIfChild() {
	spec := os.Getenv(inFlightEnv)
	if spec == "" {
		return
	}
	var path, url string
	var n, per int
	if _, err := fmt.Sscanf(spec, "%s %d %d %s", &path, &n, &per, &url); err != nil {
		fmt.Fprintln(os.Stderr, "in-flight round:", err)
		os.Exit(1)
	}
	r, err := inFlightRound(path, n, per, url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "in-flight round:", err)
		os.Exit(1)
	}
	fmt.Printf("INFLIGHT %g %g %g %g\n", r.cps, r.cpu, r.bytes, r.threads)
	os.Exit(0)
}

// inFlightRound runs n goroutines of per calls each through a new client
// (WithEngine for path "engine").
func inFlightRound(path string, n, per int, url string) (inFlightResult, error) {
	debug.SetMaxThreads(n + 10000) // the blocking path needs a thread per call in flight
	m, err := model.LoadPaths(context.Background(), filepath.Join("testdata", "bench.smithy"))
	if err != nil {
		return inFlightResult{}, err
	}
	opt := blockingPath
	if path == "engine" {
		opt = client.WithEngine()
	}
	c, err := client.New(m, benchService, url, opt)
	if err != nil {
		return inFlightResult{}, err
	}
	defer c.Close()
	ctx := context.Background()
	call := func() error {
		out, err := c.Call(ctx, "CreateOrder", benchserver.Request)
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(out, []byte(`{"id":"a1b2c3d4"`)) {
			return fmt.Errorf("unexpected output %s", out)
		}
		return nil
	}
	if err := call(); err != nil { // the model's plan, the first handle
		return inFlightResult{}, err
	}
	runtime.GC()
	baseRSS := procStatus("VmRSS:")

	stop := make(chan struct{})
	peaks := make(chan [2]int64)
	go func() {
		var most [2]int64
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			most[0] = max(most[0], procStatus("Threads:"))
			most[1] = max(most[1], procStatus("VmRSS:"))
			select {
			case <-stop:
				peaks <- most
				return
			case <-tick.C:
			}
		}
	}()
	var ready, wg sync.WaitGroup
	var firstErr atomic.Value
	start := make(chan struct{})
	for range n {
		ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ready.Done()
			<-start
			for range per {
				if err := call(); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
			}
		}()
	}
	ready.Wait()
	cpu0, t0 := benchserver.CPUTime(), time.Now()
	close(start)
	wg.Wait()
	wall, cpu := time.Since(t0), benchserver.CPUTime()-cpu0
	close(stop)
	most := <-peaks
	if err, _ := firstErr.Load().(error); err != nil {
		return inFlightResult{}, err
	}
	if baseRSS < 0 || most[0] < 0 || most[1] < 0 {
		return inFlightResult{}, fmt.Errorf("no VmRSS or Threads in /proc/self/status")
	}
	calls := n * per
	return inFlightResult{
		cps:     float64(calls) / wall.Seconds(),
		cpu:     float64(cpu.Nanoseconds()) / 1e3 / float64(calls),
		bytes:   float64((most[1]-baseRSS)*1024) / float64(n),
		threads: float64(most[0]),
	}, nil
}
