package protocol

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/internal/b64"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// EventStreamMediaType is the Content-Type of an event-stream body.
const EventStreamMediaType = "application/vnd.amazon.eventstream"

// EventStreams is implemented by the codecs that read and write Smithy
// event streams (a @streaming union member of an operation's input or
// output; the REST protocols bind it to the @httpPayload): the REST
// protocols and the RPC ones (awsJson1_0, awsJson1_1, rpcv2Cbor,
// rpcv2Json). The framing, the message types and the event structures
// (@eventHeader, @eventPayload) are shared (eventCodec); a protocol brings
// the format of the payloads (JSON, CBOR, XML) and where the initial
// response is: the HTTP response (REST) or the stream's first message, an
// event of type initial-response (RPC).
//
// Events are in the document form of the union: {"MemberName": {...}}.
type EventStreams interface {
	// OutputEventStream returns the name of the output member that holds
	// op's response event stream; ok is false when op has none.
	OutputEventStream(op *model.Operation) (member string, ok bool)
	// InputEventStream is the same for the request.
	InputEventStream(op *model.Operation) (member string, ok bool)
	// DecodeInitialResponse reads the HTTP response that opens the stream
	// (status and headers; the body is the stream and is not looked at)
	// into the output without its stream member, or returns the error an
	// error status carries (resp.Body then holds the whole error body).
	// A @required header member that is absent is a *ResponseError. When
	// InitialInStream, the output it returns has no member of its own
	// (the defaults only): the initial response is the stream's first
	// message.
	DecodeInitialResponse(ctx context.Context, op *model.Operation, resp *wire.Response) ([]byte, error)
	// InitialInStream reports whether op's initial response is the first
	// message of its response stream (an event of type initial-response:
	// the RPC protocols) rather than the HTTP response (REST).
	InitialInStream(op *model.Operation) bool
	// DecodeInitialMessage reads an initial-response message into the
	// output without its stream member; ok is false when msg is another
	// message (the service sent no initial response: msg is the first
	// message of the stream proper). It always returns false when the
	// initial response is not in the stream.
	DecodeInitialMessage(ctx context.Context, op *model.Operation, msg eventstream.Message) (out []byte, ok bool, err error)
	// DecodeEvent reads one message of the response stream: an event
	// gives its union value; a modeled exception event is a *ServiceError
	// naming the error shape; an error message (:message-type error) is
	// an unmodeled *ServiceError with its :error-code and :error-message;
	// a malformed message is a *ResponseError. An event of a type the
	// model does not know returns nil, nil: clients skip it (the service
	// may be newer than the model).
	DecodeEvent(ctx context.Context, op *model.Operation, msg eventstream.Message) ([]byte, error)
	// EncodeInitialMessage writes the initial-request message of op's
	// request stream from the input (its members but the stream's), for
	// the protocols whose initial request is in the stream (RPC); ok is
	// false for the others, whose EncodeRequest binds the input to the
	// HTTP request.
	EncodeInitialMessage(ctx context.Context, op *model.Operation, input []byte) (msg eventstream.Message, ok bool, err error)
	// EncodeEvent writes one event of the request stream from its union
	// value; a member targeting an @error structure is an exception event.
	EncodeEvent(ctx context.Context, op *model.Operation, event []byte) (eventstream.Message, error)
}

var _ EventStreams = (*restCodec)(nil)

// streamMember returns the streaming union member bound to b's payload.
func streamMember(b *binding) *memberCodec {
	if pm := b.payload; pm != nil && pm.streaming && pm.target.kind == kUnion {
		return pm
	}
	return nil
}

func (c *restCodec) OutputEventStream(op *model.Operation) (string, bool) {
	p, err := c.plans.get(op)
	if err != nil {
		return "", false
	}
	if pm := streamMember(p.out); pm != nil {
		return pm.name, true
	}
	return "", false
}

func (c *restCodec) InputEventStream(op *model.Operation) (string, bool) {
	p, err := c.plans.get(op)
	if err != nil {
		return "", false
	}
	if pm := streamMember(p.in); pm != nil {
		return pm.name, true
	}
	return "", false
}

