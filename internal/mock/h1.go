package mock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// The HTTP/1.1 server (RFC 9112) of Start, on net alone: keep-alive and
// pipelined requests, bodies of a Content-Length or chunked, Expect:
// 100-continue (the 100 is sent when the body is first read, so a request
// refused from its head is never sent its body), Connection: close. Every
// read is bounded: the head by maxHeaderBytes (431 beyond) and headTimeout,
// the body by the Server's bound (413) and bodyTimeout between reads.

const (
	maxHeaderBytes = 1 << 20          // a request's line and headers, as net/http's default
	maxChunkLine   = 4 << 10          // a chunk-size line with its extensions
	headTimeout    = 30 * time.Second // for a request's head, and an idle connection
	bodyTimeout    = 30 * time.Second // between two reads of a body
	writeTimeout   = 30 * time.Second // for a response
	lingerTimeout  = time.Second      // reading what a client still sends after the last response
	stopWait       = 5 * time.Second  // Stop's wait for the requests under way
)

// Running is a mock server listening on 127.0.0.1 (Start).
type Running struct {
	// URL is the base URL of the server, http://127.0.0.1:PORT.
	URL    string
	s      *Server
	ln     net.Listener
	ctx    context.Context // the requests', cancelled when Stop gives up waiting
	cancel context.CancelFunc
	done   chan error    // the accept loop's end
	failed chan struct{} // closed when the accept loop ends before Stop
	wg     sync.WaitGroup

	mu      sync.Mutex
	conns   map[*conn]bool // true: a request is under way
	closing bool
}

// Start serves the mock of service svc of m (New's options) on
// 127.0.0.1, on a port the system chooses, until Stop.
func Start(m *model.Model, svc *model.Service, opts ...Option) (*Running, error) {
	s, err := New(m, svc, opts...)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("serve: listening on 127.0.0.1: %w", err)
	}
	return Serve(s, ln), nil
}

// Serve serves s on ln until Stop.
func Serve(s *Server, ln net.Listener) *Running {
	ctx, cancel := context.WithCancel(context.Background())
	r := &Running{URL: "http://" + ln.Addr().String(), s: s, ln: ln, ctx: ctx, cancel: cancel,
		done: make(chan error, 1), failed: make(chan struct{}), conns: map[*conn]bool{}}
	go func() {
		err := r.accept()
		if err != nil {
			close(r.failed)
		}
		r.done <- err
	}()
	return r
}

// Failed is closed when the server stops accepting connections on its
// own (an error of the listener, which Stop returns).
func (r *Running) Failed() <-chan struct{} { return r.failed }

// accept serves each connection on its goroutine until the listener is
// closed.
func (r *Running) accept() error {
	var backoff time.Duration
	for {
		nc, err := r.ln.Accept()
		if err != nil {
			r.mu.Lock()
			closing := r.closing
			r.mu.Unlock()
			if closing {
				return nil
			}
			if temporary(err) {
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				time.Sleep(backoff)
				continue
			}
			return fmt.Errorf("accepting: %w", err)
		}
		backoff = 0
		c := &conn{r: r, nc: nc, br: bufio.NewReaderSize(nc, 4<<10), bw: bufio.NewWriterSize(nc, 4<<10)}
		r.mu.Lock()
		if r.closing {
			r.mu.Unlock()
			nc.Close()
			continue
		}
		r.conns[c] = false
		r.wg.Add(1)
		r.mu.Unlock()
		go c.serve()
	}
}

// temporary reports whether err is one an accept loop outlives (out of
// file descriptors).
func temporary(err error) bool {
	var te interface{ Temporary() bool }
	return errors.As(err, &te) && te.Temporary()
}

// Stop stops listening, closes the idle connections, waits up to 5 s for
// the requests under way (their connections close after their response),
// then closes every connection. Call it once.
func (r *Running) Stop() error {
	r.mu.Lock()
	r.closing = true
	err := r.ln.Close()
	for c, busy := range r.conns {
		if !busy {
			c.nc.Close()
		}
	}
	r.mu.Unlock()
	finished := make(chan struct{})
	go func() { r.wg.Wait(); close(finished) }()
	t := time.NewTimer(stopWait)
	defer t.Stop()
	select {
	case <-finished:
	case <-t.C:
		r.cancel()
		r.mu.Lock()
		for c := range r.conns {
			c.nc.Close()
		}
		r.mu.Unlock()
		<-finished
	}
	r.cancel()
	err = errors.Join(err, <-r.done)
	if err != nil {
		return fmt.Errorf("serve: stopping the server at %s: %w", r.URL, err)
	}
	return nil
}

