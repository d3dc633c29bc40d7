package transport

import (
	"io"
	"time"

	"github.com/smithycurl/smithycurl/wire"
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
	// Digest, when set, answers an HTTP digest challenge (a 401 with
	// "WWW-Authenticate: Digest") with its user and password: libcurl
	// sends the request a second time, with the Authorization it computes
	// (RFC 7616), on the same call.
	Digest *Digest
	// DisplayURL, when set, stands for URL in errors and traces: the URL
	// without secrets (API keys, @sensitive labels and query values).
	DisplayURL string
	// SecretHeaders are the headers whose values traces show as REDACTED
	// (those bound to @sensitive members; credentials are the hook's job).
	SecretHeaders []string
	// Idempotent lets libcurl re-send the request on a fresh connection
	// when a reused keep-alive connection dies before any byte of the
	// response (its usual recovery from a stale connection), a send no
	// caller sees. When false, Do fails instead (KindOther,
	// MayHaveReached): the server may have received the request and acted
	// on it. The client leaves it false: its retry loop makes that send
	// an attempt it counts, for idempotent operations only.
	Idempotent bool
	// RawBody passes the response body on as the server sent it: its
	// Content-Encoding is not decoded (the header stays for the caller),
	// and the request asks for "Accept-Encoding: identity" unless Header
	// (or the Config's default headers) has an Accept-Encoding. For bodies that are data, not a document of
	// the protocol (a blob payload: an S3 object stored gzip-encoded is
	// its stored bytes, and its checksum is theirs). Otherwise every
	// encoding libcurl can decode is asked for and decoded.
	RawBody bool
	// BodyBuffer, when its capacity holds the body of a 2xx response, is
	// where that body is copied (Response.Body then shares its array): a
	// caller reading object after object into one buffer allocates none.
	BodyBuffer []byte
	// Reuse, when set, is a response its caller is done with (nothing of
	// it, its header values or its body, is used anywhere any more): the
	// response to this request is written into it, its header map, values
	// and body array reused where they fit, so that a steady stream of
	// like calls allocates no response (the client's pool). Do returns
	// Reuse itself as the response; on failure Reuse is left as it was.
	// BodyBuffer, when set, is the 2xx body's array instead of Reuse's.
	// The client sets it only on the library's transports (Curl, Engine).
	Reuse *wire.Response
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

// Digest is the identity of HTTP digest authentication.
type Digest struct{ User, Password string }