func (c *restCodec) streamPlan(ctx context.Context, op *model.Operation, output bool) (*opPlan, *memberCodec, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	p, err := c.plans.get(op)
	if err != nil {
		return nil, nil, err
	}
	b, what := p.in, "input"
	if output {
		b, what = p.out, "output"
	}
	pm := streamMember(b)
	if pm == nil {
		return nil, nil, fmt.Errorf("operation %s has no event stream in its %s", op.Shape.ID, what)
	}
	return p, pm, nil
}

func (c *restCodec) DecodeInitialResponse(ctx context.Context, op *model.Operation, resp *wire.Response) ([]byte, error) {
	p, _, err := c.streamPlan(ctx, op, true)
	if err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > c.d.successMax {
		return nil, c.decodeError(p, resp)
	}
	head := *resp
	head.Body = nil
	out, err := c.decodeBound(p.out, &head, nil)
	if err != nil {
		return nil, &ResponseError{Operation: op.Shape.ID, Status: resp.Status, Err: fmt.Errorf("initial response: %w", err)}
	}
	for _, mc := range p.out.headers {
		if _, ok := headerValues(resp.Header, mc.locName); mc.required && !ok {
			return nil, &ResponseError{Operation: op.Shape.ID, Status: resp.Status,
				Err: fmt.Errorf("initial response: the required member %s (header %s) is missing", mc.name, mc.locName)}
		}
	}
	return out, nil
}

func (c *restCodec) InitialInStream(*model.Operation) bool { return false }

func (c *restCodec) EncodeInitialMessage(context.Context, *model.Operation, []byte) (eventstream.Message, bool, error) {
	return eventstream.Message{}, false, nil
}

func (c *restCodec) DecodeInitialMessage(context.Context, *model.Operation, eventstream.Message) ([]byte, bool, error) {
	return nil, false, nil
}

// eventFail is a malformed message of op's response stream.
func eventFail(op *model.Operation, format string, args ...any) error {
	return &ResponseError{Operation: op.Shape.ID, Status: 200, Err: fmt.Errorf("event stream: "+format, args...)}
}

// stringHeader returns the string header name; ok is false when it is
// absent, and an error when it has another type.
func stringHeader(msg *eventstream.Message, name string) (string, bool, error) {
	v, ok := msg.Get(name)
	if !ok {
		return "", false, nil
	}
	if v.Type != eventstream.String {
		return "", true, fmt.Errorf("header %s is a %s, not a string", name, v.Type)
	}
	return v.Str(), true, nil
}

func (c *restCodec) DecodeEvent(ctx context.Context, op *model.Operation, msg eventstream.Message) ([]byte, error) {
	_, pm, err := c.streamPlan(ctx, op, true)
	if err != nil {
		return nil, err
	}
	return c.events().decode(op, pm, msg)
}

// eventCodec reads and writes the messages of event streams for every
// protocol: body is the protocol's format of event payloads.
type eventCodec struct {
	body restBody
	json *jsonOptions
}

func (c *restCodec) events() eventCodec { return eventCodec{body: c.body, json: &c.json} }

