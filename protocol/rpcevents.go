package protocol

import (
	"context"
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Event streams of the RPC protocols (awsJson1_0, awsJson1_1, rpcv2Cbor,
// rpcv2Json): the stream is the whole body; its initial request and
// response are its first messages, events of type initial-request and
// initial-response whose payload holds every other member of the input or
// output in the protocol's format. Event payloads are in that format too
// (JSON, or CBOR for rpcv2Cbor); the rest is the shared eventCodec.

var _ EventStreams = (*rpcCodec)(nil)

// Event types of the initial messages of the RPC protocols.
const (
	initialRequest  = "initial-request"
	initialResponse = "initial-response"
)

// unionStream returns the member of sc that is an event stream (a
// @streaming union), or nil.
func unionStream(sc *shapeCodec) *memberCodec {
	for _, mc := range sc.members {
		if mc.streaming && mc.target.kind == kUnion {
			return mc
		}
	}
	return nil
}

func (c *rpcCodec) events() eventCodec {
	return eventCodec{body: c.format.eventBody(), json: &c.json}
}

func (c *rpcCodec) OutputEventStream(op *model.Operation) (string, bool) {
	return c.streamName(op, true)
}

func (c *rpcCodec) InputEventStream(op *model.Operation) (string, bool) {
	return c.streamName(op, false)
}

func (c *rpcCodec) streamName(op *model.Operation, output bool) (string, bool) {
	p, err := c.plans.get(op)
	if err != nil {
		return "", false
	}
	mc := p.inStream
	if output {
		mc = p.outStream
	}
	if mc == nil {
		return "", false
	}
	return mc.name, true
}

func (c *rpcCodec) streamPlan(ctx context.Context, op *model.Operation, output bool) (*rpcPlan, *memberCodec, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	p, err := c.plans.get(op)
	if err != nil {
		return nil, nil, err
	}
	mc, what := p.inStream, "input"
	if output {
		mc, what = p.outStream, "output"
	}
	if mc == nil {
		return nil, nil, fmt.Errorf("operation %s has no event stream in its %s", op.Shape.ID, what)
	}
	return p, mc, nil
}

func (c *rpcCodec) DecodeInitialResponse(ctx context.Context, op *model.Operation, resp *wire.Response) ([]byte, error) {
	p, _, err := c.streamPlan(ctx, op, true)
	if err != nil {
		return nil, err
	}
	if err := c.checkSmithyProtocol(op, resp); err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, c.decodeError(p, resp)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), EventStreamMediaType) {
		return nil, &ResponseError{Operation: op.Shape.ID, Status: resp.Status,
			Err: fmt.Errorf("initial response: Content-Type is %q, want %s", ct, EventStreamMediaType)}
	}
	// The output's members come with the initial-response event, if any.
	return c.format.decodeStruct(p.out, nil, nil)
}

func (c *rpcCodec) InitialInStream(*model.Operation) bool { return true }

func (c *rpcCodec) DecodeInitialMessage(ctx context.Context, op *model.Operation, msg eventstream.Message) ([]byte, bool, error) {
	p, _, err := c.streamPlan(ctx, op, true)
	if err != nil {
		return nil, false, err
	}
	mt, _, err := stringHeader(&msg, ":message-type")
	if err != nil || mt != "event" {
		return nil, false, nil
	}
	if et, _, err := stringHeader(&msg, ":event-type"); err != nil || et != initialResponse {
		return nil, false, nil
	}
	out, err := c.format.decodeStruct(p.out, msg.Payload, nil)
	if err != nil {
		return nil, true, eventFail(op, "%s: %v", initialResponse, err)
	}
	return out, true, nil
}

func (c *rpcCodec) EncodeInitialMessage(ctx context.Context, op *model.Operation, input []byte) (eventstream.Message, bool, error) {
	p, vals, err := startRequest(ctx, &c.plans, &c.cfg, op, input)
	if err != nil {
		return eventstream.Message{}, false, err
	}
	if p.inStream == nil {
		return eventstream.Message{}, false, fmt.Errorf("operation %s has no event stream in its input", op.Shape.ID)
	}
	vals[p.inStream.index] = nil
	body, err := c.format.encodeInput(p.in, vals)
	if err != nil {
		return eventstream.Message{}, false, &InputError{Operation: op.Shape.ID, Err: err}
	}
	return eventstream.Message{Headers: []eventstream.Header{
		{Name: ":message-type", Value: eventstream.StringValue("event")},
		{Name: ":event-type", Value: eventstream.StringValue(initialRequest)},
		{Name: ":content-type", Value: eventstream.StringValue(c.format.eventBody().mediaType())},
	}, Payload: body}, true, nil
}

func (c *rpcCodec) DecodeEvent(ctx context.Context, op *model.Operation, msg eventstream.Message) ([]byte, error) {
	_, pm, err := c.streamPlan(ctx, op, true)
	if err != nil {
		return nil, err
	}
	return c.events().decode(op, pm, msg)
}

func (c *rpcCodec) EncodeEvent(ctx context.Context, op *model.Operation, event []byte) (eventstream.Message, error) {
	_, pm, err := c.streamPlan(ctx, op, false)
	if err != nil {
		return eventstream.Message{}, err
	}
	return c.events().encode(pm, event)
}

// cborBody is the CBOR format of rpcv2Cbor's event payloads.
type cborBody struct{ o *jsonOptions }

func (cborBody) mediaType() string    { return "application/cbor" }
func (cborBody) emptyPayload() []byte { return nil }

func (b cborBody) encodeMembers(bd *binding, val func(*memberCodec) []byte) ([]byte, error) {
	vals := make([][]byte, len(bd.sc.members))
	for _, mc := range bd.body {
		vals[mc.index] = val(mc)
	}
	return b.o.encodeCBORInput(bd.sc, vals)
}

func (b cborBody) encodePayload(pm *memberCodec, raw []byte) ([]byte, error) {
	s := scanner{data: raw}
	return b.o.encodeCBORValue(nil, &s, pm)
}

func (b cborBody) decodeMembers(w *objectWriter, bd *binding, body []byte) error {
	r := cbor.NewReader(body)
	if err := b.o.decodeCBORFields(w, r, bd.sc); err != nil {
		return err
	}
	if !r.AtEnd() {
		return badValue("data after the CBOR payload")
	}
	return nil
}

func (b cborBody) decodePayload(dst []byte, pm *memberCodec, body []byte) ([]byte, bool, error) {
	r := cbor.NewReader(body)
	if r.IsNull() {
		return dst, false, nil
	}
	out, err := b.o.decodeCBORValue(dst, r, pm)
	if err == nil && !r.AtEnd() {
		err = badValue("data after the CBOR payload")
	}
	return out, true, err
}
