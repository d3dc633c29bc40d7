package client

import (
	"context"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// Responder answers a client's calls in place of the service: client/stub
// implements it for the tests of a client's users. Respond gets the
// operation and the input as the caller gave it (encoded and checked
// first, as for any call) and returns the response the service would
// send, which the client decodes as a real one; its error fails the call
// (KindUsage). A call it answers is not signed, sent nor retried. Respond
// may be called from several goroutines at once.
type Responder interface {
	Respond(ctx context.Context, op *model.Operation, input []byte) (*wire.Response, error)
}

// WithResponder makes r answer every call of the client (see Responder).
func WithResponder(r Responder) Option {
	return optionFunc(func(o *options) { o.responder = r })
}

// SetResponder makes r answer the client's calls from now on, or, with
// nil, the service again: for stubs activated on a client made already
// (Python's Stubber.activate). A call in flight keeps the one it started
// with.
func (c *Client) SetResponder(r Responder) {
	if r == nil {
		c.responder.Store(nil)
		return
	}
	c.responder.Store(&r)
}

// responding is the transport of a call a Responder answers.
type responding struct {
	r     Responder
	op    *model.Operation
	input []byte
}

func (t responding) Do(ctx context.Context, req *transport.Request) (*wire.Response, error) {
	resp, err := t.r.Respond(ctx, t.op, t.input)
	if err != nil {
		return nil, &Error{Kind: KindUsage, Operation: t.op.Shape.ID, err: err}
	}
	if resp.Header == nil {
		resp.Header = wire.Header{}
	}
	if req.BodyWriter != nil && resp.Status/100 == 2 && len(resp.Body) > 0 {
		// As the transport streams a 2xx body to the caller's writer.
		if req.OnBodyStart != nil {
			req.OnBodyStart(resp.Status, resp.Header)
		}
		if _, err := req.BodyWriter.Write(resp.Body); err != nil {
			return nil, &Error{Kind: KindTransport, Operation: t.op.Shape.ID, err: fmt.Errorf("writing the response body: %w", err)}
		}
		resp.Body, resp.Streamed = nil, true
	}
	return resp, nil
}

// Model returns the model the client calls by.
func (c *Client) Model() *model.Model { return c.model }
