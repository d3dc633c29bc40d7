package transport

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
	"github.com/smithycurl/smithycurl/wire"
)

// newT returns a transport closed at the end of the test.
func newT(t testing.TB, cfg Config) *Curl {
	t.Helper()
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

// mkTransport makes a transport closed at the end of the test: newT (the
// blocking path) or newE (the engine).
type mkTransport func(testing.TB, Config) Transport

// bothPaths runs a test of the transport's behaviour on the blocking path
// and through the engine, which must behave the same.
func bothPaths(t *testing.T, test func(*testing.T, mkTransport)) {
	t.Run("curl", func(t *testing.T) { test(t, func(t testing.TB, cfg Config) Transport { return newT(t, cfg) }) })
	t.Run("engine", func(t *testing.T) {
		test(t, func(t testing.TB, cfg Config) Transport { return newE(t, cfg, EngineConfig{}) })
	})
}

var (
	binOnce sync.Once
	binSrv  *httptest.Server
)

// bin is a go-httpbin server on loopback shared by the tests of the package.
func bin(t testing.TB) string {
	binOnce.Do(func() {
		binSrv = httptest.NewServer(httpbin.New(httpbin.WithMaxDuration(5 * time.Second)))
	})
	return binSrv.URL
}

func TestMain(m *testing.M) {
	benchserver.ServeIfChild()
	code := m.Run()
	if binSrv != nil {
		binSrv.Close()
	}
	os.Exit(code)
}

func do(t testing.TB, tr Transport, method, url string, hdr wire.Header, body []byte) (*wireResp, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := tr.Do(ctx, &Request{Method: method, URL: url, Header: hdr, Body: body})
	if err != nil {
		return nil, err
	}
	return &wireResp{r.Status, r.Header, r.Body}, nil
}

type wireResp struct {
	Status int
	Header wire.Header
	Body   []byte
}

func mustDo(t testing.TB, tr Transport, method, url string, hdr wire.Header, body []byte) *wireResp {
	t.Helper()
	r, err := do(t, tr, method, url, hdr, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	return r
}

func asErr(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not *transport.Error", err, err)
	}
	return e
}

func TestHTTPBinGetHeadersRoundTrip(t *testing.T) { bothPaths(t, testHTTPBinGetHeadersRoundTrip) }

func testHTTPBinGetHeadersRoundTrip(t *testing.T, mk mkTransport) {
	tr := mk(t, Config{DefaultHeader: wire.Header{"X-Default": {"d"}, "X-Overridden": {"no"}}})
	h := wire.Header{"X-One": {"1"}, "X-Multi": {"a", "b"}, "X-Overridden": {"yes"}, "Accept": {"application/json"}}
	r := mustDo(t, tr, "GET", bin(t)+"/get?q=1&r=two", h, nil)
	if r.Status != 200 {
		t.Fatalf("status %d", r.Status)
	}
	var got struct {
		Args    map[string][]string `json:"args"`
		Headers map[string][]string `json:"headers"`
		Method  string              `json:"method"`
	}
	if err := json.Unmarshal(r.Body, &got); err != nil {
		t.Fatalf("%v: %s", err, r.Body)
	}
	want := map[string]string{"X-One": "1", "X-Multi": "a,b", "X-Overridden": "yes", "X-Default": "d",
		"User-Agent": DefaultUserAgent, "Accept": "application/json"}
	for k, v := range want {
		if g := strings.Join(got.Headers[k], ","); g != v {
			t.Errorf("server saw %s = %q, want %q", k, g, v)
		}
	}
	if got.Args["q"][0] != "1" || got.Args["r"][0] != "two" || got.Method != "GET" {
		t.Errorf("args/method: %+v %s", got.Args, got.Method)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("response Content-Type %q", ct)
	}
	// Response header with several values, via /response-headers.
	r = mustDo(t, tr, "GET", bin(t)+"/response-headers?X-Resp=a&X-Resp=b", nil, nil)
	if got := r.Header.Values("X-Resp"); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("response X-Resp = %q", got)
	}
}

