package client_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/benchserver"
)

// BenchmarkCallInFlight: inflight goroutines (1,000 and 10,000), started
// together, each making calls one after the other (20,000 calls in all,
// at least two per goroutine) through one client: WithEngine (default
// limits: 100 transfers at once, the others queued) against the blocking
// client with the same goroutines (a thread and a connection per call in
// flight). The echo workload of BenchmarkCall, server in a child process.
// Per path: calls/s, client CPU per call (getrusage), the most OS threads
// and the bytes of resident memory per call in flight (peak RSS during the
// run less RSS before its goroutines started, over inflight); then the
// ratios engine/blocking (…-x). Run with -benchtime 1x (one round each).
//
//	go test ./client -run '^$' -bench CallInFlight -benchtime 1x
func BenchmarkCallInFlight(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("inflight=%d", n), func(b *testing.B) {
			// The blocking path needs a thread per call in flight.
			defer debug.SetMaxThreads(debug.SetMaxThreads(n + 10000))
			per := max(2, 20000/n)
			eng := inFlightRound(b, n, per, client.WithEngine())
			blk := inFlightRound(b, n, per, blockingPath)
			b.ReportMetric(eng.cps, "engine-calls/s")
			b.ReportMetric(blk.cps, "blocking-calls/s")
			b.ReportMetric(eng.cpu, "engine-cpu-µs/call")
			b.ReportMetric(blk.cpu, "blocking-cpu-µs/call")
			b.ReportMetric(float64(eng.threads), "engine-threads")
			b.ReportMetric(float64(blk.threads), "blocking-threads")
			b.ReportMetric(eng.bytes, "engine-B/inflight")
			b.ReportMetric(blk.bytes, "blocking-B/inflight")
			b.ReportMetric(eng.cps/blk.cps, "calls/s-x")
			b.ReportMetric(eng.cpu/blk.cpu, "cpu-x")
			b.ReportMetric(float64(eng.threads)/float64(blk.threads), "threads-x")
			b.ReportMetric(eng.bytes/blk.bytes, "B/inflight-x")
		})
	}
}

type inFlightResult struct {
	cps, cpu, bytes float64
	threads         int
}

// inFlightRound runs n goroutines of per calls each through a new client
// made with path.
func inFlightRound(b *testing.B, n, per int, path client.Option) inFlightResult {
	c := benchClientWith(b, path)
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
		b.Fatal(err)
	}
	osThreads(b) // skips where /proc/self/status is missing
	runtime.GC()
	baseRSS := rss()

	stop := make(chan struct{})
	peaks := make(chan [2]int64)
	go func() {
		var most [2]int64
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			most[0] = max(most[0], procStatus("Threads:"))
			most[1] = max(most[1], rss())
			select {
			case <-stop:
				peaks <- most
				return
			case <-tick.C:
			}
		}
	}()
	var ready, wg sync.WaitGroup
	var fails atomic.Int64
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
					if fails.Add(1) == 1 {
						firstErr.Store(err)
					}
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
	if f := fails.Load(); f > 0 {
		b.Fatalf("%d goroutines failed: %v", f, firstErr.Load())
	}
	calls := n * per
	return inFlightResult{
		cps:     float64(calls) / wall.Seconds(),
		cpu:     float64(cpu.Nanoseconds()) / 1e3 / float64(calls),
		bytes:   float64(most[1]-baseRSS) / float64(n),
		threads: int(most[0]),
	}
}

// benchClientWith is benchClient with an option.
func benchClientWith(b *testing.B, opt client.Option) *client.Client {
	c := benchClient(b) // starts the server and loads the model
	c.Close()
	c, err := client.New(benchModelVal, benchService, benchserver.Start(b), opt)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// rss is the resident memory of this process in bytes.
func rss() int64 { return procStatus("VmRSS:") * 1024 }
