package protocol

import (
	"context"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/model"
)

// ResponseEvents is implemented by the codecs of EventStreams: it writes
// the events of a response stream, as a server sends them (a mock server:
// serve).
type ResponseEvents interface {
	// OutputEventStream is EventStreams.OutputEventStream.
	OutputEventStream(op *model.Operation) (member string, ok bool)
	// EncodeResponseEvent writes one event of op's response stream from
	// its union value, as EncodeEvent does for the request stream; a
	// member targeting an @error structure is an exception event.
	EncodeResponseEvent(ctx context.Context, op *model.Operation, event []byte) (eventstream.Message, error)
}

var (
	_ ResponseEvents = (*restCodec)(nil)
	_ ResponseEvents = (*rpcCodec)(nil)
)

func (c *restCodec) EncodeResponseEvent(ctx context.Context, op *model.Operation, event []byte) (eventstream.Message, error) {
	_, pm, err := c.streamPlan(ctx, op, true)
	if err != nil {
		return eventstream.Message{}, err
	}
	return c.events().encode(pm, event)
}

func (c *rpcCodec) EncodeResponseEvent(ctx context.Context, op *model.Operation, event []byte) (eventstream.Message, error) {
	_, pm, err := c.streamPlan(ctx, op, true)
	if err != nil {
		return eventstream.Message{}, err
	}
	return c.events().encode(pm, event)
}
