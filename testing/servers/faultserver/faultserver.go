// Package faultserver is a loopback HTTP/1.1 server for fault-injection
// tests. It writes its responses byte by byte on a raw net.Listener, so it
// can misbehave in ways an HTTP library never would: reset a connection in
// the middle of a body, stall before the first byte, end a chunked body
// early, or declare more bytes than it sends.
//
//	s := faultserver.Start()
//	defer s.Close()
//	s.Handle("/flaky", faultserver.Status(503), faultserver.Status(503), faultserver.JSON(200, `{}`))
//	// GET s.URL+"/flaky" three times: 503, 503, 200. s.Hits("/flaky") == 3.
//
// Requests are parsed with net/http's reader; the request body is read in
// full before the fault runs, so a hit means the whole request arrived.
package faultserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// Fault is what the server does with one request. It returns whether the
// connection may serve another request (keep-alive).
type Fault func(c *Conn) (keepAlive bool)

// Conn is the connection a Fault answers on.
type Conn struct {
	Request *http.Request // body already read into Body
	Body    []byte
	conn    net.Conn
	w       *bufio.Writer
	stop    <-chan struct{}
}

// Write sends raw bytes (flushed at once).
func (c *Conn) Write(p []byte) error {
	if _, err := c.w.Write(p); err != nil {
		return err
	}
	return c.w.Flush()
}

// Reset closes the connection with a TCP RST (SO_LINGER 0) instead of a FIN.
func (c *Conn) Reset() {
	c.w.Flush()
	if tc, ok := c.conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.conn.Close()
}

// Sleep waits d, or less when the server closes; it reports whether the
// whole wait passed.
func (c *Conn) Sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-c.stop:
		return false
	}
}

// Server is a running fault server. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL, "http://127.0.0.1:port" (no trailing slash).
	URL string

	ln   net.Listener
	stop chan struct{}
	wg   sync.WaitGroup

	mu     sync.Mutex
	routes map[string]*route
	conns  map[net.Conn]struct{}
	closed bool
	accept int
}

type route struct {
	steps []Fault
	hits  int
}

// Start listens on 127.0.0.1 (a free port) and serves until Close. It
// panics if it cannot listen, as httptest.NewServer does.
func Start() *Server {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic("faultserver: " + err.Error())
	}
	s := &Server{
		URL:    "http://" + ln.Addr().String(),
		ln:     ln,
		stop:   make(chan struct{}),
		routes: map[string]*route{},
		conns:  map[net.Conn]struct{}{},
	}
	s.wg.Add(1)
	go s.serve()
	return s
}

// Handle scripts path (without query): the n-th request to it (from 0)
// gets steps[n], the requests after the last step get the last step again.
// Paths without a script get 404. Handle resets the path's hit count.
func (s *Server) Handle(path string, steps ...Fault) {
	if len(steps) == 0 {
		panic("faultserver: Handle needs at least one Fault")
	}
	s.mu.Lock()
	s.routes[path] = &route{steps: steps}
	s.mu.Unlock()
}

// Hits reports how many complete requests path has received.
func (s *Server) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.routes[path]; r != nil {
		return r.hits
	}
	return 0
}

// Connections reports how many connections the server has accepted.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accept
}

// Paths lists the scripted paths, sorted.
func (s *Server) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.routes))
	for p := range s.routes {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Close stops the listener, closes every connection, interrupts sleeping
// faults and waits for all of the server's goroutines to end.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.stop)
	err := s.ln.Close()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.accept++
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serveConn(c)
	}
}