func TestHTTPBinMethodsWithBodies(t *testing.T) { bothPaths(t, testHTTPBinMethodsWithBodies) }

func testHTTPBinMethodsWithBodies(t *testing.T, mk mkTransport) {
	tr := mk(t, Config{})
	body := []byte(`{"name":"pizza","size":12}`)
	for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
		r := mustDo(t, tr, m, bin(t)+"/anything/x", wire.Header{"Content-Type": {"application/json"}}, body)
		var got struct {
			Method  string              `json:"method"`
			Data    string              `json:"data"`
			Headers map[string][]string `json:"headers"`
		}
		if err := json.Unmarshal(r.Body, &got); err != nil {
			t.Fatalf("%s: %v: %s", m, err, r.Body)
		}
		if got.Method != m || got.Data != string(body) {
			t.Errorf("%s: server saw method %s data %q", m, got.Method, got.Data)
		}
		if ct := got.Headers["Content-Type"]; len(ct) != 1 || ct[0] != "application/json" {
			t.Errorf("%s: Content-Type %q", m, ct)
		}
		if e := got.Headers["Expect"]; len(e) != 0 {
			t.Errorf("%s: Expect %q sent", m, e)
		}
	}
	// POST without Content-Type: libcurl's form type must not be added.
	r := mustDo(t, tr, "POST", bin(t)+"/post", nil, []byte("raw"))
	if bytes.Contains(r.Body, []byte("x-www-form-urlencoded")) {
		t.Errorf("form content type leaked: %s", r.Body)
	}
	// Empty-bodied POST sends Content-Length: 0.
	r = mustDo(t, tr, "POST", bin(t)+"/post", nil, nil)
	var empty struct{ Headers map[string][]string }
	if err := json.Unmarshal(r.Body, &empty); err != nil || r.Status != 200 || strings.Join(empty.Headers["Content-Length"], ",") != "0" {
		t.Errorf("empty POST: %d %s", r.Status, r.Body)
	}
	// HEAD has no body; GET after HEAD on the same handle has one again.
	r = mustDo(t, tr, "HEAD", bin(t)+"/head", nil, nil)
	if r.Status != 200 || len(r.Body) != 0 {
		t.Errorf("HEAD: %d %q", r.Status, r.Body)
	}
	r = mustDo(t, tr, "GET", bin(t)+"/get", nil, nil)
	if r.Status != 200 || len(r.Body) == 0 {
		t.Errorf("GET after HEAD: %d %q", r.Status, r.Body)
	}
	// A large body (> 1 MiB) goes without Expect: 100-continue delays.
	echo, _ := countingServer(t, echoHandler())
	big := bytes.Repeat([]byte("a"), 2<<20)
	start := time.Now()
	r = mustDo(t, tr, "PUT", echo.URL, nil, big)
	if r.Status != 200 || !bytes.Equal(r.Body, big) || time.Since(start) > 3*time.Second {
		t.Errorf("big PUT: %d, %d bytes in %v", r.Status, len(r.Body), time.Since(start))
	}
	// Status codes are responses, not errors.
	r = mustDo(t, tr, "GET", bin(t)+"/status/503", nil, nil)
	if r.Status != 503 {
		t.Errorf("status %d", r.Status)
	}
}

func TestDecompression(t *testing.T) { bothPaths(t, testDecompression) }

func testDecompression(t *testing.T, mk mkTransport) {
	tr := mk(t, Config{})
	for _, p := range []string{"/gzip", "/deflate"} {
		r := mustDo(t, tr, "GET", bin(t)+p, nil, nil)
		var got map[string]any
		if err := json.Unmarshal(r.Body, &got); err != nil {
			t.Fatalf("%s: body not decoded: %v", p, err)
		}
		if got["gzipped"] != true && got["deflated"] != true {
			t.Errorf("%s: %s", p, r.Body)
		}
	}
}

func TestTimeouts(t *testing.T) { bothPaths(t, testTimeouts) }