// setBusy marks c as under a request (or idle); false when the server is
// stopping: then c takes no new request.
func (r *Running) setBusy(c *conn, busy bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.conns[c] = busy
	return !r.closing
}

// stopping reports whether Stop was called.
func (r *Running) stopping() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closing
}

// conn is one client connection.
type conn struct {
	r  *Running
	nc net.Conn
	br *bufio.Reader
	bw *bufio.Writer
}

// errHeadTooLarge is readHead's error of a head over maxHeaderBytes.
var errHeadTooLarge = errors.New("the request's head is over the server's bound")

// badRequest is a request the server answers itself, its status and why.
type badRequest struct {
	status int
	msg    string
}

func (e *badRequest) Error() string { return e.msg }

// serve answers c's requests in their order until one of them or the
// client closes it.
func (c *conn) serve() {
	defer c.r.wg.Done()
	defer func() {
		c.r.mu.Lock()
		delete(c.r.conns, c)
		c.r.mu.Unlock()
		c.nc.Close()
	}()
	for {
		c.nc.SetReadDeadline(time.Now().Add(headTimeout))
		req, err := c.readHead()
		if err != nil {
			var bad *badRequest
			switch {
			case errors.Is(err, errHeadTooLarge):
				c.refuse(statusHeaderTooLarge, "the request's line and headers are over the bound of "+strconv.Itoa(maxHeaderBytes)+" bytes")
			case errors.As(err, &bad):
				c.refuse(bad.status, bad.msg)
			}
			return // else the client closed the connection, or the server is stopping
		}
		c.r.setBusy(c, true)
		ok := c.serveOne(req)
		if !c.r.setBusy(c, false) || !ok {
			return
		}
	}
}

// request is a request's head and how its connection goes on.
type request struct {
	Request
	http10      bool
	close       bool // the last request of the connection
	head        bool // a HEAD request: no body in the response
	continue100 bool // the client waits for 100 Continue before the body
	chunked     bool
}

// serveOne answers req; false when the connection is to close.
func (c *conn) serveOne(req *request) bool {
	body := &bodyReader{c: c, chunked: req.chunked, continue100: req.continue100}
	switch {
	case req.chunked: // n is the chunk's, none read yet
	case req.ContentLength > 0:
		body.n = req.ContentLength
	default:
		body.eof = true
	}
	req.Body = body
	w := &responseWriter{c: c, req: req, body: body}
	c.r.s.Serve(c.r.ctx, &req.Request, w)
	if !w.wrote {
		return false
	}
	if w.err != nil {
		return false
	}
	if !body.eof || req.close && c.br.Buffered() > 0 {
		// What the client still sends (a body the server did not read) is
		// read and dropped for a while after the response, so that its
		// arrival does not reset the connection before the client reads
		// the response.
		c.linger()
		return false
	}
	return !req.close
}

// linger half-closes c and reads until the client closes it or
// lingerTimeout passes.
func (c *conn) linger() {
	if tc, ok := c.nc.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	c.nc.SetReadDeadline(time.Now().Add(lingerTimeout))
	io.Copy(io.Discard, c.br)
}

// refuse answers a request the server could not read and closes.
func (c *conn) refuse(status int, msg string) {
	body := msg + "\n"
	c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
	fmt.Fprintf(c.bw, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, reason(status), len(body), body)
	if c.bw.Flush() == nil {
		c.linger()
	}
}