// decode reads one message of op's response stream, whose union is pm's
// target (EventStreams.DecodeEvent).
func (e eventCodec) decode(op *model.Operation, pm *memberCodec, msg eventstream.Message) ([]byte, error) {
	mt, ok, err := stringHeader(&msg, ":message-type")
	if err != nil {
		return nil, eventFail(op, "%v", err)
	}
	if !ok {
		return nil, eventFail(op, "a message has no :message-type header")
	}
	switch mt {
	case "event":
		et, ok, err := stringHeader(&msg, ":event-type")
		if err != nil {
			return nil, eventFail(op, "%v", err)
		}
		if !ok {
			return nil, eventFail(op, "an event has no :event-type header")
		}
		mc, known := pm.target.byName[et]
		if !known || mc.target.shape.HasTrait(model.TraitError) {
			return nil, nil
		}
		body, err := e.decodeStruct(mc.target, &msg)
		if err != nil {
			return nil, eventFail(op, "event %s: %v", et, err)
		}
		w := objectWriter{dst: make([]byte, 0, len(body)+len(et)+8)}
		w.dst = append(w.dst, '{')
		w.member(mc)
		w.dst = append(w.dst, body...)
		return append(w.dst, '}'), nil
	case "exception":
		et, ok, err := stringHeader(&msg, ":exception-type")
		if err != nil {
			return nil, eventFail(op, "%v", err)
		}
		if !ok {
			return nil, eventFail(op, "an exception has no :exception-type header")
		}
		mc, known := pm.target.byName[et]
		if !known || !mc.target.shape.HasTrait(model.TraitError) {
			return nil, &ServiceError{Code: sanitizeErrorType(et), Status: 200, Members: msg.Payload, Message: messageOf(msg.Payload)}
		}
		members, err := e.decodeStruct(mc.target, &msg)
		if err != nil {
			return nil, eventFail(op, "exception %s: %v", et, err)
		}
		id := mc.target.shape.ID
		return nil, &ServiceError{Shape: id, Code: id.Name(), Status: 200, Members: members, Message: errorMessage(members, msg.Payload)}
	case "error":
		code, _, err := stringHeader(&msg, ":error-code")
		if err != nil {
			return nil, eventFail(op, "%v", err)
		}
		text, _, err := stringHeader(&msg, ":error-message")
		if err != nil {
			return nil, eventFail(op, "%v", err)
		}
		return nil, &ServiceError{Code: sanitizeErrorType(code), Status: 200, Members: []byte("{}"), Message: text}
	}
	return nil, eventFail(op, "unknown :message-type %q", mt)
}

// decodeStruct reads an event structure from a message: @eventHeader
// members from its headers, the @eventPayload member from the payload, or
// else the other members from the payload as a document body.
func (e eventCodec) decodeStruct(sc *shapeCodec, msg *eventstream.Message) ([]byte, error) {
	w := objectWriter{dst: make([]byte, 0, len(msg.Payload)+len(msg.Payload)/4+32)}
	w.dst = append(w.dst, '{')
	var payload *memberCodec
	var body []*memberCodec
	for _, mc := range sc.members {
		switch {
		case mc.member.Traits.Has(model.TraitEventHeader):
			v, ok := msg.Get(mc.name)
			if !ok {
				continue
			}
			doc, err := e.headerDoc(v, mc)
			if err != nil {
				return nil, fmt.Errorf("header %s: %w", mc.name, err)
			}
			w.seen.add(memberIndex(sc, mc))
			w.member(mc)
			w.dst = append(w.dst, doc...)
		case mc.member.Traits.Has(model.TraitEventPayload):
			payload = mc
		default:
			body = append(body, mc)
		}
	}
	switch {
	case payload != nil:
		switch payload.target.kind {
		case kBlob:
			w.seen.add(memberIndex(sc, payload))
			w.member(payload)
			w.dst = append(w.dst, '"')
			w.dst = b64.AppendEncode(w.dst, msg.Payload)
			w.dst = append(w.dst, '"')
		case kString, kEnum:
			if !utf8.Valid(msg.Payload) {
				return nil, fmt.Errorf("payload %s is not UTF-8", payload.name)
			}
			w.seen.add(memberIndex(sc, payload))
			w.member(payload)
			w.dst = appendString(w.dst, msg.Payload)
		default:
			if len(bytes.TrimSpace(msg.Payload)) > 0 {
				v, set, err := e.body.decodePayload(nil, payload, msg.Payload)
				if err != nil {
					return nil, fmt.Errorf("payload %s: %w", payload.name, err)
				}
				if set {
					w.seen.add(memberIndex(sc, payload))
					w.member(payload)
					w.dst = append(w.dst, v...)
				}
			}
		}
	case len(body) > 0 && len(bytes.TrimSpace(msg.Payload)) > 0:
		if err := e.body.decodeMembers(&w, &binding{sc: sc, body: body}, msg.Payload); err != nil {
			return nil, fmt.Errorf("payload: %w", err)
		}
	}
	e.json.addDefaults(&w, sc)
	return append(w.dst, '}'), nil
}

