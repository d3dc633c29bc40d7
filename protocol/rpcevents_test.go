package protocol_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	fxcbor "github.com/fxamacker/cbor/v2"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/testing/servers/eventserver"
	"github.com/smithycurl/smithycurl/wire"
)

// rpcTicker is the codec of one RPC service of the ticker model, its
// operation Tick, and the marshaller of its payloads.
type rpcTicker struct {
	name    string
	codec   protocol.Codec
	op      *model.Operation
	marshal func(any) ([]byte, error)
	ctype   string
}

func rpcTickers(t testing.TB) []rpcTicker {
	l := model.NewLoader()
	l.AddSource("rpcticker.smithy", []byte(eventserver.RPCModel))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []rpcTicker
	for _, v := range []struct {
		svc     string
		codec   func(*model.Model, *model.Service, ...protocol.Option) protocol.Codec
		marshal func(any) ([]byte, error)
		ctype   string
	}{
		{"TickerJson10", protocol.NewAWSJSON1_0, json.Marshal, "application/json"},
		{"TickerJson11", protocol.NewAWSJSON1_1, json.Marshal, "application/json"},
		{"TickerCbor", protocol.NewRPCv2CBOR, fxcbor.Marshal, "application/cbor"},
		{"TickerRpcJson", protocol.NewRPCv2JSON, json.Marshal, "application/json"},
	} {
		svc, err := m.Service(model.ShapeID("smithycurl.test.events.rpc#" + v.svc))
		if err != nil {
			t.Fatal(err)
		}
		op, err := svc.Operation("Tick")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rpcTicker{v.svc, v.codec(m, svc), op, v.marshal, v.ctype})
	}
	return out
}

func hdr(name, v string) eventstream.Header {
	return eventstream.Header{Name: name, Value: eventstream.StringValue(v)}
}

func (r rpcTicker) message(t testing.TB, typ, name string, payload any, extra ...eventstream.Header) eventstream.Message {
	b, err := r.marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	kind := ":event-type"
	if typ == "exception" {
		kind = ":exception-type"
	}
	return eventstream.Message{Headers: append([]eventstream.Header{hdr(":message-type", typ), hdr(kind, name),
		hdr(":content-type", r.ctype)}, extra...), Payload: b}
}

// The protocol-specific part of the RPC protocols' response streams: the
// Accept header (rpcv2), the HTTP response (status, Smithy-Protocol,
// Content-Type), the initial-response message and the events' payloads in
// JSON or CBOR.
func TestRPCResponseEventStream(t *testing.T) {
	ctx := context.Background()
	for _, r := range rpcTickers(t) {
		t.Run(r.name, func(t *testing.T) {
			es := r.codec.(protocol.EventStreams)
			if m, ok := es.OutputEventStream(r.op); !ok || m != "events" || !es.InitialInStream(r.op) {
				t.Fatalf("OutputEventStream %q %v", m, ok)
			}
			if _, ok := es.InputEventStream(r.op); ok {
				t.Error("an input event stream")
			}
			req, err := r.codec.EncodeRequest(ctx, r.op, []byte(`{"count":1}`))
			if err != nil {
				t.Fatal(err)
			}
			rpcv2 := strings.HasPrefix(r.name, "TickerCbor") || r.name == "TickerRpcJson"
			if got := req.Header.Get("Accept"); rpcv2 && got != protocol.EventStreamMediaType || !rpcv2 && got != "" {
				t.Errorf("Accept %q", got)
			}
			h := wire.Header{"Content-Type": {protocol.EventStreamMediaType}}
			if rpcv2 {
				h.Set("Smithy-Protocol", req.Header.Get("Smithy-Protocol"))
			}
			out, err := es.DecodeInitialResponse(ctx, r.op, &wire.Response{Status: 200, Header: h})
			if err != nil || string(out) != `{}` {
				t.Errorf("initial response %s %v", out, err)
			}
			h.Set("Content-Type", "application/json")
			if _, err := es.DecodeInitialResponse(ctx, r.op, &wire.Response{Status: 200, Header: h}); err == nil {
				t.Error("a 200 response that is not an event stream was taken")
			}
			// The initial-response message, then events.
			out, ok, err := es.DecodeInitialMessage(ctx, r.op, r.message(t, "event", "initial-response", map[string]string{"session": "s-9"}))
			if err != nil || !ok || string(out) != `{"session":"s-9"}` {
				t.Errorf("initial message %s %v %v", out, ok, err)
			}
			tick := r.message(t, "event", "tick", map[string]string{"message": "hi"},
				eventstream.Header{Name: "seq", Value: eventstream.Value{Type: eventstream.Int, Int: 7}})
			if _, ok, err := es.DecodeInitialMessage(ctx, r.op, tick); ok || err != nil {
				t.Errorf("a tick taken for the initial response: %v %v", ok, err)
			}
			bad := r.message(t, "event", "initial-response", map[string]int{"session": 1})
			if _, ok, err := es.DecodeInitialMessage(ctx, r.op, bad); !ok || err == nil {
				t.Errorf("a session of the wrong type: %v %v", ok, err)
			}
			if ev, err := es.DecodeEvent(ctx, r.op, tick); err != nil || string(ev) != `{"tick":{"seq":7,"message":"hi"}}` {
				t.Errorf("tick %s %v", ev, err)
			}
			note := eventstream.Message{Headers: []eventstream.Header{hdr(":message-type", "event"), hdr(":event-type", "note")}, Payload: []byte("plain")}
			if ev, err := es.DecodeEvent(ctx, r.op, note); err != nil || string(ev) != `{"note":{"text":"plain"}}` {
				t.Errorf("note %s %v", ev, err)
			}
			_, err = es.DecodeEvent(ctx, r.op, r.message(t, "exception", "tooFast", map[string]string{"message": "slow"}))
			var se *protocol.ServiceError
			if !errors.As(err, &se) || se.Shape != "smithycurl.test.events.rpc#TooFast" || se.Message != "slow" {
				t.Errorf("exception %v", err)
			}
		})
	}
}

// BenchmarkDecodeEventRPC is the codec's cost per tick event (two typed
// headers and a one-member payload) in each RPC protocol.
func BenchmarkDecodeEventRPC(b *testing.B) {
	for _, r := range rpcTickers(b) {
		b.Run(r.name, func(b *testing.B) {
			es := r.codec.(protocol.EventStreams)
			msg := r.message(b, "event", "tick", map[string]string{"message": "tick 12345"},
				eventstream.Header{Name: "seq", Value: eventstream.Value{Type: eventstream.Int, Int: 7}},
				eventstream.Header{Name: "at", Value: eventstream.TimeValue(eventserver.Epoch)})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := es.DecodeEvent(context.Background(), r.op, msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