func testTimeouts(t *testing.T, mk mkTransport) {
	tr := mk(t, Config{Timeout: 300 * time.Millisecond})
	start := time.Now()
	_, err := do(t, tr, "GET", bin(t)+"/delay/3", nil, nil)
	e := asErr(t, err)
	if e.Kind != KindTimeout || e.Code != curleOperationTimedout || !e.MayHaveReached || !e.Timeout() {
		t.Errorf("got %+v", e)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("transport timeout must not look like the ctx deadline")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}

	// The ctx deadline, shorter than the transport's timeout.
	tr2 := mk(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start = time.Now()
	_, err = tr2.Do(ctx, &Request{URL: bin(t) + "/delay/3"})
	e = asErr(t, err)
	if e.Kind != KindTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v (kind %v)", err, e.Kind)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	// An expired ctx fails before anything is sent.
	<-ctx.Done()
	_, err = tr2.Do(ctx, &Request{URL: bin(t) + "/get"})
	if e := asErr(t, err); !errors.Is(err, context.DeadlineExceeded) || e.MayHaveReached {
		t.Errorf("expired ctx: %v", err)
	}
}

// hangServer accepts requests and holds them until the test ends.
func hangServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var started atomic.Int32
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started.Add(1)
		select {
		case <-done:
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv, &started
}

func TestCancelMidRequest(t *testing.T) { bothPaths(t, testCancelMidRequest) }

func testCancelMidRequest(t *testing.T, mk mkTransport) {
	srv, started := hangServer(t)
	tr := mk(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	var cancelAt time.Time
	go func() {
		deadline := time.Now().Add(5 * time.Second)
		for started.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		cancelAt = time.Now()
		cancel()
	}()
	_, err := tr.Do(ctx, &Request{Method: "POST", URL: srv.URL, Body: []byte("x")})
	lag := time.Since(cancelAt)
	e := asErr(t, err)
	if e.Kind != KindCancelled || !errors.Is(err, context.Canceled) || !e.MayHaveReached {
		t.Errorf("got %v kind %v reached %v", err, e.Kind, e.MayHaveReached)
	}
	if lag > 200*time.Millisecond {
		t.Errorf("returned %v after cancel", lag)
	}
	// The handle is usable again, its cancel flag reset.
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer ok.Close()
	for i := 0; i < 3; i++ {
		if r := mustDo(t, tr, "GET", ok.URL, nil, nil); string(r.Body) != "ok" {
			t.Fatalf("after cancel: %q", r.Body)
		}
	}
}

func TestMaxResponseSize(t *testing.T) { bothPaths(t, testMaxResponseSize) }

func testMaxResponseSize(t *testing.T, mk mkTransport) {
	tr := mk(t, Config{MaxResponseBytes: 1000})
	// Content-Length known: libcurl refuses before reading the body.
	_, err := do(t, tr, "GET", bin(t)+"/bytes/5000", nil, nil)
	if e := asErr(t, err); e.Kind != KindTooLarge || !e.MayHaveReached {
		t.Errorf("bytes: %+v", e)
	}
	// Chunked, no length: the write callback stops it.
	_, err = do(t, tr, "GET", bin(t)+"/stream-bytes/5000?chunk_size=100", nil, nil)
	if e := asErr(t, err); e.Kind != KindTooLarge {
		t.Errorf("stream-bytes: %+v", e)
	}
	// HEAD of a large resource is not "too large".
	if r := mustDo(t, tr, "HEAD", bin(t)+"/bytes/5000", nil, nil); r.Status != 200 || len(r.Body) != 0 {
		t.Errorf("HEAD: %d %d", r.Status, len(r.Body))
	}
	// At the limit is fine.
	r := mustDo(t, tr, "GET", bin(t)+"/bytes/1000", nil, nil)
	if len(r.Body) != 1000 {
		t.Errorf("len %d", len(r.Body))
	}
}

// countingServer counts new TCP connections.
func countingServer(t testing.TB, h http.Handler) (*httptest.Server, *atomic.Int64) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

func echoHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Id", r.Header.Get("X-Id"))
		w.Write(b)
	})
}