// headerDoc converts a typed event header to the document form of mc.
func (e eventCodec) headerDoc(v eventstream.Value, mc *memberCodec) ([]byte, error) {
	want := func(t string) error { return fmt.Errorf("a %s header cannot be read as a %s", v.Type, t) }
	switch mc.target.kind {
	case kBool:
		if v.Type != eventstream.BoolTrue && v.Type != eventstream.BoolFalse {
			return nil, want("boolean")
		}
		return strconv.AppendBool(nil, v.Bool()), nil
	case kInt, kIntEnum:
		switch v.Type {
		case eventstream.Byte, eventstream.Short, eventstream.Int, eventstream.Long:
		default:
			return nil, want("integer")
		}
		// The header's width need not be the member's (a long header for
		// a byte member): checked as any output number is.
		return checkNumber(strconv.AppendInt(nil, v.Int, 10), mc.target)
	case kBlob:
		if v.Type != eventstream.Bytes {
			return nil, want("blob")
		}
		out := append([]byte{'"'}, base64.StdEncoding.EncodeToString(v.Bytes)...)
		return append(out, '"'), nil
	case kString, kEnum:
		if v.Type != eventstream.String {
			return nil, want("string")
		}
		return appendString(nil, v.Bytes), nil
	case kTimestamp:
		if v.Type != eventstream.Timestamp {
			return nil, want("timestamp")
		}
		return e.json.appendDocTimestamp(nil, fromTime(v.Time())), nil
	}
	return nil, fmt.Errorf("a %s cannot be an event header", kindName(mc.target))
}

func (c *restCodec) EncodeEvent(ctx context.Context, op *model.Operation, event []byte) (eventstream.Message, error) {
	_, pm, err := c.streamPlan(ctx, op, false)
	if err != nil {
		return eventstream.Message{}, err
	}
	return c.events().encode(pm, event)
}

// encode writes one event of a request stream, whose union is pm's target,
// from its union value (EventStreams.EncodeEvent).
func (e eventCodec) encode(pm *memberCodec, event []byte) (eventstream.Message, error) {
	vals, err := topLevel(pm.target, event)
	if err != nil {
		return eventstream.Message{}, &InputError{Err: fmt.Errorf("event: %w", err)}
	}
	var mc *memberCodec
	var raw []byte
	for i, v := range vals {
		if v == nil {
			continue
		}
		if mc != nil {
			return eventstream.Message{}, &InputError{Err: fmt.Errorf("event: a union value has one member, found %s and %s", mc.name, pm.target.members[i].name)}
		}
		mc, raw = pm.target.members[i], v
	}
	if mc == nil {
		return eventstream.Message{}, &InputError{Err: fmt.Errorf("event: no member of %s is set", pm.target.shape.ID)}
	}
	msg, err := e.encodeStruct(mc, raw)
	if err != nil {
		return eventstream.Message{}, &InputError{Err: fmt.Errorf("event %s: %w", mc.name, err)}
	}
	return msg, nil
}

