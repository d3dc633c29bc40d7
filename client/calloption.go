package client

import (
	"context"
	"io"
	"time"

	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// CallOption changes one call of Call (the typed clients' methods take
// them too). The client's own options stay as they are.
type CallOption interface{ applyCall(*callOptions) }

type callOptionFunc func(*callOptions)

func (f callOptionFunc) applyCall(o *callOptions) { f(o) }

type callOptions struct {
	timeout    time.Duration
	header     wire.Header
	bodyReader io.Reader
	bodySize   int64
	bodyWriter io.Writer
	payload    []byte         // WithPayload: not nil when given
	payloadOut *[]byte        // WithPayloadOutput
	outAlloc   protocol.Alloc // WithOutputBuffer
	engine     bool
	since      time.Time // QueuedSince
	signedAt   time.Time // WithSigningTime
	// interceptors: WithCallInterceptors
	interceptors []Interceptor
}

// WithCallTimeout bounds this call, retries included, when it is shorter
// than the client's timeout (WithTimeout) or a ctx deadline.
func WithCallTimeout(d time.Duration) CallOption {
	return callOptionFunc(func(o *callOptions) { o.timeout = d })
}

// QueuedSince says that the call was made at t and waited in a queue of
// the caller's before Call: its timeout (the client's, or WithCallTimeout)
// counts from t, so that the wait is part of it, as the engine's own
// queue is. A call whose time is over when it starts fails with
// KindTimeout, sending nothing. The C API's asynchronous calls use it.
func QueuedSince(t time.Time) CallOption {
	return callOptionFunc(func(o *callOptions) { o.since = t })
}

// WithCallHeader adds a header to this call's request, unless the request
// sets it itself (a header bound to an input member wins).
func WithCallHeader(name, value string) CallOption {
	return callOptionFunc(func(o *callOptions) {
		if o.header == nil {
			o.header = wire.Header{}
		}
		o.header.Add(name, value)
	})
}

// WithBodyReader sends the operation's streaming blob payload (an input
// member with @streaming bound to @httpPayload, S3 PutObject's Body) from
// r while the request goes out, instead of as base64 in the input document
// (which must then leave that member out). size is its length in bytes
// (Content-Length), or -1 when unknown: the body then goes out with chunked
// transfer encoding (HTTP/1.1). r is read on the calling goroutine, from
// its current position; when it is an io.Seeker a retry seeks back to that
// position, otherwise the call is never retried once r has been read (the
// error says so). A read error fails the call with that error as its cause.
func WithBodyReader(r io.Reader, size int64) CallOption {
	return callOptionFunc(func(o *callOptions) { o.bodyReader, o.bodySize = r, size })
}

// WithBodyWriter writes the streaming blob payload of a successful output
// (S3 GetObject's Body) to w as it arrives, without holding it in memory
// and without the max-response limit; the output document then leaves
// that member out. Error responses are read and decoded as usual. Once w
// has received a byte the call is not retried. A write error fails the
// call with that error as its cause; w may hold part of the body then.
func WithBodyWriter(w io.Writer) CallOption {
	return callOptionFunc(func(o *callOptions) { o.bodyWriter = w })
}

// WithPayload sends b as the request body: the value of the operation's
// blob payload (an input member bound to @httpPayload that targets a blob,
// streaming or not: S3 PutObject's Body, Lambda Invoke's Payload) given as
// bytes, instead of as base64 text in the input document, which must then
// leave that member out. b goes out as it is, without a copy, and again on
// a retry; it must not change until Call returns. Signing and checksums
// read it as they read a body from the document. A nil b is an empty body.
func WithPayload(b []byte) CallOption {
	return callOptionFunc(func(o *callOptions) {
		if b == nil {
			b = []byte{}
		}
		o.payload = b
	})
}

// WithPayloadOutput stores in *dst the blob payload of a successful output
// (an output member bound to @httpPayload that targets a blob: S3
// GetObject's Body, Lambda Invoke's Payload), the response body as it
// arrived, instead of as base64 text in the output document, which then
// leaves that member out. The body is copied once out of libcurl's buffer:
// into *dst's array when its capacity holds it (a caller reading object
// after object into one slice allocates nothing for them), else into a
// new one. An empty body is an empty, non-nil slice. Error responses are
// decoded as usual and leave *dst as it was (a 2xx response that fails a
// check, its checksum, may have been written into its array). Unlike
// WithBodyWriter the body is held in memory (under the
// client's maximum response size) and the call is retried as usual; with
// WithBodyWriter too, the writer takes the body and *dst is left alone.
func WithPayloadOutput(dst *[]byte) CallOption {
	return callOptionFunc(func(o *callOptions) { o.payloadOut = dst })
}

// WithOutputBuffer decodes the output document into memory alloc gives
// (a slice of length 0 and capacity at least size, the codec's estimate
// of the output's size; called once for each successful response
// decoded): the output Call returns lies in one of them when it fits,
// else in Go memory. The caller owns what alloc gave; nothing of the
// client keeps it after Call returns. Codecs that cannot (awsQuery,
// ec2Query) and outputs a customization rewrites are in Go memory. The
// C API decodes into its result's C buffer so: the output is written
// once where the caller reads it.
func WithOutputBuffer(alloc func(size int) []byte) CallOption { return outputBuffer(alloc) }

// outputBuffer is WithOutputBuffer's option: a func, held in a CallOption
// without an allocation.
type outputBuffer protocol.Alloc

func (a outputBuffer) applyCall(o *callOptions) { o.outAlloc = protocol.Alloc(a) }

// ViaEngine sends this call through the client's asynchronous engine (one
// libcurl multi loop for many calls in flight: the calling goroutine waits
// without holding an OS thread) instead of its pool of blocking handles.
// The engine is made on first use, once, with the client's transport
// options (timeouts, TLS, proxy, trace) and its WithEngineLimits; Close
// closes it. Results and errors are those of the blocking path; a call
// waiting for one of the engine's transfer slots counts that time against
// its timeout. Streamed bodies (WithBodyReader, WithBodyWriter) take the
// blocking path all the same, and so does a client with WithTransport.
// The C and Python asynchronous APIs use it for every call. Without it,
// a call takes the engine by itself when as many of the client's calls as
// there are Ps (GOMAXPROCS, at least two) are already under way and one
// of the engine's slots is free: goroutines beyond the Ps wait more
// cheaply on a channel than in libcurl on threads of their own.
func ViaEngine() CallOption {
	return callOptionFunc(func(o *callOptions) { o.engine = true })
}

// applyCallOptions applies opts to ctx and returns the other options; the
// cancel func releases the per-call timeout.
func applyCallOptions(ctx context.Context, opts []CallOption) (context.Context, callOptions, context.CancelFunc) {
	if len(opts) == 0 {
		return ctx, callOptions{}, func() {}
	}
	var o callOptions // on the heap (applyCall takes its address): only for calls with options
	for _, opt := range opts {
		if opt != nil {
			opt.applyCall(&o)
		}
	}
	cancel := context.CancelFunc(func() {})
	if o.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
	}
	return ctx, o, cancel
}
