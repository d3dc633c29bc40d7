// Package onceserver serves the Once counter (once.smithy: Add, not
// idempotent, and Count) and a fault-injecting proxy in front of it, both on
// 127.0.0.1, for the exactly-once tests of every front end: the client
// calls Add through the proxy with a fresh id per call, then Count directly;
// a counter above 1 is a call executed twice, a counter of 1 behind a
// failed call whose error does not say the request may have reached the
// server is a lost success.
//
// The proxy reads each request and, for a share of them, picks a fault at
// random: a reset before or after forwarding it to the counter, a body cut
// short (by a FIN or a reset), bytes that are not HTTP before or after
// forwarding, a wait past the client's timeout before or after
// forwarding, a 503 or a throttling error without forwarding, or a 500
// after forwarding. Other requests are forwarded and answered as the
// counter answered. Connections are kept alive, so resets also hit reused
// connections.
package onceserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Counter is the Once service: Add and Count over restJson1.
type Counter struct {
	mu     sync.Mutex
	counts map[string]int
}

// NewCounter returns an empty counter.
func NewCounter() *Counter { return &Counter{counts: map[string]int{}} }

// Count is how many times Add was executed for id.
func (c *Counter) Count(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[id]
}

// ServeHTTP serves POST /add/{id} and GET /count/{id}.
func (c *Counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	var n int
	switch {
	case r.Method == "POST" && strings.HasPrefix(r.URL.Path, "/add/"):
		id := strings.TrimPrefix(r.URL.Path, "/add/")
		c.mu.Lock()
		c.counts[id]++
		n = c.counts[id]
		c.mu.Unlock()
	case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/count/"):
		n = c.Count(strings.TrimPrefix(r.URL.Path, "/count/"))
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"count":%d}`, n)
}

// Fault is what the proxy does with one request.
type Fault int

// The faults, in the order of Faults.
const (
	Forward        Fault = iota // no fault
	ResetBefore                 // reset the connection, not forwarded
	ResetAfter                  // forwarded, then reset before any response byte
	Truncated                   // forwarded, half the body, then a FIN
	ResetMidBody                // forwarded, half the body, then a reset
	GarbageBefore               // bytes that are not HTTP, not forwarded
	GarbageAfter                // forwarded, then bytes that are not HTTP
	DelayBefore                 // a wait past the timeout, then forwarded
	DelayAfter                  // forwarded, then a wait past the timeout
	Status503                   // 503, not forwarded
	Throttle                    // 400 ThrottlingException, not forwarded
	Status500After              // forwarded, then 500
	numFaults
)

var faultNames = [numFaults]string{"forward", "reset-before", "reset-after", "truncated", "reset-mid-body",
	"garbage-before", "garbage-after", "delay-before", "delay-after", "503", "throttle", "500-after"}

func (f Fault) String() string { return faultNames[f] }

// Proxy is a running fault-injecting proxy in front of a Counter.
type Proxy struct {
	URL       string // the proxy, "http://127.0.0.1:port"
	DirectURL string // the counter itself
	Counter   *Counter

	rate  float64
	delay time.Duration
	ln    net.Listener
	srv   *http.Server
	up    *http.Client
	stop  chan struct{}
	wg    sync.WaitGroup

	mu       sync.Mutex
	rnd      *rand.Rand
	counts   [numFaults]int
	conns    map[net.Conn]struct{}
	closed   bool
	inflight int // requests being answered
}

// Start serves a counter and a proxy in front of it that injects a fault
// into the share rate (0 to 1) of the requests; the delays wait delay (set
// it past the client's timeout). seed makes the choices repeatable for a
// given order of requests.
func Start(rate float64, delay time.Duration, seed uint64) (*Proxy, error) {
	c := NewCounter()
	dln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("onceserver: the counter's listener: %w", err)
	}
	pln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		dln.Close()
		return nil, fmt.Errorf("onceserver: the proxy's listener: %w", err)
	}
	p := &Proxy{URL: "http://" + pln.Addr().String(), DirectURL: "http://" + dln.Addr().String(), Counter: c,
		rate: rate, delay: delay, ln: pln, srv: &http.Server{Handler: c}, stop: make(chan struct{}),
		up:  &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), conns: map[net.Conn]struct{}{}}
	go p.srv.Serve(dln)
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

// Faults reports how many requests got each fault (Forward: none).
func (p *Proxy) Faults() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	for f, n := range p.counts {
		out[Fault(f).String()] = n
	}
	return out
}

// FaultsJSON is Faults as a JSON object.
func (p *Proxy) FaultsJSON() string {
	b, _ := json.Marshal(p.Faults())
	return string(b)
}

// Close stops the proxy and the counter, and waits for the proxy's
// goroutines.
func (p *Proxy) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.stop)
	p.ln.Close()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	p.srv.Close()
	p.up.CloseIdleConnections()
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			c.Close()
			return
		}
		p.conns[c] = struct{}{}
		p.wg.Add(1)
		p.mu.Unlock()
		go p.serveConn(c)
	}
}

// pick draws the fault of one request. Count and Settle get none.
func (p *Proxy) pick(path string) Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	if path == settlePath || strings.HasPrefix(path, "/count/") {
		return Forward
	}
	f := Forward
	if p.rnd.Float64() < p.rate {
		f = Fault(1 + p.rnd.IntN(int(numFaults)-1))
	}
	p.counts[f]++
	return f
}

// settlePath is Settle's: it waits until no other request is being
// answered (a delayed one may still reach the counter), at most 10 s, and
// returns the faults injected so far.
const settlePath = "/_settle"

// Settle waits, at most limit, until the proxy answers no request (a
// delayed request may still be on its way to the counter); false when it
// did not.
func (p *Proxy) Settle(limit time.Duration, others int) bool {
	deadline := time.Now().Add(limit)
	for {
		p.mu.Lock()
		n := p.inflight
		p.mu.Unlock()
		if n <= others {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (p *Proxy) serveConn(nc net.Conn) {
	defer p.wg.Done()
	defer func() {
		nc.Close()
		p.mu.Lock()
		delete(p.conns, nc)
		p.mu.Unlock()
	}()
	r := bufio.NewReader(nc)
	for {
		req, err := http.ReadRequest(r)
		if err != nil {
			return
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return
		}
		p.mu.Lock()
		p.inflight++
		p.mu.Unlock()
		ok := p.answer(nc, req, body, p.pick(req.URL.Path))
		p.mu.Lock()
		p.inflight--
		p.mu.Unlock()
		if !ok || req.Close {
			return
		}
	}
}

// answer runs fault f on one request; false when the connection is over.
func (p *Proxy) answer(nc net.Conn, req *http.Request, body []byte, f Fault) bool {
	if req.URL.Path == settlePath {
		if !p.Settle(10*time.Second, 1) {
			return write(nc, 503, "application/json", `{"message":"requests still in flight after 10 s"}`, nil) == nil
		}
		return write(nc, 200, "application/json", `{"faults":`+p.FaultsJSON()+`}`, nil) == nil
	}
	switch f {
	case ResetBefore:
		reset(nc)
		return false
	case GarbageBefore:
		nc.Write([]byte("\x00\x01garbage, not HTTP\r\n\r\n"))
		return false
	case Status503:
		return write(nc, 503, "application/json", `{"message":"injected 503, not forwarded"}`, nil) == nil
	case Throttle:
		return write(nc, 400, "application/json", `{"message":"injected throttling, not forwarded"}`,
			[]string{"X-Amzn-Errortype: ThrottlingException"}) == nil
	case DelayBefore:
		if !p.sleep(p.delay) {
			return false
		}
	}
	status, ctype, out, err := p.forward(req, body)
	if err != nil {
		write(nc, 502, "text/plain", err.Error(), nil)
		return false
	}
	switch f {
	case ResetAfter:
		reset(nc)
		return false
	case Truncated, ResetMidBody:
		fmt.Fprintf(nc, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s",
			status, http.StatusText(status), ctype, len(out), out[:len(out)/2])
		if f == ResetMidBody {
			p.sleep(10 * time.Millisecond) // the bytes leave before the reset
			reset(nc)
		}
		return false
	case GarbageAfter:
		nc.Write([]byte("\x00\x01garbage, not HTTP\r\n\r\n"))
		return false
	case DelayAfter:
		if !p.sleep(p.delay) {
			return false
		}
	case Status500After:
		return write(nc, 500, "application/json", `{"message":"injected 500 after the counter ran"}`, nil) == nil
	}
	return write(nc, status, ctype, out, nil) == nil
}

// forward sends the request to the counter.
func (p *Proxy) forward(req *http.Request, body []byte) (int, string, string, error) {
	out, err := http.NewRequest(req.Method, p.DirectURL+req.URL.RequestURI(), strings.NewReader(string(body)))
	if err != nil {
		return 0, "", "", err
	}
	resp, err := p.up.Do(out)
	if err != nil {
		return 0, "", "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b), err
}

// sleep waits d; false when the proxy closed meanwhile.
func (p *Proxy) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-p.stop:
		return false
	}
}

func write(nc net.Conn, status int, ctype, body string, extra []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n", status, http.StatusText(status), ctype, len(body))
	for _, h := range extra {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n" + body)
	_, err := io.WriteString(nc, b.String())
	return err
}

// reset closes the connection with a TCP RST.
func reset(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	nc.Close()
}