// encodeStruct writes the event ev (a member of the stream's union) from
// its value.
func (e eventCodec) encodeStruct(ev *memberCodec, raw []byte) (eventstream.Message, error) {
	var msg eventstream.Message
	if ev.target.shape.HasTrait(model.TraitError) {
		msg.Headers = append(msg.Headers,
			eventstream.Header{Name: ":message-type", Value: eventstream.StringValue("exception")},
			eventstream.Header{Name: ":exception-type", Value: eventstream.StringValue(ev.name)})
	} else {
		msg.Headers = append(msg.Headers,
			eventstream.Header{Name: ":message-type", Value: eventstream.StringValue("event")},
			eventstream.Header{Name: ":event-type", Value: eventstream.StringValue(ev.name)})
	}
	sc := ev.target
	vals, err := topLevel(sc, raw)
	if err != nil {
		return msg, err
	}
	var headers []eventstream.Header
	var payload *memberCodec
	var body []*memberCodec
	for i, mc := range sc.members {
		switch {
		case mc.member.Traits.Has(model.TraitEventHeader):
			if vals[i] == nil {
				continue
			}
			v, err := headerValue(vals[i], mc)
			if err != nil {
				return msg, inMember(err, mc.name)
			}
			headers = append(headers, eventstream.Header{Name: mc.name, Value: v})
		case mc.member.Traits.Has(model.TraitEventPayload):
			payload = mc
		default:
			body = append(body, mc)
		}
	}
	contentType := ""
	switch {
	case payload != nil:
		v := vals[memberIndex(sc, payload)]
		if v == nil {
			break
		}
		s := scanner{data: v}
		switch payload.target.kind {
		case kBlob:
			b, err := s.strBytes()
			if err == nil {
				msg.Payload, err = base64.StdEncoding.AppendDecode(nil, b)
			}
			if err != nil {
				return msg, inMember(fmt.Errorf("invalid base64: %v", err), payload.name)
			}
			contentType = orDefault(payload.mediaType, "application/octet-stream")
		case kString, kEnum:
			str, err := s.str()
			if err != nil {
				return msg, inMember(err, payload.name)
			}
			msg.Payload = []byte(str)
			contentType = orDefault(payload.mediaType, "text/plain")
		default:
			if msg.Payload, err = e.body.encodePayload(payload, v); err != nil {
				return msg, inMember(err, payload.name)
			}
			contentType = e.body.mediaType()
		}
	case len(body) > 0:
		any := false
		for _, mc := range body {
			any = any || vals[memberIndex(sc, mc)] != nil
		}
		if any {
			if msg.Payload, err = e.body.encodeMembers(&binding{sc: sc, body: body}, func(mc *memberCodec) []byte {
				return vals[memberIndex(sc, mc)]
			}); err != nil {
				return msg, err
			}
			contentType = e.body.mediaType()
		}
	}
	if contentType != "" {
		msg.Headers = append(msg.Headers, eventstream.Header{Name: ":content-type", Value: eventstream.StringValue(contentType)})
	}
	msg.Headers = append(msg.Headers, headers...)
	return msg, nil
}

// headerValue converts a member's document-form value to a typed header.
func headerValue(raw []byte, mc *memberCodec) (eventstream.Value, error) {
	s := scanner{data: raw}
	switch mc.target.kind {
	case kBool:
		switch string(bytes.TrimSpace(raw)) {
		case "true":
			return eventstream.BoolValue(true), nil
		case "false":
			return eventstream.BoolValue(false), nil
		}
		return eventstream.Value{}, typeError("a boolean")
	case kInt, kIntEnum:
		lit, err := s.number()
		if err != nil {
			return eventstream.Value{}, err
		}
		n, err := strconv.ParseInt(string(lit), 10, 64)
		if err != nil {
			return eventstream.Value{}, typeError("an integer")
		}
		t := eventstream.Long
		switch mc.target.bits {
		case 8:
			t = eventstream.Byte
		case 16:
			t = eventstream.Short
		case 32:
			t = eventstream.Int
		}
		if b := mc.target.bits; b > 0 && b < 64 && (n < -1<<(b-1) || n >= 1<<(b-1)) {
			return eventstream.Value{}, badValue(fmt.Sprintf("%d does not fit in %d bits", n, b))
		}
		return eventstream.Value{Type: t, Int: n}, nil
	case kBlob:
		b, err := s.strBytes()
		if err != nil {
			return eventstream.Value{}, err
		}
		dec, err := base64.StdEncoding.AppendDecode(nil, b)
		if err != nil {
			return eventstream.Value{}, badValue("invalid base64")
		}
		return eventstream.Value{Type: eventstream.Bytes, Bytes: dec}, nil
	case kString, kEnum:
		str, err := s.str()
		if err != nil {
			return eventstream.Value{}, err
		}
		return eventstream.StringValue(str), nil
	case kTimestamp:
		t, err := readDocTimestamp(&s)
		if err != nil {
			return eventstream.Value{}, err
		}
		return eventstream.TimeValue(t.time()), nil
	}
	return eventstream.Value{}, fmt.Errorf("a %s cannot be an event header", kindName(mc.target))
}