// readLine reads a line ending in LF (its CR LF or LF cut) of at most
// *budget bytes, counted off the budget.
func (c *conn) readLine(budget *int, tooLong error) ([]byte, error) {
	var line []byte
	for {
		frag, err := c.br.ReadSlice('\n')
		if len(frag) > *budget {
			return nil, tooLong
		}
		*budget -= len(frag)
		if err == nil {
			if line == nil {
				line = frag
			} else {
				line = append(line, frag...)
			}
			break
		}
		if err != bufio.ErrBufferFull {
			if err == io.EOF && (len(line) > 0 || len(frag) > 0) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = append(line, frag...)
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// readHead reads a request's line and headers and checks its framing.
func (c *conn) readHead() (*request, error) {
	budget := maxHeaderBytes
	line, err := c.readLine(&budget, errHeadTooLarge)
	for err == nil && len(line) == 0 { // RFC 9112 2.2: an empty line before a request is ignored
		line, err = c.readLine(&budget, errHeadTooLarge)
	}
	if err != nil {
		return nil, err
	}
	method, rest, ok1 := strings.Cut(string(line), " ")
	target, proto, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || !wire.IsToken(method) || target == "" || strings.ContainsAny(target, " \t") {
		return nil, &badRequest{statusBadRequest, "malformed request line"}
	}
	req := &request{Request: Request{Method: method, Target: target, Header: wire.Header{}}, head: method == "HEAD"}
	switch proto {
	case "HTTP/1.1":
	case "HTTP/1.0":
		req.http10, req.close = true, true // no keep-alive for HTTP/1.0
	default:
		if strings.HasPrefix(proto, "HTTP/") {
			return nil, &badRequest{statusVersionUnsupported, "HTTP version " + proto + " is not served (HTTP/1.1 is)"}
		}
		return nil, &badRequest{statusBadRequest, "malformed request line"}
	}
	if !strings.HasPrefix(target, "/") {
		return nil, &badRequest{statusBadRequest, "the request-target is not a path (origin form)"}
	}
	for {
		line, err := c.readLine(&budget, errHeadTooLarge)
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := strings.Cut(string(line), ":")
		if !ok || !wire.IsToken(name) {
			return nil, &badRequest{statusBadRequest, "malformed header line"}
		}
		value = strings.Trim(value, " \t")
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil, &badRequest{statusBadRequest, "a header value holds a control character"}
		}
		req.Header.Add(name, value)
	}
	if err := req.framing(); err != nil {
		return nil, err
	}
	return req, nil
}

// framing reads the head's Host, Connection, Expect, Transfer-Encoding and
// Content-Length.
func (req *request) framing() error {
	h := req.Header
	if len(h["Host"]) != 1 && !req.http10 {
		return &badRequest{statusBadRequest, "an HTTP/1.1 request has one Host header"}
	}
	for _, v := range h["Connection"] {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), "close") {
				req.close = true
			}
		}
	}
	if e := h["Expect"]; len(e) > 0 {
		if len(e) != 1 || !strings.EqualFold(e[0], "100-continue") {
			return &badRequest{417, "the only expectation served is 100-continue"}
		}
		req.continue100 = !req.http10 // RFC 9110 10.1.1: an HTTP/1.0 client's is ignored
	}
	te, cl := h["Transfer-Encoding"], h["Content-Length"]
	switch {
	case len(te) > 0 && len(cl) > 0:
		return &badRequest{statusBadRequest, "both Transfer-Encoding and Content-Length"}
	case len(te) > 0:
		if len(te) != 1 || !strings.EqualFold(te[0], "chunked") {
			return &badRequest{statusNotImplemented, "the only transfer coding served is chunked"}
		}
		req.chunked, req.ContentLength = true, -1
	case len(cl) > 0:
		n, err := strconv.ParseInt(cl[0], 10, 64)
		for _, v := range cl[1:] {
			if v != cl[0] {
				err = errors.New("differing values")
			}
		}
		if err != nil || n < 0 || cl[0][0] == '+' {
			return &badRequest{statusBadRequest, "malformed Content-Length"}
		}
		req.ContentLength = n
	}
	return nil
}

