// Command servebench measures `smithycurl serve` (make bench-serve): it
// starts the server as its own process on 127.0.0.1 with a fixture answer
// for a small awsJson1_0 operation (GetItem of serve/testdata/shop.smithy),
// then N keep-alive HTTP/1.1 connections send the same request bytes, one
// request at a time each, until -requests are answered. It reports
// requests/s, the machine's load average, and the server's RSS after the
// warm-up and at the end (memory flat: the end within -rss-growth of the
// start, else exit 1).
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
)

const fixtures = `{"GetItem": [{"match": {"id": "pen"}, "output": {"id": "pen", "name": "A pen", "price": 3}}]}`

func main() {
	bin := flag.String("smithycurl", "build/smithycurl", "the smithycurl binary")
	modelPath := flag.String("model", "serve/testdata/shop.smithy", "the model served")
	conns := flag.Int("conns", 4, "keep-alive connections")
	requests := flag.Int("requests", 1_000_000, "requests answered in all (after the warm-up)")
	warmup := flag.Int("warmup", 50_000, "requests before the measure starts")
	limit := flag.Duration("timeout", 10*time.Minute, "give up after this long")
	growth := flag.Float64("rss-growth", 0.25, "largest RSS growth from the warm-up to the end allowed (a fraction)")
	flag.Parse()
	if err := run(*bin, *modelPath, *conns, *requests, *warmup, *limit, *growth); err != nil {
		fmt.Fprintf(os.Stderr, "servebench: %v\n", err)
		os.Exit(1)
	}
}

func run(bin, modelPath string, conns, requests, warmup int, limit time.Duration, growth float64) error {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	dir, err := os.MkdirTemp("", "servebench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fx := filepath.Join(dir, "fixtures.json")
	if err := os.WriteFile(fx, []byte(fixtures), 0o600); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, "serve", "--model", modelPath, "--service", "smithycurl.serve.shop#ShopJson",
		"--fixtures", fx, "--quiet")
	cmd.Stderr = os.Stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second // then killed
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s serve: %w", bin, err)
	}
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return fmt.Errorf("%s serve printed no URL: %w", bin, err)
	}
	addr := strings.TrimPrefix(strings.TrimSpace(line), "http://")

	body := `{"id":"pen"}`
	req := []byte("POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/x-amz-json-1.0\r\n" +
		"X-Amz-Target: ShopJson.GetItem\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)

	if _, err := load(ctx, addr, req, conns, warmup); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	rssStart, err := rss(cmd.Process.Pid)
	if err != nil {
		return err
	}
	cpuStart, err := cpuTime(cmd.Process.Pid)
	if err != nil {
		return err
	}
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	took, err := load(ctx, addr, req, conns, requests)
	if err != nil {
		return err
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpuEnd, err := cpuTime(cmd.Process.Pid)
	if err != nil {
		return err
	}
	rssEnd, err := rss(cmd.Process.Pid)
	if err != nil {
		return err
	}
	serverCPU := float64((cpuEnd - cpuStart).Microseconds()) / float64(requests)
	genCPU := float64((rusageTime(&ru1) - rusageTime(&ru0)).Microseconds()) / float64(requests)
	loadavg, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("serve: awsJson1_0 GetItem (fixture), %d keep-alive connections, %d requests: %.0f requests/s (%.1f µs each)\n",
		conns, requests, float64(requests)/took.Seconds(), float64(took.Microseconds())/float64(requests))
	fmt.Printf("serve: CPU per request: %.1f µs in the server, %.1f µs in the load generator: the 2 cores alone would answer %.0f requests/s\n",
		serverCPU, genCPU, 2e6/(serverCPU+genCPU))
	fmt.Printf("serve: RSS %.1f MiB after %d warm-up requests, %.1f MiB after %d more\n",
		float64(rssStart)/(1<<20), warmup, float64(rssEnd)/(1<<20), requests)
	fmt.Printf("serve: load average %s (2-core machine shared with the load generator)\n",
		strings.Join(strings.Fields(string(loadavg))[:3], " "))
	benchserver.Goal("serve: requests/s, awsJson1_0 GetItem from a fixture", float64(requests)/took.Seconds(), false, 20000, "")
	if float64(rssEnd) > float64(rssStart)*(1+growth) {
		return fmt.Errorf("the server's RSS grew from %d to %d bytes over %d requests", rssStart, rssEnd, requests)
	}
	return nil
}

// load sends n requests over conns keep-alive connections and returns the
// time they took. Every response must be a 200 with the fixture.
func load(ctx context.Context, addr string, req []byte, conns, n int) (time.Duration, error) {
	var left atomic.Int64
	left.Store(int64(n))
	var wg sync.WaitGroup
	errs := make([]error, conns)
	start := time.Now()
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = conn(ctx, addr, req, &left)
		}()
	}
	wg.Wait()
	return time.Since(start), errors.Join(errs...)
}

// conn sends req on one connection while left is positive.
func conn(ctx context.Context, addr string, req []byte, left *atomic.Int64) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stop()
	r := bufio.NewReaderSize(c, 16<<10)
	var body []byte
	for left.Add(-1) >= 0 {
		if _, err := c.Write(req); err != nil {
			return err
		}
		status, err := r.ReadSlice('\n')
		if err != nil {
			return fmt.Errorf("reading a response: %w", err)
		}
		if !bytes.HasPrefix(status, []byte("HTTP/1.1 200 ")) {
			return fmt.Errorf("response %q", status)
		}
		length := -1
		for {
			h, err := r.ReadSlice('\n')
			if err != nil {
				return fmt.Errorf("reading a response: %w", err)
			}
			if len(h) <= 2 {
				break
			}
			if k, v, ok := bytes.Cut(h, []byte(":")); ok && bytes.EqualFold(k, []byte("Content-Length")) {
				length, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
			}
		}
		if length < 0 {
			return errors.New("a response without Content-Length")
		}
		if cap(body) < length {
			body = make([]byte, length)
		}
		body = body[:length]
		if _, err := io.ReadFull(r, body); err != nil {
			return fmt.Errorf("reading a response body: %w", err)
		}
		if !bytes.Contains(body, []byte(`"A pen"`)) {
			return fmt.Errorf("not the fixture: %s", body)
		}
	}
	return nil
}

// cpuTime is the user and system CPU time process pid has used.
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's name, in parentheses: utime and
	// stime are the 12th and 13th, in clock ticks (USER_HZ, 100 on Linux).
	_, rest, ok := strings.Cut(string(data), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, data)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return time.Duration(u+st) * 10 * time.Millisecond, nil
}

func rusageTime(ru *syscall.Rusage) time.Duration {
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rss is the resident set of process pid, in bytes.
func rss(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for l := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}
