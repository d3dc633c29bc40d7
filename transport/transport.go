// Package transport sends HTTP requests built by the protocol codecs and
// returns their responses. The default implementation, Curl, runs on
// libcurl (through github.com/andelf/go-curl plus a small C shim of ours
// for the hot path: callbacks, header lists, the perform loop and the
// share handle's locks): each call blocks an OS thread in libcurl. Engine
// runs many calls in flight on one libcurl multi handle and one thread;
// both prepare requests and read responses with the same code (call.go).
//
// Defaults (all finite, so that a call never hangs forever): connect
// timeout 10 s, total timeout 60 s (the ctx deadline shortens it), maximum
// response body 64 MiB, TLS peer and host verification on.
package transport

/*
#cgo pkg-config: libcurl
#cgo LDFLAGS: -lpthread
#cgo CFLAGS: -I${SRCDIR}/../include
#include <stdlib.h>
#include <string.h>
#include "shim.h"
#include "smithycurl.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"runtime"
	"runtime/cgo"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	curl "github.com/andelf/go-curl"

	"github.com/smithycurl/smithycurl/wire"
)

// Version is the smithycurl version, named in the default User-Agent and
// printed by the command line: SMITHYCURL_VERSION of include/smithycurl.h,
// where it is defined.
const Version = C.SMITHYCURL_VERSION

// DefaultUserAgent is sent when Config.UserAgent is empty.
const DefaultUserAgent = "smithycurl/" + Version

// Defaults applied by New to zero Config fields.
const (
	DefaultConnectTimeout   = 10 * time.Second
	DefaultTimeout          = 60 * time.Second
	DefaultMaxResponseBytes = 64 << 20
)

// Request is one HTTP request as the client sends it.
type Request struct {
	Method string // "GET" when empty
	URL    string // absolute, already percent-encoded: "https://host:port/path?query"
	Header wire.Header
	// Body is sent as is (Content-Length set by libcurl). A nil Body with
	// POST, PUT or PATCH sends an empty body; with other methods none.
	// The slice is read during Do only and never retained.
	Body []byte
	// BodyReader, when set, is the body instead of Body: libcurl reads it
	// while it sends (CURLOPT_READFUNCTION), so it is never held in memory.
	// BodySize is its length (sent as Content-Length), or -1 when unknown
	// (the body goes out with chunked transfer encoding, HTTP/1.1). Do
	// reads it once and never rewinds it, so libcurl never re-sends the
	// request on a fresh connection. A read error, or fewer bytes than
	// BodySize, fails the call (KindOther, the reader's error as cause).
	// Do calls Read on the goroutine that called Do.
	BodyReader io.Reader
	BodySize   int64
	// BodyWriter, when set, receives the body of a 2xx response while it
	// arrives, instead of Response.Body (Response.Streamed is then true);
	// the body of any other status is read into Response.Body as usual.
	// MaxResponseBytes does not limit what BodyWriter receives. A write
	// error fails the call (KindOther, the writer's error as cause); the
	// writer may have received part of the body by then.
	BodyWriter io.Writer
	// NoTimeout lifts Config.Timeout for this request: only ctx bounds it
	// (an event stream, whose caller watches for silence itself). The
	// connect timeout still applies.
	NoTimeout bool
	// OnBodyStart, when set with BodyWriter, is called with the status and
	// headers of a 2xx response before its first byte goes to BodyWriter
	// (to choose how to check the body; an event stream's initial
	// response), on the goroutine that called Do. It is not called for an
	// empty or unstreamed body. With a duplex BodyReader (a Waker) it is
	// called as soon as the headers are complete, empty body or not: the
	// response body may wait for the request's.
	OnBodyStart func(status int, header wire.Header)
	// DisplayURL, when set, stands for URL in errors and traces: the URL
	// without secrets (API keys, @sensitive labels and query values).
	DisplayURL string
	// SecretHeaders are the headers whose values traces show as REDACTED
	// (those bound to @sensitive members; credentials are the hook's job).
	SecretHeaders []string
	// Idempotent lets libcurl re-send the request on a fresh connection
	// when a reused keep-alive connection dies before any byte of the
	// response (its usual recovery from a stale connection). When false,
	// Do fails instead (KindOther, MayHaveReached): the server may have
	// received the request and acted on it.
	Idempotent bool
	// RawBody passes the response body on as the server sent it: its
	// Content-Encoding is not decoded (the header stays for the caller),
	// and the request asks for "Accept-Encoding: identity" unless Header
	// (or the Config's default headers) has an Accept-Encoding. For bodies that are data, not a document of
	// the protocol (a blob payload: an S3 object stored gzip-encoded is
	// its stored bytes, and its checksum is theirs). Otherwise every
	// encoding libcurl can decode is asked for and decoded.
	RawBody bool
	// TraceBody, when set with a Trace hook, writes a body for
	// TraceEvent.Body: the request's (status 0) and the response's. The
	// client sets it for binary bodies (CBOR in diagnostic notation, with
	// @sensitive values redacted); "" shows no body.
	TraceBody func(status int, header wire.Header, body []byte) string
}

// method is the request's method ("GET" when empty).
func (r *Request) method() string {
	if r.Method == "" {
		return "GET"
	}
	return r.Method
}

func (r *Request) shownURL() string {
	if r.DisplayURL != "" {
		return r.DisplayURL
	}
	return r.URL
}

// Transport sends one request and returns its full response. HTTP error
// statuses are responses, not errors; errors are *Error.
type Transport interface {
	Do(ctx context.Context, req *Request) (*wire.Response, error)
}

// HTTPVersion selects the HTTP protocol version.
type HTTPVersion int

const (
	// HTTPVersionAuto negotiates HTTP/2 by ALPN over TLS and uses HTTP/1.1
	// over cleartext.
	HTTPVersionAuto HTTPVersion = iota
	// HTTPVersion1 uses HTTP/1.1 only.
	HTTPVersion1
	// HTTPVersion2PriorKnowledge speaks HTTP/2 directly over cleartext (h2c
	// without upgrade); over TLS it behaves like HTTPVersionAuto.
	HTTPVersion2PriorKnowledge
)

// TracePhase tells whether a TraceEvent describes the request or its outcome.
type TracePhase int

const (
	TraceRequest TracePhase = iota
	TraceResponse
)

// TraceEvent is passed to Config.Trace. Header is a copy the hook may keep
// or modify; redaction (Authorization, Cookie, API keys) is the hook's job.
type TraceEvent struct {
	Phase  TracePhase
	Method string
	URL    string
	Header wire.Header // request headers as sent (TraceRequest) or response headers
	Status int         // TraceResponse only; 0 on error
	Err    error       // TraceResponse only
	Took   time.Duration
	// Body is the body as Request.TraceBody shows it, "" when not shown.
	Body string
}

// Config configures a Curl transport. The zero value is usable.
type Config struct {
	ConnectTimeout   time.Duration // 0: DefaultConnectTimeout
	Timeout          time.Duration // whole call; 0: DefaultTimeout
	MaxResponseBytes int64         // decoded body limit; 0: DefaultMaxResponseBytes; < 0: unlimited

	HTTPVersion HTTPVersion

	// CAFile is a PEM bundle of trusted CAs; empty uses the system store.
	CAFile string
	// ClientCertFile and ClientKeyFile (PEM) enable client certificates.
	ClientCertFile, ClientKeyFile string
	// InsecureSkipVerify disables TLS peer and host name verification.
	// DANGEROUS: anyone on the path can read and change the traffic. Tests only.
	InsecureSkipVerify bool

	// Proxy is a proxy URL ("http://proxy:3128", "socks5h://…"). Empty uses
	// libcurl's environment variables (http_proxy, HTTPS_PROXY, ALL_PROXY,
	// NO_PROXY); "-" disables proxies even if those are set.
	Proxy   string
	NoProxy string // comma-separated hosts that bypass the proxy

	// DefaultHeader is added to every request that does not set the same
	// header itself.
	DefaultHeader wire.Header
	UserAgent     string // empty: DefaultUserAgent

	// MaxIdleHandles bounds the pool of idle easy handles (each keeps its
	// connection alive); 0: 4 × GOMAXPROCS, at least 8.
	MaxIdleHandles int

	// Trace, when set, is called before each request and after its outcome.
	Trace func(TraceEvent)

	// Verbose turns on libcurl's own trace to stderr (CURLOPT_VERBOSE),
	// for debugging only: it prints headers unredacted.
	Verbose bool
}

// ErrClosed is the cause of errors from a closed Transport.
var ErrClosed = errors.New("transport: closed")

var (
	initOnce sync.Once
	initErr  error
	// liveHandles counts easy handles alive in all Curl transports.
	liveHandles atomic.Int64
	// shareInUse counts share handles a transport let go while an easy
	// handle still used them (kept, not freed: a defect the tests check
	// never happens).
	shareInUse atomic.Int64
)

func globalInit() error {
	initOnce.Do(func() {
		if err := curl.GlobalInit(curl.GLOBAL_ALL); err != nil {
			initErr = fmt.Errorf("transport: curl_global_init: %w", err)
		}
		acceptEncoding = acceptEncodingLine(C.curl_version_info(C.CURLVERSION_NOW).features)
	})
	return initErr
}

// acceptEncoding is the header line ("Name: value", no CRLF) that libcurl
// writes for CURLOPT_ACCEPT_ENCODING "" (every encoding it can decode, in
// its order), or "" when it can decode none. Do sends it as a header of
// its own: libcurl then skips formatting that line for every request
// (curl_maprintf, ~4,600 instructions a call) and still decodes the
// response, because CURLOPT_ACCEPT_ENCODING stays set on the handle.
var acceptEncoding string

func acceptEncodingLine(features C.int) string {
	var encs []string
	if features&C.CURL_VERSION_LIBZ != 0 {
		encs = append(encs, "deflate", "gzip")
	}
	if features&C.CURL_VERSION_BROTLI != 0 {
		encs = append(encs, "br")
	}
	if features&C.CURL_VERSION_ZSTD != 0 {
		encs = append(encs, "zstd")
	}
	if len(encs) == 0 {
		return ""
	}
	return "Accept-Encoding: " + strings.Join(encs, ", ")
}

// LiveHandles reports the number of libcurl easy handles currently alive in
// all Curl transports of the process (for leak checks).
func LiveHandles() int64 { return liveHandles.Load() }

// Curl is the libcurl Transport. It is safe for concurrent use. Each call
// takes an easy handle from a pool (one goroutine per handle at a time),
// so sequential calls to the same host reuse one keep-alive connection.
// DNS cache and TLS sessions are shared between the handles.
type Curl struct {
	cfg       Config
	maxBody   int64
	connectMS int64
	totalMS   int64
	defaults  []defaultHeader
	defaultAE bool // a default header is Accept-Encoding

	share unsafe.Pointer // CURLSH*

	mu     sync.Mutex
	idle   []*handle
	busy   map[*handle]struct{}
	live   int
	closed bool
}

type defaultHeader struct {
	name  string   // canonical
	lines []string // "Name: value"
}

type handle struct {
	easy       *curl.CURL
	c          *C.sc_handle
	strs       []byte // scratch: URL, method and header lines, NUL-terminated
	cancelDone chan struct{}
	cancelFn   func()
	// The engine's (engine.go): ref is this handle's cgo.Handle, in
	// c.e_ref; done receives the completion of its call.
	ref  cgo.Handle
	done chan struct{}
}

var _ Transport = (*Curl)(nil)

// New returns a libcurl transport.
func New(cfg Config) (*Curl, error) {
	if err := globalInit(); err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout < 0 || cfg.Timeout < 0 {
		return nil, errors.New("transport: negative timeout")
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxResponseBytes == 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.MaxIdleHandles <= 0 {
		cfg.MaxIdleHandles = max(8, 4*runtime.GOMAXPROCS(0))
	}
	if (cfg.ClientCertFile == "") != (cfg.ClientKeyFile == "") {
		return nil, errors.New("transport: ClientCertFile and ClientKeyFile go together")
	}
	if err := validText(cfg.UserAgent); err != nil {
		return nil, fmt.Errorf("transport: UserAgent: %w", err)
	}
	t := &Curl{
		cfg:       cfg,
		maxBody:   cfg.MaxResponseBytes,
		connectMS: ms(cfg.ConnectTimeout),
		totalMS:   ms(cfg.Timeout),
		busy:      make(map[*handle]struct{}),
	}
	if t.maxBody < 0 {
		t.maxBody = -1
	}
	for k, vs := range cfg.DefaultHeader {
		d := defaultHeader{name: textproto.CanonicalMIMEHeaderKey(k)}
		if err := validName(d.name); err != nil {
			return nil, fmt.Errorf("transport: DefaultHeader: %w", err)
		}
		for _, v := range vs {
			if err := validText(v); err != nil {
				return nil, fmt.Errorf("transport: DefaultHeader %s: %w", d.name, err)
			}
			line := appendHeader(nil, d.name, v)
			d.lines = append(d.lines, string(line[:len(line)-1]))
		}
		t.defaults = append(t.defaults, d)
		t.defaultAE = t.defaultAE || d.name == "Accept-Encoding"
	}
	t.share = C.sc_share_new()
	if t.share == nil {
		return nil, errors.New("transport: curl_share_init failed")
	}
	// Fail early on bad options (e.g. an unsupported HTTP version).
	h, err := t.newHandle()
	if err != nil {
		C.sc_share_free(t.share)
		return nil, err
	}
	t.mu.Lock()
	t.live++
	t.idle = append(t.idle, h)
	t.mu.Unlock()
	return t, nil
}

func ms(d time.Duration) int64 {
	m := d.Milliseconds()
	if m <= 0 && d > 0 {
		m = 1
	}
	return m
}

// newHandle creates an easy handle with every per-handle option set.
func (t *Curl) newHandle() (*handle, error) {
	e := curl.EasyInit()
	if e == nil || e.GetHandle() == nil {
		return nil, errors.New("transport: curl_easy_init failed")
	}
	c := C.sc_new(e.GetHandle(), t.share)
	if c == nil {
		e.Cleanup()
		return nil, errors.New("transport: out of memory")
	}
	h := &handle{easy: e, c: c, cancelDone: make(chan struct{}, 1)}
	h.cancelFn = func() {
		C.sc_cancel(h.c)
		h.cancelDone <- struct{}{}
	}
	cfg := &t.cfg
	type opt struct {
		name string
		o    int
		v    any
	}
	httpVer := 4 // CURL_HTTP_VERSION_2TLS
	switch cfg.HTTPVersion {
	case HTTPVersion1:
		httpVer = 2 // CURL_HTTP_VERSION_1_1
	case HTTPVersion2PriorKnowledge:
		httpVer = 5 // CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
	}
	opts := []opt{
		{"NOSIGNAL", curl.OPT_NOSIGNAL, 1},
		{"ACCEPT_ENCODING", int(C.CURLOPT_ACCEPT_ENCODING), ""}, // every encoding libcurl was built with
		{"USERAGENT", curl.OPT_USERAGENT, cfg.UserAgent},
		{"HTTP_VERSION", curl.OPT_HTTP_VERSION, httpVer},
		{"TCP_KEEPALIVE", int(C.CURLOPT_TCP_KEEPALIVE), 1},
		{"TCP_NODELAY", int(C.CURLOPT_TCP_NODELAY), 1},
		{"FOLLOWLOCATION", curl.OPT_FOLLOWLOCATION, 0},
		// Paths are sent as the codec wrote them: "/b/../key" is S3's key
		// "../key" in bucket b, which libcurl would otherwise squash.
		{"PATH_AS_IS", int(C.CURLOPT_PATH_AS_IS), 1},
	}
	if cfg.HTTPVersion == HTTPVersion2PriorKnowledge && C.curl_version_info(C.CURLVERSION_NOW).version_num < 0x080000 {
		// libcurl < 8.0.0 fails the second request on a reused prior-
		// knowledge h2c connection ("Error in the HTTP2 framing layer",
		// curl/curl#10634, fixed in 8.0.0): one connection per call there.
		opts = append(opts, opt{"FORBID_REUSE", int(C.CURLOPT_FORBID_REUSE), 1})
	}
	if cfg.Verbose {
		opts = append(opts, opt{"VERBOSE", curl.OPT_VERBOSE, 1})
	}
	if cfg.CAFile != "" {
		opts = append(opts, opt{"CAINFO", curl.OPT_CAINFO, cfg.CAFile})
	}
	if cfg.ClientCertFile != "" {
		opts = append(opts,
			opt{"SSLCERT", curl.OPT_SSLCERT, cfg.ClientCertFile},
			opt{"SSLKEY", curl.OPT_SSLKEY, cfg.ClientKeyFile})
	}
	if cfg.InsecureSkipVerify {
		opts = append(opts, opt{"SSL_VERIFYPEER", curl.OPT_SSL_VERIFYPEER, 0}, opt{"SSL_VERIFYHOST", curl.OPT_SSL_VERIFYHOST, 0})
	}
	switch cfg.Proxy {
	case "":
	case "-":
		opts = append(opts, opt{"PROXY", curl.OPT_PROXY, ""})
	default:
		opts = append(opts, opt{"PROXY", curl.OPT_PROXY, cfg.Proxy})
	}
	if cfg.NoProxy != "" {
		opts = append(opts, opt{"NOPROXY", int(C.CURLOPT_NOPROXY), cfg.NoProxy})
	}
	for _, o := range opts {
		// go-curl copies strings into C memory it frees in Cleanup; these
		// are set once per handle, so nothing accumulates.
		if err := e.Setopt(o.o, o.v); err != nil {
			t.freeHandle(h)
			return nil, fmt.Errorf("transport: CURLOPT_%s: %w", o.name, err)
		}
	}
	liveHandles.Add(1)
	return h, nil
}

func (t *Curl) freeHandle(h *handle) {
	if h.ref != 0 {
		h.ref.Delete()
		h.ref = 0
	}
	C.sc_free(h.c)
	h.easy.Cleanup()
	h.c = nil
}

func (t *Curl) acquire() (*handle, error) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, ErrClosed
	}
	if n := len(t.idle); n > 0 {
		h := t.idle[n-1]
		t.idle[n-1] = nil
		t.idle = t.idle[:n-1]
		// Reset the cancel flag under the lock: a Close after this point
		// cancels the call.
		atomic.StoreInt32((*int32)(unsafe.Pointer(&h.c.cancel)), 0)
		t.busy[h] = struct{}{}
		t.mu.Unlock()
		return h, nil
	}
	t.live++
	t.mu.Unlock()
	h, err := t.newHandle()
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.live--
		t.maybeFreeShareLocked()
		return nil, err
	}
	t.busy[h] = struct{}{}
	if t.closed {
		C.sc_cancel(h.c)
	}
	return h, nil
}

func (t *Curl) release(h *handle) {
	t.mu.Lock()
	delete(t.busy, h)
	if t.closed || len(t.idle) >= t.cfg.MaxIdleHandles {
		t.mu.Unlock()
		t.freeHandle(h)
		liveHandles.Add(-1)
		t.mu.Lock()
		// Counted out only now that the handle has left the share handle:
		// a count that reached 0 earlier let another release free the
		// share while this handle was still attached to it.
		t.live--
		t.maybeFreeShareLocked()
		t.mu.Unlock()
		return
	}
	t.idle = append(t.idle, h)
	t.mu.Unlock()
}

func (t *Curl) maybeFreeShareLocked() {
	if t.closed && t.live == 0 && t.share != nil {
		if C.sc_share_free(t.share) != 0 {
			shareInUse.Add(1)
		}
		t.share = nil
	}
}

// Close cancels calls in flight (they fail with KindCancelled and cause
// ErrClosed), frees idle handles and closes their connections. Handles in
// use are freed as their calls return. Later calls fail with ErrClosed.
func (t *Curl) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	idle := t.idle
	t.idle = nil
	for h := range t.busy {
		C.sc_cancel(h.c)
	}
	t.mu.Unlock()
	for _, h := range idle {
		t.freeHandle(h)
		liveHandles.Add(-1)
	}
	t.mu.Lock()
	t.live -= len(idle) // after the handles left the share handle (see release)
	t.maybeFreeShareLocked()
	t.mu.Unlock()
	return nil
}

// Stats describes the handle pool.
type Stats struct {
	Live int // easy handles alive (idle + busy)
	Idle int
	Busy int
}

// Stats returns the pool's current counts.
func (t *Curl) Stats() Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return Stats{Live: t.live, Idle: len(t.idle), Busy: len(t.busy)}
}

// Do sends req and returns the complete response. It honours ctx: its
// deadline caps the total timeout and its cancellation aborts the transfer.
func (t *Curl) Do(ctx context.Context, req *Request) (*wire.Response, error) {
	c, cerr := t.newCall(ctx, req)
	if cerr != nil {
		return nil, cerr
	}
	if err := t.budget(ctx, &c, 0); err != nil {
		return nil, err
	}
	h, herr := t.acquire()
	if herr != nil {
		return nil, c.acquireError(herr)
	}
	if err := t.fill(h, &c); err != nil {
		t.release(h)
		return nil, err
	}
	t.traceRequest(&c)

	stop := func() bool { return true }
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, h.cancelFn)
	}
	var st *stream
	var waker Waker
	if req.BodyReader != nil || req.BodyWriter != nil {
		st = &stream{r: req.BodyReader, remaining: req.BodySize, w: req.BodyWriter, onStart: req.OnBodyStart, c: h.c}
		ref := cgo.NewHandle(st)
		defer ref.Delete()
		w, duplex := req.BodyReader.(Waker)
		C.sc_stream(h.c, C.uintptr_t(ref), cBool(req.BodyWriter != nil), cBool(duplex && req.BodyWriter != nil))
		if duplex {
			hc := h.c
			w.SetWake(func() { C.sc_unpause(hc) })
			waker = w
		}
	}
	C.sc_perform(h.c, (*C.char)(unsafe.Pointer(unsafe.SliceData(h.strs))), C.int(c.nh), c.kind,
		c.bodyPtr(), c.bodyLen, C.long(c.connectMS), C.long(c.totalMS), C.longlong(t.maxBody),
		cBool(req.Idempotent && req.BodyReader == nil))
	if waker != nil {
		waker.SetWake(nil) // before the handle goes back to the pool
	}
	if !stop() {
		<-h.cancelDone // the AfterFunc ran (or is running): let it finish before reuse
	}
	resp, rerr := t.finish(ctx, h, &c, st)
	t.release(h)
	return t.traceResponse(&c, resp, rerr)
}

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// copyC copies n bytes of C memory into a new Go slice (never nil).
func copyC(p *C.char, n C.size_t) []byte {
	out := make([]byte, int(n))
	if n > 0 {
		copy(out, unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n)))
	}
	return out
}

func ctxKind(err error) Kind {
	if errors.Is(err, context.DeadlineExceeded) {
		return KindTimeout
	}
	return KindCancelled
}

// sentHeader is the header set as sent (request plus defaults), for Trace.
func (t *Curl) sentHeader(req *Request) wire.Header {
	out := req.Header.Clone()
	if out == nil {
		out = wire.Header{}
	}
	for _, h := range req.SecretHeaders {
		if out.Get(h) != "" {
			out.Set(h, "REDACTED")
		}
	}
	for k, vs := range t.cfg.DefaultHeader {
		ck := textproto.CanonicalMIMEHeaderKey(k)
		if !hasHeader(out, ck) {
			out[ck] = append([]string(nil), vs...)
		}
	}
	if out.Get("User-Agent") == "" {
		out.Set("User-Agent", t.cfg.UserAgent)
	}
	return out
}

// hasHeader reports whether h has name (canonical), in any letter case.
func hasHeader(h wire.Header, name string) bool {
	if h == nil {
		return false
	}
	if _, ok := h[name]; ok {
		return true
	}
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// appendHeader appends "k: v\0", or "k;\0" for an empty value (libcurl's
// way to send a header without a value).
func appendHeader(b []byte, k, v string) []byte {
	b = append(b, k...)
	if v == "" {
		return append(b, ';', 0)
	}
	b = append(b, ':', ' ')
	b = append(b, v...)
	return append(b, 0)
}

func validMethod(m string) error {
	for i := 0; i < len(m); i++ {
		c := m[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return fmt.Errorf("invalid method %q", m)
		}
	}
	return nil
}

func validName(k string) error {
	if k == "" {
		return errors.New("empty header name")
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c <= ' ' || c >= 0x7f || c == ':' {
			return fmt.Errorf("invalid header name %q", k)
		}
	}
	return nil
}

// validText refuses CR, LF and NUL in a header value. The error never shows
// the value: it may be a credential.
func validText(v string) error {
	if i := strings.IndexAny(v, "\r\n\x00"); i >= 0 {
		return fmt.Errorf("invalid header value: control character at byte %d", i)
	}
	return nil
}

// parseHeader parses the last header block libcurl delivered.
func parseHeader(p *C.char, n C.size_t) (wire.Header, []string) {
	if n == 0 {
		return make(wire.Header), nil
	}
	return parseHeaderBlock(C.GoStringN(p, C.int(n)))
}

// parseHeaderBlock parses a response header block: the status line, then
// one header per line up to the first empty line. names are the names as
// they were spelled on the wire where that is not their canonical form
// (wire.Response.Names).
func parseHeaderBlock(s string) (hdr wire.Header, names []string) {
	// Skip the status line.
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		return make(wire.Header), nil
	}
	s = s[i+1:]
	// One map sized for every line and one backing array for the values:
	// each name's first value is a one-element slice of it (capacity one,
	// so a second value of the same name moves that name to its own array).
	n := strings.Count(s, "\n") + 1
	hdr = make(wire.Header, n)
	vals := make([]string, 0, n)
	var last string
	for len(s) > 0 {
		var line string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			line, s = s, ""
		}
		line = strings.TrimSuffix(line, "\r")
		if strings.IndexByte(line, '\r') >= 0 {
			// A bare CR inside a line is replaced by a space (RFC 9112
			// 2.2): a value never carries a line break to the caller.
			line = strings.ReplaceAll(line, "\r", " ")
		}
		if line == "" {
			break
		}
		if (line[0] == ' ' || line[0] == '\t') && last != "" { // obsolete folding
			vs := hdr[last]
			vs[len(vs)-1] += " " + strings.TrimSpace(line)
			continue
		}
		i := strings.IndexByte(line, ':')
		if i <= 0 {
			continue
		}
		raw := strings.TrimRight(line[:i], " \t")
		k := textproto.CanonicalMIMEHeaderKey(raw)
		if k != raw {
			if names == nil {
				names = make([]string, 0, n)
			}
			names = append(names, raw)
		}
		v := strings.Trim(line[i+1:], " \t")
		if vs, ok := hdr[k]; ok {
			hdr[k] = append(vs, v)
		} else {
			vals = append(vals, v)
			hdr[k] = vals[len(vals)-1 : len(vals) : len(vals)]
		}
		last = k
	}
	return hdr, names
}