func TestConnectionReuse(t *testing.T) {
	srv, conns := countingServer(t, echoHandler())
	tr := newT(t, Config{})
	for i := 0; i < 50; i++ {
		body := fmt.Appendf(nil, `{"i":%d}`, i)
		r := mustDo(t, tr, "POST", srv.URL+"/op", nil, body)
		if !bytes.Equal(r.Body, body) {
			t.Fatalf("call %d: %q", i, r.Body)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("50 sequential calls used %d connections, want 1", n)
	}
	if s := tr.Stats(); s.Live != 1 || s.Busy != 0 {
		t.Errorf("stats %+v", s)
	}
}

func TestConcurrency(t *testing.T) {
	const workers, calls = 8, 200
	srv, conns := countingServer(t, echoHandler())
	tr := newT(t, Config{})
	deadline := time.Now().Add(60 * time.Second)
	var wg sync.WaitGroup
	var fails atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < calls && time.Now().Before(deadline); i++ {
				id := fmt.Sprintf("%d-%d", w, i)
				body := fmt.Appendf(nil, `{"id":%q}`, id)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				r, err := tr.Do(ctx, &Request{Method: "POST", URL: srv.URL, Header: wire.Header{"X-Id": {id}}, Body: body})
				cancel()
				if err != nil || r.Status != 200 || !bytes.Equal(r.Body, body) || r.Header.Get("X-Id") != id {
					if fails.Add(1) < 5 {
						t.Errorf("%s: err %v resp %+v", id, err, r)
					}
				}
			}
		}()
	}
	wg.Wait()
	if time.Now().After(deadline) {
		t.Fatal("did not finish in time")
	}
	if s := tr.Stats(); s.Live > workers || s.Busy != 0 {
		t.Errorf("stats %+v", s)
	}
	if n := conns.Load(); n > workers {
		t.Errorf("%d connections for %d workers", n, workers)
	}
	t.Logf("%d connections, stats %+v", conns.Load(), tr.Stats())
}

func writeCA(t *testing.T, srv *httptest.Server) string {
	p := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(p, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTLS(t *testing.T) {
	var proto atomic.Value
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proto.Store(r.Proto)
		io.WriteString(w, "secure")
	}))
	srv.EnableHTTP2 = true
	// OpenSSL's rejection of the unknown CA shows up as "bad record MAC" in
	// Go's handshake log; keep the test output quiet.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()

	// Verification is on by default: the test CA is unknown.
	_, err := do(t, newT(t, Config{}), "GET", srv.URL, nil, nil)
	if e := asErr(t, err); e.Kind != KindTLS || e.MayHaveReached || e.Code != curlePeerFailedVerify {
		t.Errorf("default: %+v", e)
	}
	// Trusted through the CA bundle; HTTP/2 negotiated by ALPN.
	tr := newT(t, Config{CAFile: writeCA(t, srv)})
	r := mustDo(t, tr, "GET", srv.URL, nil, nil)
	if string(r.Body) != "secure" || proto.Load() != "HTTP/2.0" {
		t.Errorf("with CA: %q over %v", r.Body, proto.Load())
	}
	// HTTP/1.1 forced.
	r = mustDo(t, newT(t, Config{CAFile: writeCA(t, srv), HTTPVersion: HTTPVersion1}), "GET", srv.URL, nil, nil)
	if string(r.Body) != "secure" || proto.Load() != "HTTP/1.1" {
		t.Errorf("h1: %q over %v", r.Body, proto.Load())
	}
	// The insecure switch.
	r = mustDo(t, newT(t, Config{InsecureSkipVerify: true}), "GET", srv.URL, nil, nil)
	if string(r.Body) != "secure" {
		t.Errorf("insecure: %q", r.Body)
	}
	// A bad CA file path is a TLS error too.
	_, err = do(t, newT(t, Config{CAFile: "/nonexistent/ca.pem"}), "GET", srv.URL, nil, nil)
	if e := asErr(t, err); e.Kind != KindTLS || e.MayHaveReached {
		t.Errorf("bad CA file: %+v", e)
	}
}

