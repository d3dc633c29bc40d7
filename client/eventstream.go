package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// EventStream is the response of an operation whose output is an event
// stream (a @streaming union): its initial response, then its events as
// they arrive. The body is read from libcurl as the events are consumed
// and never held whole: at most one message (bounded by
// eventstream.DefaultMaxMessageLen), 256 KiB received ahead of the reader
// and libcurl's receive buffer are in memory. An EventStream is not safe for concurrent use; Close it when
// done (it ends the transfer if events are left).
type EventStream struct {
	op      *model.Operation
	es      protocol.EventStreams
	initial []byte
	status  int
	dec     *eventstream.Decoder
	pending *eventstream.Message // read before Events (the RPC protocols' first message)
	in      *duplexBody          // the input event stream's body (nil when none)
	body    *bodyPipe
	cancel  context.CancelFunc
	done    chan struct{} // closed when the transfer has ended
	err     error         // the error that ended Events, if any
	closing sync.Once
}

// head is what the transfer goroutine learns first: the status and headers
// of a 2xx response with a body, or the whole response, or an error.
type head struct {
	status int
	header wire.Header
	resp   *wire.Response
	err    error
}

// streamBuffer bounds the bytes received and not yet decoded.
const streamBuffer = 256 << 10

// errStreamClosed ends a transfer whose EventStream was closed.
var errStreamClosed = errors.New("event stream closed")

// idleError ends a stream whose network was silent for the client's
// timeout; it is a context.DeadlineExceeded (KindTimeout).
type idleError struct{ d time.Duration }

func (e *idleError) Error() string {
	return fmt.Sprintf("no data from the service for %v (the client's timeout)", e.d)
}

func (e *idleError) Unwrap() error { return context.DeadlineExceeded }

// CallStream sends operation, whose output holds an event stream, and
// returns once the initial response has arrived (with the first bytes of
// the stream, or the end of the response; for the RPC protocols, whose
// initial response is the stream's first message, once that message has
// arrived). Errors are *Error: an
// error response of the service (KindService) comes from CallStream, a
// modeled exception event or an error message from Events. The call is
// not retried. ctx (and WithCallTimeout) bounds the whole stream; the
// client's timeout (WithTimeout, default 60 s) is the longest the service
// may stay silent, before the initial response or between bytes of the
// stream (KindTimeout); the time the caller takes between events does not
// count.
func (c *Client) CallStream(ctx context.Context, operation string, input []byte, opts ...CallOption) (*EventStream, error) {
	return c.callStream(ctx, operation, input, false, opts)
}

// CallDuplex is CallStream for an operation whose input is an event stream
// too (Transcribe's StartStreamTranscription, Bedrock's bidirectional
// streams): the input document holds the other members, the events go
// with Send while Events reads the response's, and CloseSend ends the
// input stream. The request goes out while the response is read (HTTP/2,
// or chunked HTTP/1.1); with SigV4 each event is signed in a chain from
// the request's signature. Like CallStream it returns once the initial
// response has arrived, so a service must answer before it has events
// (the RPC protocols' initial-request message is sent first). Not safe
// to use from the C, Python and command-line front ends yet: Go only.
func (c *Client) CallDuplex(ctx context.Context, operation string, input []byte, opts ...CallOption) (*EventStream, error) {
	return c.callStream(ctx, operation, input, true, opts)
}

