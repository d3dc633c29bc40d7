package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/internal/jsonstr"
	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/transport"
)

// sendBuffer bounds the bytes of input events queued and not yet taken by
// libcurl: Send waits beyond it.
const sendBuffer = 256 << 10

// errSendClosed is Send after CloseSend or Close.
var errSendClosed = errors.New("the input event stream is closed")

// duplexBody is the request body of an input event stream: the messages
// Send queues, read by libcurl's read callback while the response
// arrives. Read never blocks: with nothing queued it returns
// transport.ErrNoDataYet (the upload pauses) and Send wakes it. With a
// signer, messages are signed in the order libcurl takes them, and an
// empty signed message ends the body.
type duplexBody struct {
	mu       sync.Mutex
	drained  *sync.Cond // signalled when Read takes bytes or the call ends
	buf      []byte     // ready to send
	off      int
	pending  [][]byte // messages to sign (with a signer)
	queued   int      // bytes in pending
	closed   bool     // CloseSend: the body ends once everything is read
	final    bool     // the final signed message is in buf
	err      error    // the call is over: Send fails with it
	wake     func()
	signer   *sigv4.EventSigner
	maxQueue int
}

func newDuplexBody(signer *sigv4.EventSigner) *duplexBody {
	d := &duplexBody{maxQueue: sendBuffer, signer: signer}
	d.drained = sync.NewCond(&d.mu)
	return d
}

// SetWake implements transport.Waker.
func (d *duplexBody) SetWake(wake func()) {
	d.mu.Lock()
	d.wake = wake
	d.mu.Unlock()
}

func (d *duplexBody) Read(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.off == len(d.buf) && d.signer != nil && (len(d.pending) > 0 || d.closed && !d.final) {
		var msg []byte
		if len(d.pending) > 0 {
			msg, d.pending = d.pending[0], d.pending[1:]
			d.queued -= len(msg)
		} else {
			d.final = true
		}
		var err error
		if d.buf, err = d.signer.Sign(d.buf[:0], msg, time.Now()); err != nil {
			return 0, err
		}
		d.off = 0
	}
	if d.off < len(d.buf) {
		n := copy(p, d.buf[d.off:])
		d.off += n
		if d.off == len(d.buf) {
			d.buf, d.off = d.buf[:0], 0
		}
		d.drained.Broadcast()
		return n, nil
	}
	if d.closed {
		return 0, io.EOF
	}
	return 0, transport.ErrNoDataYet
}

// queue adds one framed message, waiting while too much is queued; end
// closes the body after it.
func (d *duplexBody) queue(ctx context.Context, msg []byte, end bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		d.mu.Lock()
		d.drained.Broadcast()
		d.mu.Unlock()
	})
	defer stop()
	for d.err == nil && !d.closed && d.backlog() > 0 && d.backlog()+len(msg) > d.maxQueue {
		if err := ctx.Err(); err != nil {
			return err
		}
		d.drained.Wait()
	}
	switch {
	case d.err != nil:
		return d.err
	case d.closed:
		return errSendClosed
	}
	if len(msg) > 0 {
		if d.signer != nil {
			d.pending = append(d.pending, msg)
			d.queued += len(msg)
		} else {
			d.buf = append(d.buf, msg...)
		}
	}
	d.closed = end
	if d.wake != nil {
		d.wake()
	}
	return nil
}

// backlog is the bytes queued and not yet read.
func (d *duplexBody) backlog() int { return len(d.buf) - d.off + d.queued }

// end marks the call over: Send fails with err from now on.
func (d *duplexBody) end(err error) {
	d.mu.Lock()
	if d.err == nil {
		d.err = err
	}
	d.drained.Broadcast()
	d.mu.Unlock()
}

// Send writes one event of the operation's input event stream (the
// document form of its union, {"MemberName": {...}}) while the response
// streams: the event is encoded at once (an invalid one is a usage error
// and nothing is sent) and queued for libcurl, which sends it over the
// open request (HTTP/2, or chunked HTTP/1.1). Send waits while 256 KiB are
// queued; it may be called from another goroutine than Events, but not
// concurrently with itself or CloseSend.
func (s *EventStream) Send(ctx context.Context, event []byte) error {
	if s.in == nil {
		return usageError(s.op.Shape.ID, "operation %s has no event stream in its input", s.op.Name)
	}
	if msg := jsonstr.CheckText(event); msg != "" {
		return usageError(s.op.Shape.ID, "the event is %s", msg)
	}
	msg, err := s.es.EncodeEvent(ctx, s.op, event)
	if err != nil {
		return classify(s.op.Shape.ID, err)
	}
	return s.sendMessage(ctx, msg, false)
}

// CloseSend ends the input event stream; the response may go on. Close
// ends it too.
func (s *EventStream) CloseSend() error {
	if s.in == nil {
		return nil
	}
	err := s.in.queue(context.Background(), nil, true)
	if errors.Is(err, errSendClosed) {
		return nil
	}
	return err
}

func (s *EventStream) sendMessage(ctx context.Context, msg eventstream.Message, end bool) error {
	b, err := eventstream.Append(nil, msg)
	if err != nil {
		return usageError(s.op.Shape.ID, "event: %v", err)
	}
	if err := s.in.queue(ctx, b, end); err != nil {
		if errors.Is(err, errSendClosed) {
			return usageError(s.op.Shape.ID, "%v", err)
		}
		return classify(s.op.Shape.ID, fmt.Errorf("sending an event: %w", err))
	}
	return nil
}