func TestH2CPriorKnowledge(t *testing.T) {
	var proto atomic.Value
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proto.Store(r.Proto)
		b, _ := io.ReadAll(r.Body)
		w.Write(b)
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	defer srv.Close()
	tr := newT(t, Config{HTTPVersion: HTTPVersion2PriorKnowledge, Verbose: testing.Verbose()})
	for i := 0; i < 3; i++ {
		r := mustDo(t, tr, "POST", srv.URL, nil, []byte("h2c"))
		if string(r.Body) != "h2c" || proto.Load() != "HTTP/2.0" {
			t.Fatalf("%q over %v", r.Body, proto.Load())
		}
	}
	// Default: HTTP/1.1 in clear.
	mustDo(t, newT(t, Config{}), "GET", srv.URL, nil, nil)
	if proto.Load() != "HTTP/1.1" {
		t.Errorf("default cleartext proto %v", proto.Load())
	}
}

func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = do(t, newT(t, Config{}), "POST", "http://"+addr+"/x", nil, []byte("{}"))
	e := asErr(t, err)
	if e.Kind != KindConnect || e.Code != curleCouldntConnect || e.MayHaveReached {
		t.Errorf("got %+v", e)
	}
	if !strings.Contains(e.Error(), "connect") {
		t.Errorf("message %q", e.Error())
	}
}

func TestDNSFailure(t *testing.T) {
	tr := newT(t, Config{ConnectTimeout: 3 * time.Second, Timeout: 5 * time.Second})
	_, err := do(t, tr, "GET", "http://no-such-host.invalid/", nil, nil)
	e := asErr(t, err)
	if e.Kind != KindDNS || e.MayHaveReached {
		t.Errorf("got %+v", e)
	}
}

// rawServer runs fn on each accepted connection (bounded to 16).
func rawServer(t *testing.T, fn func(net.Conn)) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for i := 0; i < 16; i++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(5 * time.Second))
				fn(c)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

func readRequestHead(c net.Conn) {
	buf := make([]byte, 0, 4096)
	tmp := make([]byte, 1024)
	for !bytes.Contains(buf, []byte("\r\n\r\n")) && len(buf) < 1<<16 {
		n, err := c.Read(tmp)
		if err != nil {
			return
		}
		buf = append(buf, tmp[:n]...)
	}
}

