// Package eventserver serves a small restJson1 service whose output is an
// event stream (application/vnd.amazon.eventstream), for end-to-end tests
// of event streams from Go, C, Python and the command line. Its model is
// Model; its one operation, Tick, streams Count tick events IntervalMs
// apart, then ends as Fail says:
//
//	""          the stream ends cleanly
//	"exception" a modeled exception event (TooFast)
//	"error"     an error message (:error-code "internal-error")
//	"truncate"  half of a message, then the connection is cut
//	"cut"       half of a message, then the body ends cleanly
//	"crc"       a message whose CRC is wrong
//	"unknown"   an event of a type the model does not have, then a tick
//	"refuse"    no stream: an HTTP 400 BadRequest error response
package eventserver

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/smithycurl/smithycurl/eventstream"
)

// Model is the service's Smithy model (ticker.smithy, which the C and
// Python tests load).
//
//go:embed ticker.smithy
var Model string

// Service is the Ticker service.
type Service struct{}

// Handler serves POST /tick.
func (Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /tick", tick)
	return mux
}

type tickInput struct {
	Count      int    `json:"count"`
	IntervalMs int    `json:"intervalMs"`
	Fail       string `json:"fail"`
	Pad        int    `json:"pad"`
}

// Epoch is the time of the first tick's "at" header; tick n is n seconds later.
var Epoch = time.Date(2024, 10, 31, 14, 15, 14, 0, time.UTC)

func str(name, v string) eventstream.Header {
	return eventstream.Header{Name: name, Value: eventstream.StringValue(v)}
}

// TickMessage is tick n as the server sends it.
func TickMessage(n int) eventstream.Message { return paddedTick(n, nil) }

// paddedTick is tick n with pad appended to its message.
func paddedTick(n int, pad []byte) eventstream.Message {
	return eventstream.Message{
		Headers: []eventstream.Header{
			str(":message-type", "event"), str(":event-type", "tick"), str(":content-type", "application/json"),
			{Name: "seq", Value: eventstream.Value{Type: eventstream.Int, Int: int64(n)}},
			{Name: "at", Value: eventstream.TimeValue(Epoch.Add(time.Duration(n) * time.Second))},
		},
		Payload: fmt.Appendf(nil, `{"message":"tick %d%s"}`, n, pad),
	}
}

func tick(w http.ResponseWriter, r *http.Request) {
	var in tickInput
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil || in.Count < 0 || in.Count > 100000 ||
		in.Pad < 0 || in.Pad > 8<<20 {
		w.Header().Set("X-Amzn-Errortype", "BadRequest")
		w.WriteHeader(400)
		fmt.Fprintf(w, `{"message":"bad input"}`)
		return
	}
	if in.Fail == "refuse" {
		w.Header().Set("X-Amzn-Errortype", "BadRequest")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		fmt.Fprintf(w, `{"message":"refused as asked"}`)
		return
	}
	w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
	w.Header().Set("X-Session", "s-1")
	w.WriteHeader(200)
	flusher, _ := w.(http.Flusher)
	send := func(msg eventstream.Message) bool {
		b, err := eventstream.Append(nil, msg)
		if err != nil {
			return false
		}
		if _, err := w.Write(b); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	pad := bytes.Repeat([]byte{'.'}, in.Pad)
	if in.Fail == "unknown" {
		send(eventstream.Message{Headers: []eventstream.Header{str(":message-type", "event"), str(":event-type", "newKind")}, Payload: []byte(`{}`)})
	}
	for n := 0; n < in.Count; n++ {
		if n > 0 && in.IntervalMs > 0 {
			select {
			case <-time.After(time.Duration(in.IntervalMs) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		if !send(paddedTick(n, pad)) {
			return
		}
	}
	switch in.Fail {
	case "exception":
		send(eventstream.Message{Headers: []eventstream.Header{
			str(":message-type", "exception"), str(":exception-type", "tooFast"), str(":content-type", "application/json"),
		}, Payload: []byte(`{"message":"slow down"}`)})
	case "error":
		send(eventstream.Message{Headers: []eventstream.Header{
			str(":message-type", "error"), str(":error-code", "internal-error"), str(":error-message", "An unknown error occurred."),
		}})
	case "truncate":
		b, _ := eventstream.Append(nil, TickMessage(in.Count))
		w.Write(b[:len(b)/2])
		if flusher != nil {
			flusher.Flush()
		}
		// Let what was sent reach the client first: HTTP/2 drops the
		// frames still queued for a stream it resets.
		time.Sleep(50 * time.Millisecond)
		panic(http.ErrAbortHandler) // cuts the connection (HTTP/1.1) or resets the stream (HTTP/2)
	case "cut":
		b, _ := eventstream.Append(nil, TickMessage(in.Count))
		w.Write(b[:len(b)/2])
	case "crc":
		b, _ := eventstream.Append(nil, TickMessage(in.Count))
		b[len(b)-1] ^= 0xff
		w.Write(b)
	}
}
