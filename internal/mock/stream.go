package mock

import (
	"context"
	"fmt"
	"strconv"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// randomEvents is how many events a random event-stream answer has.
const randomEvents = 3

// outputStream is the member of op's output that is its response event
// stream, by the service's codec; nil when it has none.
func (s *Server) outputStream(op *model.Operation) *model.Member {
	if s.events == nil {
		return nil
	}
	name, ok := s.events.OutputEventStream(op)
	if !ok {
		return nil
	}
	mem, _ := op.Output.Member(name)
	return mem
}

// renderStream renders an event-stream output: the initial response (the
// HTTP response of the REST protocols; the first message of the stream,
// initial-response, of the RPC ones), then a's events, or a few random
// ones, as the stream's messages in one body.
func (s *Server) renderStream(ctx context.Context, r respond.Renderer, op *model.Operation, input []byte, stream *model.Member, a *Answer) (*wire.Response, error) {
	out := map[string]any{}
	for k, v := range a.Output {
		if k != stream.Name() {
			out[k] = v
		}
	}
	resp, err := r.RenderResponse(s.m, op, out)
	if err != nil {
		return nil, fmt.Errorf("output of %s: %w", op.Name, err)
	}
	var body []byte
	if _, rest := s.r.(respond.Rest); !rest {
		// The RPC protocols: the rendered body is the initial response.
		msg := eventstream.Message{Headers: []eventstream.Header{
			{Name: ":message-type", Value: eventstream.StringValue("event")},
			{Name: ":event-type", Value: eventstream.StringValue("initial-response")},
			{Name: ":content-type", Value: eventstream.StringValue(resp.Header.Get("Content-Type"))},
		}, Payload: resp.Body}
		if body, err = eventstream.Append(body, msg); err != nil {
			return nil, fmt.Errorf("the initial response of %s: %w", op.Name, err)
		}
	}
	events := a.Events
	if events == nil {
		events = s.randomEvents(op, input, stream)
	}
	for i, ev := range events {
		msg, err := s.events.EncodeResponseEvent(ctx, op, respond.Encode(ev))
		if err != nil {
			return nil, fmt.Errorf("event %d of %s: %w", i+1, op.Name, err)
		}
		if body, err = eventstream.Append(body, msg); err != nil {
			return nil, fmt.Errorf("event %d of %s: %w", i+1, op.Name, err)
		}
	}
	resp.Header.Set("Content-Type", protocol.EventStreamMediaType)
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	resp.Body = body
	return resp, nil
}

// randomEvents makes a few events of the stream's union, none of them an
// exception.
func (s *Server) randomEvents(op *model.Operation, input []byte, stream *model.Member) []map[string]any {
	g := s.gen(s.requestSeed(op, input) + 1)
	union, _ := s.m.Target(stream)
	var events []map[string]any
	for tries := 0; len(events) < randomEvents && tries < 8*randomEvents; tries++ {
		ev, _ := g.Value(stream).(map[string]any)
		for name := range ev {
			mem, _ := union.Member(name)
			if t, _ := s.m.Target(mem); mem != nil && t != nil && !t.HasTrait(model.TraitError) {
				events = append(events, ev)
			}
		}
	}
	return events
}