func TestResetMidBody(t *testing.T) {
	url := rawServer(t, func(c net.Conn) {
		readRequestHead(c)
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: text/plain\r\n\r\n0123456789")
		time.Sleep(50 * time.Millisecond)
		c.(*net.TCPConn).SetLinger(0) // RST
	})
	_, err := do(t, newT(t, Config{}), "GET", url, nil, nil)
	e := asErr(t, err)
	if e.Kind != KindOther || !e.MayHaveReached || e.Code == 0 {
		t.Errorf("got %+v", e)
	}
	t.Logf("reset: %v", err)

	// A truncated chunked body.
	url = rawServer(t, func(c net.Conn) {
		readRequestHead(c)
		io.WriteString(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
	})
	_, err = do(t, newT(t, Config{}), "GET", url, nil, nil)
	if e := asErr(t, err); e.Kind != KindOther || !e.MayHaveReached {
		t.Errorf("truncated chunked: %+v", e)
	}
}

func TestInvalidRequests(t *testing.T) { bothPaths(t, testInvalidRequests) }

func testInvalidRequests(t *testing.T, mk mkTransport) {
	tr := mk(t, Config{})
	for _, req := range []*Request{
		{URL: bin(t), Header: wire.Header{"X-Bad": {"a\r\nInjected: 1"}}},
		{URL: bin(t), Header: wire.Header{"Bad Name": {"a"}}},
		{URL: bin(t), Method: "GE T"},
		{URL: "not a url"},
		{URL: "ftp2://x/"},
	} {
		_, err := tr.Do(context.Background(), req)
		if e := asErr(t, err); e.MayHaveReached {
			t.Errorf("%+v: %+v", req, e)
		}
	}
	if _, err := New(Config{ClientCertFile: "x"}); err == nil {
		t.Error("cert without key accepted")
	}
	if _, err := New(Config{DefaultHeader: wire.Header{"X": {"a\nb"}}}); err == nil {
		t.Error("bad default header accepted")
	}
}

func TestTraceAndUserAgent(t *testing.T) { bothPaths(t, testTraceAndUserAgent) }

func testTraceAndUserAgent(t *testing.T, mk mkTransport) {
	var events []TraceEvent
	var mu sync.Mutex
	tr := mk(t, Config{UserAgent: "custom/1", DefaultHeader: wire.Header{"Authorization": {"Bearer s3cret"}},
		Trace: func(ev TraceEvent) {
			if a := ev.Header.Get("Authorization"); a != "" {
				ev.Header.Set("Authorization", "REDACTED")
			}
			mu.Lock()
			events = append(events, ev)
			mu.Unlock()
		}})
	r := mustDo(t, tr, "GET", bin(t)+"/headers", nil, nil)
	if !bytes.Contains(r.Body, []byte(`"custom/1"`)) || !bytes.Contains(r.Body, []byte("Bearer s3cret")) {
		t.Errorf("server saw %s", r.Body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 || events[0].Phase != TraceRequest || events[1].Phase != TraceResponse ||
		events[0].Header.Get("Authorization") != "REDACTED" || events[0].Header.Get("User-Agent") != "custom/1" ||
		events[1].Status != 200 || events[0].Method != "GET" || !strings.HasSuffix(events[0].URL, "/headers") {
		t.Errorf("events %+v", events)
	}
}

func TestCloseLeaks(t *testing.T) {
	srv, _ := countingServer(t, echoHandler())
	hang, started := hangServer(t)
	runtime.GC()
	baseG := runtime.NumGoroutine()
	baseH := LiveHandles()

	tr, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				ctx, cancel := context.WithCancel(context.Background())
				if i%5 == 4 {
					cancel() // some calls cancelled before they start
				}
				tr.Do(ctx, &Request{Method: "POST", URL: srv.URL, Body: []byte("x")})
				cancel()
			}
		}()
	}
	wg.Wait()
	// A call in flight when Close runs is cancelled with ErrClosed.
	errc := make(chan error, 1)
	go func() {
		_, err := tr.Do(context.Background(), &Request{URL: hang.URL})
		errc <- err
	}()
	for i := 0; i < 500 && started.Load() == 0; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if LiveHandles() <= baseH {
		t.Error("no live handles while in use")
	}
	tr.Close()
	select {
	case err := <-errc:
		if e := asErr(t, err); e.Kind != KindCancelled || !errors.Is(err, ErrClosed) {
			t.Errorf("in-flight call: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("in-flight call not cancelled by Close")
	}
	if _, err := tr.Do(context.Background(), &Request{URL: srv.URL}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	if n := LiveHandles(); n != baseH {
		t.Errorf("live handles %d, want %d", n, baseH)
	}
	if s := tr.Stats(); s != (Stats{}) {
		t.Errorf("stats after Close %+v", s)
	}
	tr.mu.Lock()
	if tr.share != nil {
		t.Error("share handle not freed")
	}
	tr.mu.Unlock()
	var g int
	for i := 0; i < 100; i++ {
		if g = runtime.NumGoroutine(); g <= baseG {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if g > baseG {
		t.Errorf("goroutines %d, want <= %d", g, baseG)
	}
}

func TestErrorClassification(t *testing.T) {
	cases := []struct {
		code             int
		tooLarge, cancel bool
		sent             bool
		kind             Kind
		reached          bool
	}{
		{curleCouldntResolveHost, false, false, false, KindDNS, false},
		{curleCouldntConnect, false, false, false, KindConnect, false},
		{curlePeerFailedVerify, false, false, false, KindTLS, false},
		{curleOperationTimedout, false, false, false, KindTimeout, false},
		{curleOperationTimedout, false, false, true, KindTimeout, true},
		{curleAbortedByCallback, false, true, false, KindCancelled, false},
		{curleWriteError, true, false, true, KindTooLarge, true},
		{curleFilesizeExceeded, false, false, true, KindTooLarge, true},
		{56, false, false, true, KindOther, true},
		{56, false, false, false, KindOther, false},
		{curleSendError, false, false, true, KindOther, true},
		// A reply that is not HTTP fails with code 1, as an unsupported
		// scheme does: what was sent decides, not the code.
		{1, false, false, true, KindOther, true},
		{1, false, false, false, KindOther, false},
		{curleSSLShutdownFailed, false, false, true, KindTLS, true},
	}
	for _, c := range cases {
		k, r := classify(c.code, c.tooLarge, c.cancel, c.sent)
		if k != c.kind || r != c.reached {
			t.Errorf("classify(%d, %v, %v, %v) = %v, %v; want %v, %v", c.code, c.tooLarge, c.cancel, c.sent, k, r, c.kind, c.reached)
		}
	}
}

// proxyServer is a minimal forward proxy for absolute-form HTTP requests.
func proxyServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !r.URL.IsAbs() {
			http.Error(w, "not a proxy request", 400)
			return
		}
		n.Add(1)
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, r.URL.String(), r.Body)
		out.Header = r.Header.Clone()
		out.Header.Del("Proxy-Connection")
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer resp.Body.Close()
		for k, vs := range resp.Header {
			w.Header()[k] = vs
		}
		w.Header().Set("X-Via-Test-Proxy", "1")
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestProxy(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "origin") }))
	defer origin.Close()
	proxy, n := proxyServer(t)

	r := mustDo(t, newT(t, Config{Proxy: proxy.URL}), "GET", origin.URL+"/x", nil, nil)
	if string(r.Body) != "origin" || r.Header.Get("X-Via-Test-Proxy") != "1" || n.Load() != 1 {
		t.Errorf("option: %q %v count %d", r.Body, r.Header, n.Load())
	}
	// libcurl's environment variables.
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("no_proxy", "")
	t.Setenv("NO_PROXY", "")
	r = mustDo(t, newT(t, Config{}), "GET", origin.URL+"/y", nil, nil)
	if r.Header.Get("X-Via-Test-Proxy") != "1" || n.Load() != 2 {
		t.Errorf("env: %v count %d", r.Header, n.Load())
	}
	// "-" switches proxies off; NoProxy bypasses them.
	for _, cfg := range []Config{{Proxy: "-"}, {NoProxy: "127.0.0.1"}} {
		r = mustDo(t, newT(t, cfg), "GET", origin.URL+"/z", nil, nil)
		if r.Header.Get("X-Via-Test-Proxy") != "" || n.Load() != 2 {
			t.Errorf("%+v: went through the proxy", cfg)
		}
	}
}

