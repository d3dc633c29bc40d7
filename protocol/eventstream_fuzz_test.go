package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/testing/servers/eventserver"
)

// FuzzDecodeEvent feeds arbitrary event-stream bytes to the restJson1
// event decoder of the Ticker model (headers of every type, a JSON event
// body, an @eventPayload string, a modeled exception) and to the rpcv2Cbor
// one (CBOR payloads, the initial-response message): it never panics,
// every failure is a *ResponseError or a *ServiceError, and every event
// valid JSON.
func FuzzDecodeEvent(f *testing.F) {
	l := model.NewLoader()
	l.AddSource("ticker.smithy", []byte(eventserver.Model))
	m, _, err := l.Load(context.Background())
	if err != nil {
		f.Fatal(err)
	}
	svc, err := m.Service("smithycurl.test.events#Ticker")
	if err != nil {
		f.Fatal(err)
	}
	op, err := svc.Operation("Tick")
	if err != nil {
		f.Fatal(err)
	}
	codec := protocol.NewRestJSON1(m)
	es := codec.(protocol.EventStreams)
	cb := rpcTickers(f)[2]
	if cb.name != "TickerCbor" {
		f.Fatal(cb.name)
	}
	ces := cb.codec.(protocol.EventStreams)
	for _, msg := range []eventstream.Message{
		cb.message(f, "event", "initial-response", map[string]string{"session": "s"}),
		cb.message(f, "event", "tick", map[string]any{"message": "m", "x": []int{1}}),
		cb.message(f, "exception", "tooFast", map[string]string{"message": "m"}),
	} {
		b, _ := eventstream.Append(nil, msg)
		f.Add(b)
	}
	seed, _ := eventstream.Append(nil, eventserver.TickMessage(3))
	f.Add(seed)
	str := func(n, v string) eventstream.Header {
		return eventstream.Header{Name: n, Value: eventstream.StringValue(v)}
	}
	for _, msg := range []eventstream.Message{
		{Headers: []eventstream.Header{str(":message-type", "event"), str(":event-type", "note")}, Payload: []byte("hello")},
		{Headers: []eventstream.Header{str(":message-type", "exception"), str(":exception-type", "tooFast")}, Payload: []byte(`{"message":"x"}`)},
		{Headers: []eventstream.Header{str(":message-type", "error"), str(":error-code", "c"), str(":error-message", "m")}},
		{Headers: []eventstream.Header{str(":message-type", "event"), str(":event-type", "tick"),
			{Name: "seq", Value: eventstream.Value{Type: eventstream.Long, Int: 1 << 40}}}, Payload: []byte(`{"message":1}`)},
	} {
		b, _ := eventstream.Append(nil, msg)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := eventstream.NewDecoder(bytes.NewReader(data), eventstream.Limits{MaxMessageLen: 1 << 16})
		for i := 0; i < 100; i++ {
			msg, err := d.Next()
			if err != nil {
				if err != io.EOF {
					var fe *eventstream.Error
					if !errors.As(err, &fe) {
						t.Fatalf("framing error %v is not an *eventstream.Error", err)
					}
				}
				return
			}
			out, err := es.DecodeEvent(context.Background(), op, msg)
			checkDecoded(t, out, err)
			out, err = ces.DecodeEvent(context.Background(), cb.op, msg)
			checkDecoded(t, out, err)
			out, _, err = ces.DecodeInitialMessage(context.Background(), cb.op, msg)
			checkDecoded(t, out, err)
		}
	})
}

// checkDecoded fails t unless a decoded event is valid JSON or the error a
// *ResponseError or a *ServiceError.
func checkDecoded(t *testing.T, out []byte, err error) {
	t.Helper()
	var re *protocol.ResponseError
	var se *protocol.ServiceError
	if err != nil && !errors.As(err, &re) && !errors.As(err, &se) {
		t.Fatalf("decoding: %T %v", err, err)
	}
	if err == nil && out != nil && !json.Valid(out) {
		t.Fatalf("decoding gave invalid JSON %q", out)
	}
}