func (c *Client) callStream(ctx context.Context, operation string, input []byte, duplex bool, opts []CallOption) (*EventStream, error) {
	ctx, co, cancelOpts := applyCallOptions(ctx, opts)
	op, plan, req, body, err := c.prepare(ctx, operation, input, co, true, nil)
	if err != nil {
		cancelOpts()
		return nil, err
	}
	if !plan.eventStream {
		cancelOpts()
		return nil, usageError(op.Shape.ID, "operation %s has no event stream in its output; use Call", op.Name)
	}
	es := c.codec.(protocol.EventStreams)
	// The stream may last as long as ctx allows; the client's timeout is
	// the longest silence of the network instead (the reader being slow
	// does not count).
	idleFor := c.callTimeout()
	idleErr := &idleError{d: idleFor}
	ctx, cancel := context.WithCancelCause(ctx)
	idle := time.AfterFunc(idleFor, func() { cancel(idleErr) })
	stop := func() { idle.Stop(); cancel(errStreamClosed); cancelOpts() }
	req.NoTimeout = true
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", protocol.EventStreamMediaType)
	}
	if (plan.inEvents != "") != duplex {
		cancelOpts()
		if duplex {
			return nil, usageError(op.Shape.ID, "operation %s has no event stream in its input; use CallStream", op.Name)
		}
		return nil, usageError(op.Shape.ID, "operation %s: its input is an event stream (member %s): open it with CallDuplex (Go only for now)", op.Name, plan.inEvents)
	}
	var in *duplexBody
	if plan.inEvents != "" {
		var signer *sigv4.EventSigner
		if sv := body.auth.sigV4(); sv != nil {
			if sv.RegionSet != nil {
				cancelOpts()
				return nil, usageError(op.Shape.ID, "the endpoint chose SigV4a (sigv4a), and smithycurl does not sign the messages of an input event stream with SigV4a")
			}
			// Signed again with the event stream's payload hash; the
			// events are signed in a chain from this signature.
			req.Header.Set(sigv4.ContentSHA256Header, sigv4.StreamingEventsPayload)
			seed, err := sv.sign(req, c.skew.now())
			if err != nil {
				cancelOpts()
				return nil, usageError(op.Shape.ID, "signing the request: %v", err)
			}
			signer = sv.EventSigner(seed)
		}
		in = newDuplexBody(signer)
		if msg, ok, err := es.EncodeInitialMessage(ctx, op, input); err != nil {
			cancelOpts()
			return nil, classify(op.Shape.ID, err)
		} else if ok {
			b, err := eventstream.Append(nil, msg)
			if err == nil {
				err = in.queue(ctx, b, false)
			}
			if err != nil {
				cancelOpts()
				return nil, usageError(op.Shape.ID, "initial request: %v", err)
			}
		}
		req.BodyReader, req.BodySize = in, -1
	}
	pipe := newBodyPipe(streamBuffer)
	pipe.idle, pipe.idleFor = idle, idleFor
	heads := make(chan head, 1)
	done := make(chan struct{})
	sent := false
	req.BodyWriter = pipe
	req.OnBodyStart = func(status int, h wire.Header) {
		sent = true
		heads <- head{status: status, header: h}
	}
	start := time.Now()
	go func() {
		defer close(done)
		resp, err := c.transport.Do(ctx, req)
		if err != nil && context.Cause(ctx) == idleErr {
			err = idleErr
		}
		if c.opts.observer != nil {
			a := Attempt{Operation: op.Name, Number: 1, Took: time.Since(start), Response: resp}
			if resp != nil {
				a.Status = resp.Status
			}
			if err != nil {
				a.Err = classify(op.Shape.ID, err)
			}
			c.opts.observer(a)
		}
		pipe.CloseWrite(err)
		if in != nil {
			in.end(orErr(err, errStreamClosed))
		}
		if !sent {
			heads <- head{resp: resp, err: err}
		}
	}()
	h := <-heads
	fail := func(err error, resp *wire.Response) (*EventStream, error) {
		pipe.CloseRead(errStreamClosed)
		stop()
		<-done
		e := classify(op.Shape.ID, err)
		e.Attempts = 1
		if resp != nil {
			e.RequestID = requestID(resp)
			if e.Status == 0 {
				e.Status = resp.Status
			}
		}
		return nil, e
	}
	if h.err != nil {
		return fail(h.err, nil)
	}
	resp := h.resp
	if resp == nil {
		resp = &wire.Response{Status: h.status, Header: h.header}
	}
	initial, err := es.DecodeInitialResponse(ctx, op, resp)
	if err != nil {
		return fail(err, resp)
	}
	s := &EventStream{op: op, es: es, initial: initial, status: resp.Status, body: pipe, cancel: stop, done: done,
		dec: eventstream.NewDecoder(pipe, eventstream.Limits{}), in: in}
	if es.InitialInStream(op) {
		// The initial response is the stream's first message (RPC
		// protocols); a stream without one starts with its events.
		msg, err := s.dec.Next()
		switch {
		case err == io.EOF:
		case err != nil:
			s.Close()
			return nil, s.wrap(err)
		default:
			out, ok, err := es.DecodeInitialMessage(ctx, op, msg)
			switch {
			case err != nil:
				s.Close()
				return nil, s.wrap(err)
			case ok:
				s.initial = out
			default:
				s.pending = &msg
			}
		}
	}
	return s, nil
}

// Initial is the output without its event stream member: what the initial
// response carries (its HTTP headers and status for the REST protocols,
// the initial-response event for the RPC ones), in the document form.
func (s *EventStream) Initial() []byte { return s.initial }

// Events yields each event as it arrives, in the document form of the
// stream's union ({"MemberName": {...}}). It stops after the last event,
// or with one error: a modeled exception event or an error message
// (KindService; the stream ends there), a malformed or truncated message
// (KindDecode), a transport failure, or the context's end. Events of types
// the model does not know are skipped. Ranging again continues where the
// last range stopped.
func (s *EventStream) Events() iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		for s.err == nil {
			var msg eventstream.Message
			var err error
			if s.pending != nil {
				msg, s.pending = *s.pending, nil
			} else {
				msg, err = s.dec.Next()
			}
			if err == io.EOF {
				return
			}
			if err != nil {
				s.err = s.wrap(err)
				yield(nil, s.err)
				return
			}
			ev, err := s.es.DecodeEvent(context.Background(), s.op, msg)
			if err != nil {
				s.err = s.wrap(err)
				yield(nil, s.err)
				return
			}
			if ev == nil {
				continue
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// wrap turns an error that ended the stream into an *Error.
func (s *EventStream) wrap(err error) *Error {
	var fe *eventstream.Error
	var te *transport.Error
	if errors.As(err, &fe) && !errors.As(err, &te) {
		err = &protocol.ResponseError{Operation: s.op.Shape.ID, Status: s.status, Err: err}
	}
	e := classify(s.op.Shape.ID, err)
	e.Attempts = 1
	if e.Status == 0 {
		e.Status = s.status
	}
	return e
}

// Close ends the transfer (if events are left) and waits for libcurl to
// let go of the connection. It is safe to call more than once.
func (s *EventStream) Close() error {
	s.closing.Do(func() {
		if s.in != nil {
			s.in.end(errStreamClosed)
		}
		s.body.CloseRead(errStreamClosed)
		s.cancel()
		<-s.done
	})
	return nil
}

// orErr is err, or def when err is nil.
func orErr(err, def error) error {
	if err != nil {
		return err
	}
	return def
}

// String names the stream's operation.
func (s *EventStream) String() string { return fmt.Sprintf("event stream of %s", s.op.Name) }

// HasEventStream reports whether operation's output is an event stream
// this client reads: CallStream calls it, Call refuses it.
func (c *Client) HasEventStream(operation string) bool {
	op, err := c.svc.Operation(operation)
	return err == nil && c.plan(op).eventStream
}