func TestClientCertificate(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "smithycurl-client"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "c.pem"), filepath.Join(dir, "k.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)

	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	ca := writeCA(t, srv)

	r := mustDo(t, newT(t, Config{CAFile: ca, ClientCertFile: certFile, ClientKeyFile: keyFile}), "GET", srv.URL, nil, nil)
	if string(r.Body) != "smithycurl-client" {
		t.Errorf("server saw %q", r.Body)
	}
	// Without the certificate the server refuses the handshake (TLS 1.3
	// reports it after the client's side is done, so no kind is asserted
	// beyond failure).
	if _, err := do(t, newT(t, Config{CAFile: ca}), "GET", srv.URL, nil, nil); err == nil {
		t.Error("accepted without a client certificate")
	}
}

// Dot segments in a path are sent as they are (CURLOPT_PATH_AS_IS): an S3
// key "../key.txt" is a key, not a way up ("/b/../key.txt" must not become
// "/key.txt").
func TestPathAsIs(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.RequestURI)
	}))
	t.Cleanup(srv.Close)
	tr := newT(t, Config{})
	for _, p := range []string{"/b/../key.txt", "/b/foo/./../key.txt", "/b/%2E%2E/k"} {
		mustDo(t, tr, "GET", srv.URL+p, nil, nil)
		if g, _ := got.Load().(string); g != p {
			t.Errorf("path %q arrived as %q", p, g)
		}
	}
}