// bodyReader reads a request's body off its connection: n bytes, or the
// chunks of a chunked one, sending 100 Continue first when the client
// waits for it.
type bodyReader struct {
	c           *conn
	n           int64 // bytes left: of the body, or of the chunk
	chunked     bool
	continue100 bool
	eof         bool
	err         error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.eof {
		return 0, io.EOF
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.continue100 {
		b.continue100 = false
		b.c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := b.c.bw.WriteString("HTTP/1.1 100 Continue\r\n\r\n"); err != nil {
			b.err = err
			return 0, err
		}
		if err := b.c.bw.Flush(); err != nil {
			b.err = err
			return 0, err
		}
	}
	b.c.nc.SetReadDeadline(time.Now().Add(bodyTimeout))
	if b.chunked && b.n == 0 {
		if b.err = b.nextChunk(); b.err != nil || b.eof {
			if b.eof {
				return 0, io.EOF
			}
			return 0, b.err
		}
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	n, err := b.c.br.Read(p)
	b.n -= int64(n)
	switch {
	case err == io.EOF:
		b.err = io.ErrUnexpectedEOF
	case err != nil:
		b.err = err
	case b.n == 0 && b.chunked:
		b.err = b.chunkEnd()
	case b.n == 0:
		b.eof = true
	}
	if n > 0 {
		return n, nil
	}
	return 0, b.err
}

// nextChunk reads a chunk's size line; at the last chunk, the trailer.
func (b *bodyReader) nextChunk() error {
	budget := maxChunkLine
	errLine := &badRequest{statusBadRequest, "a chunk-size line is over the bound"}
	line, err := b.c.readLine(&budget, errLine)
	if err != nil {
		return noEOF(err)
	}
	size, _, _ := strings.Cut(string(line), ";")
	size = strings.TrimRight(size, " \t")
	n, err := strconv.ParseUint(size, 16, 63)
	if err != nil || size == "" {
		return &badRequest{statusBadRequest, "malformed chunk size"}
	}
	if n > 0 {
		b.n = int64(n)
		return nil
	}
	// The trailer: fields the body's reader does not look at, then an
	// empty line.
	budget = maxHeaderBytes
	for {
		line, err := b.c.readLine(&budget, errHeadTooLarge)
		if err != nil {
			return noEOF(err)
		}
		if len(line) == 0 {
			b.eof = true
			return nil
		}
	}
}

// chunkEnd reads the CR LF after a chunk's data.
func (b *bodyReader) chunkEnd() error {
	budget := 2
	line, err := b.c.readLine(&budget, &badRequest{statusBadRequest, "a chunk is longer than its size"})
	if err != nil {
		return noEOF(err)
	}
	if len(line) != 0 {
		return &badRequest{statusBadRequest, "a chunk is longer than its size"}
	}
	return nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// responseWriter writes the one response of a request.
type responseWriter struct {
	c     *conn
	req   *request
	body  *bodyReader
	wrote bool
	err   error
}

// WriteResponse writes the status line, the header and, unless the
// request is a HEAD or the status has none, the body.
func (w *responseWriter) WriteResponse(status int, header wire.Header, body []byte) error {
	if w.wrote {
		return errors.New("the response is already written")
	}
	w.wrote = true
	if w.c.r.stopping() || !w.body.eof {
		w.req.close = true // a body not read whole is not skipped: the connection ends
	}
	if header.Get("Connection") != "" {
		for _, t := range strings.Split(header.Get("Connection"), ",") {
			if strings.EqualFold(strings.TrimSpace(t), "close") {
				w.req.close = true
			}
		}
	}
	noBody := status < 200 || status == 204 || status == 304
	bw := w.c.bw
	w.c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
	bw.WriteString("HTTP/1.1 ")
	bw.WriteString(strconv.Itoa(status))
	bw.WriteByte(' ')
	bw.WriteString(reason(status))
	bw.WriteString("\r\n")
	for k, vs := range header {
		switch {
		case !wire.IsToken(k), k == "Transfer-Encoding", k == "Connection":
			continue // the framing and the connection are the server's
		case k == "Content-Length" && (noBody && status != 304):
			continue
		}
		for _, v := range vs {
			bw.WriteString(k)
			bw.WriteString(": ")
			bw.WriteString(headerValue(v))
			bw.WriteString("\r\n")
		}
	}
	if w.req.close {
		bw.WriteString("Connection: close\r\n")
	}
	bw.WriteString("\r\n")
	if !noBody && !w.req.head {
		bw.Write(body)
	}
	w.err = bw.Flush()
	return w.err
}

// headerValue is v with its CR, LF and NUL made spaces, as net/http
// writes them: a value never ends the header.
func headerValue(v string) string {
	if !strings.ContainsAny(v, "\r\n\x00") {
		return v
	}
	return strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' || r == 0 {
			return ' '
		}
		return r
	}, v)
}

// reason is the reason phrase of status ("" for one not listed, as
// RFC 9112 allows).
func reason(status int) string {
	switch status {
	case 100:
		return "Continue"
	case 200:
		return "OK"
	case 201:
		return "Created"
	case 202:
		return "Accepted"
	case 204:
		return "No Content"
	case 206:
		return "Partial Content"
	case 301:
		return "Moved Permanently"
	case 302:
		return "Found"
	case 304:
		return "Not Modified"
	case 307:
		return "Temporary Redirect"
	case 400:
		return "Bad Request"
	case 401:
		return "Unauthorized"
	case 403:
		return "Forbidden"
	case 404:
		return "Not Found"
	case 405:
		return "Method Not Allowed"
	case 409:
		return "Conflict"
	case 412:
		return "Precondition Failed"
	case 413:
		return "Request Entity Too Large"
	case 415:
		return "Unsupported Media Type"
	case 417:
		return "Expectation Failed"
	case 429:
		return "Too Many Requests"
	case 431:
		return "Request Header Fields Too Large"
	case 500:
		return "Internal Server Error"
	case 501:
		return "Not Implemented"
	case 502:
		return "Bad Gateway"
	case 503:
		return "Service Unavailable"
	case 504:
		return "Gateway Timeout"
	case 505:
		return "HTTP Version Not Supported"
	}
	return ""
}