func (s *Server) serveConn(nc net.Conn) {
	defer s.wg.Done()
	defer func() {
		nc.Close()
		s.mu.Lock()
		delete(s.conns, nc)
		s.mu.Unlock()
	}()
	r := bufio.NewReader(nc)
	w := bufio.NewWriter(nc)
	for {
		req, err := http.ReadRequest(r)
		if err != nil {
			if err != io.EOF && !isClosed(err) {
				fmt.Fprintf(w, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
				w.Flush()
			}
			return
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return
		}
		s.mu.Lock()
		f := Status(404)
		if rt := s.routes[req.URL.Path]; rt != nil {
			f = rt.steps[min(rt.hits, len(rt.steps)-1)]
			rt.hits++
		}
		s.mu.Unlock()
		c := &Conn{Request: req, Body: body, conn: nc, w: w, stop: s.stop}
		if !f(c) || req.Close {
			w.Flush()
			return
		}
	}
}

func isClosed(err error) bool {
	return strings.Contains(err.Error(), "use of closed network connection") ||
		strings.Contains(err.Error(), "connection reset by peer")
}

// Header is a list of "Name: value" lines.
type Header []string

func head(status int, hdr Header, extra ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	for _, h := range append(hdr, extra...) {
		b.WriteString(h)
		b.WriteString("\r\n")
	}
	b.WriteString("\r\n")
	return []byte(b.String())
}

// Respond answers with status, the header lines and body (Content-Length
// set), and keeps the connection alive.
func Respond(status int, hdr Header, body string) Fault {
	return func(c *Conn) bool {
		msg := head(status, hdr, fmt.Sprintf("Content-Length: %d", len(body)))
		return c.Write(append(msg, body...)) == nil
	}
}

// Status answers with status and an empty body.
func Status(status int) Fault { return Respond(status, nil, "") }

// JSON answers with status and a JSON body.
func JSON(status int, body string, hdr ...string) Fault {
	return Respond(status, append(Header{"Content-Type: application/json"}, hdr...), body)
}

// ResetMidBody declares a body of declared bytes, sends the first part of
// it and resets the connection.
func ResetMidBody(declared int, part string) Fault {
	return func(c *Conn) bool {
		msg := head(200, Header{"Content-Type: application/json", fmt.Sprintf("Content-Length: %d", declared)})
		c.Write(append(msg, part...))
		// Let the bytes leave before the RST, so the client sees a
		// response that starts and then breaks.
		c.Sleep(20 * time.Millisecond)
		c.Reset()
		return false
	}
}

// Reset resets the connection as soon as the request has arrived, before
// any byte of a response.
func Reset() Fault {
	return func(c *Conn) bool { c.Reset(); return false }
}

// Garbage answers with bytes that are not HTTP and closes the connection
// (libcurl: "Received HTTP/0.9 when not allowed", code 1).
func Garbage() Fault {
	return func(c *Conn) bool {
		c.Write([]byte("\x00\x01garbage, not HTTP\r\n\r\n"))
		return false
	}
}

// Delay waits d before running next (nothing is sent meanwhile: a slow
// first byte).
func Delay(d time.Duration, next Fault) Fault {
	return func(c *Conn) bool {
		if !c.Sleep(d) {
			return false
		}
		return next(c)
	}
}

// TruncatedChunked sends a chunked body made of chunks, then closes the
// connection without the terminating zero-length chunk.
func TruncatedChunked(chunks ...string) Fault {
	return func(c *Conn) bool {
		msg := head(200, Header{"Content-Type: application/json", "Transfer-Encoding: chunked"})
		for _, ch := range chunks {
			msg = fmt.Appendf(msg, "%x\r\n%s\r\n", len(ch), ch)
		}
		c.Write(msg)
		return false
	}
}

// Large answers 200 with a JSON body of about n bytes
// ({"message":"xxx…"}), sent in pieces; with chunked set the length is not
// declared up front, so only counting the bytes can stop it.
func Large(n int, chunked bool) Fault {
	return func(c *Conn) bool {
		const piece = 32 << 10
		filler := strings.Repeat("x", piece)
		pre, post := `{"message":"`, `"}`
		fill := max(n-len(pre)-len(post), 0)
		hdr := Header{"Content-Type: application/json"}
		if chunked {
			hdr = append(hdr, "Transfer-Encoding: chunked")
		} else {
			hdr = append(hdr, fmt.Sprintf("Content-Length: %d", len(pre)+fill+len(post)))
		}
		send := func(p string) error {
			if chunked {
				return c.Write(fmt.Appendf(nil, "%x\r\n%s\r\n", len(p), p))
			}
			return c.Write([]byte(p))
		}
		if c.Write(head(200, hdr)) != nil || send(pre) != nil {
			return false
		}
		for fill > 0 {
			k := min(fill, piece)
			if send(filler[:k]) != nil { // the client gave up: fine
				return false
			}
			fill -= k
		}
		if send(post) != nil {
			return false
		}
		if chunked {
			return c.Write([]byte("0\r\n\r\n")) == nil
		}
		return true
	}
}
