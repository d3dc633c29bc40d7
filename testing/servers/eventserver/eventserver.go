// Package eventserver serves a small service whose output is an event
// stream (application/vnd.amazon.eventstream), for end-to-end tests of
// event streams from Go, C, Python and the command line: in restJson1
// (model Model, service Ticker, POST /tick) and in the four RPC protocols
// (model RPCModel: TickerJson10, TickerJson11, TickerCbor, TickerRpcJson),
// where the initial response is the stream's first message and the event
// payloads are in the protocol's format (JSON, or CBOR for rpcv2Cbor),
// written here independently of the client's codecs (encoding/json and
// fxamacker/cbor). Its one operation, Tick, streams Count tick events
// IntervalMs apart, then ends as Fail says:
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
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/smithycurl/smithycurl/eventstream"
)

// Model is the restJson1 service's Smithy model (ticker.smithy, which the C
// and Python tests load).
//
//go:embed ticker.smithy
var Model string

// RPCModel is the model of the RPC services (rpcticker.smithy).
//
//go:embed rpcticker.smithy
var RPCModel string

// Service is the Ticker service.
type Service struct{}

// Handler serves POST /tick (restJson1), POST / (awsJson1_0 and 1_1 by
// X-Amz-Target) and POST /service/{TickerCbor,TickerRpcJson}/operation/Tick.
func (Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /tick", func(w http.ResponseWriter, r *http.Request) { tick(w, r, restJSON) })
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) { echo(w, r, restJSON) })
	mux.HandleFunc("POST /{$}", func(w http.ResponseWriter, r *http.Request) {
		for _, f := range []*format{awsJSON10, awsJSON11, signedJSON} {
			switch r.Header.Get("X-Amz-Target") {
			case f.target + ".Tick":
				tick(w, r, f)
				return
			case f.target + ".Echo":
				echo(w, r, f)
				return
			}
		}
		http.Error(w, "unknown X-Amz-Target", http.StatusNotFound)
	})
	for svc, f := range map[string]*format{"TickerCbor": rpcv2CBOR, "TickerRpcJson": rpcv2JSON} {
		mux.HandleFunc("POST /service/"+svc+"/operation/Tick", func(w http.ResponseWriter, r *http.Request) { tick(w, r, f) })
		mux.HandleFunc("POST /service/"+svc+"/operation/Echo", func(w http.ResponseWriter, r *http.Request) { echo(w, r, f) })
	}
	return mux
}

// format is what differs between the protocols the ticker speaks.
type format struct {
	// target is the X-Amz-Target's service part (awsJson), smithyProtocol the
	// Smithy-Protocol header (rpcv2) the requests carry and the responses
	// echo; requestType is the requests' Content-Type.
	target, smithyProtocol, requestType string
	// payloadType is the :content-type of event payloads, marshal writes
	// them (and the input is read with unmarshal).
	payloadType string
	marshal     func(any) ([]byte, error)
	unmarshal   func([]byte, any) error
	// initialInStream: the initial response is an initial-response event
	// (RPC), not the X-Session header (REST).
	initialInStream bool
	// errorType names the error of an error response in its body (__type);
	// else in X-Amzn-Errortype.
	errorType string
}

var (
	restJSON   = &format{requestType: "application/json", payloadType: "application/json", marshal: json.Marshal, unmarshal: json.Unmarshal}
	awsJSON10  = awsJSON("TickerJson10", "application/x-amz-json-1.0")
	awsJSON11  = awsJSON("TickerJson11", "application/x-amz-json-1.1")
	signedJSON = awsJSON("SignedTicker", "application/x-amz-json-1.1")
	cborDec, _ = cbor.DecOptions{DupMapKey: cbor.DupMapKeyEnforcedAPF, ExtraReturnErrors: cbor.ExtraDecErrorUnknownField}.DecMode()
	rpcv2CBOR  = &format{smithyProtocol: "rpc-v2-cbor", requestType: "application/cbor", payloadType: "application/cbor",
		marshal: cbor.Marshal, unmarshal: cborDec.Unmarshal, initialInStream: true, errorType: "smithycurl.test.events.rpc#BadRequest"}
	rpcv2JSON = &format{smithyProtocol: "rpc-v2-json", requestType: "application/json", payloadType: "application/json",
		marshal: json.Marshal, unmarshal: json.Unmarshal, initialInStream: true, errorType: "smithycurl.test.events.rpc#BadRequest"}
)

func awsJSON(target, mediaType string) *format {
	return &format{target: target, requestType: mediaType, payloadType: "application/json",
		marshal: json.Marshal, unmarshal: json.Unmarshal, initialInStream: true, errorType: "BadRequest"}
}

// fail answers an HTTP 400 BadRequest error in the protocol's way.
func (f *format) fail(w http.ResponseWriter, message string) {
	body := map[string]string{"message": message}
	if f.errorType != "" {
		body["__type"] = f.errorType
	} else {
		w.Header().Set("X-Amzn-Errortype", "BadRequest")
	}
	b, _ := f.marshal(body)
	w.Header().Set("Content-Type", f.requestType)
	w.WriteHeader(400)
	w.Write(b)
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

// TickMessage is tick n as the restJson1 server sends it.
func TickMessage(n int) eventstream.Message { return restJSON.tick(n, nil) }

// tick is tick n with pad appended to its message.
func (f *format) tick(n int, pad []byte) eventstream.Message {
	payload, _ := f.marshal(map[string]string{"message": fmt.Sprintf("tick %d%s", n, pad)})
	return eventstream.Message{
		Headers: []eventstream.Header{
			str(":message-type", "event"), str(":event-type", "tick"), str(":content-type", f.payloadType),
			{Name: "seq", Value: eventstream.Value{Type: eventstream.Int, Int: int64(n)}},
			{Name: "at", Value: eventstream.TimeValue(Epoch.Add(time.Duration(n) * time.Second))},
		},
		Payload: payload,
	}
}

// readInput reads the request's input, checking the protocol's headers.
func (f *format) readInput(r *http.Request, in *tickInput) error {
	if got := r.Header.Get("Content-Type"); got != f.requestType {
		return fmt.Errorf("Content-Type %q, want %q", got, f.requestType)
	}
	if f.smithyProtocol != "" {
		if got := r.Header.Get("Smithy-Protocol"); got != f.smithyProtocol {
			return fmt.Errorf("Smithy-Protocol %q", got)
		}
		if got := r.Header.Get("Accept"); got != "application/vnd.amazon.eventstream" {
			return fmt.Errorf("Accept %q, want application/vnd.amazon.eventstream", got)
		}
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil {
		return err
	}
	return f.unmarshal(b, in)
}

func tick(w http.ResponseWriter, r *http.Request, f *format) {
	if f.smithyProtocol != "" {
		w.Header().Set("Smithy-Protocol", f.smithyProtocol)
	}
	var in tickInput
	if err := f.readInput(r, &in); err != nil || in.Count < 0 || in.Count > 100000 || in.Pad < 0 || in.Pad > 8<<20 {
		msg := "bad input"
		if err != nil {
			msg = "bad input: " + strings.ReplaceAll(err.Error(), "\n", " ")
		}
		f.fail(w, msg)
		return
	}
	if in.Fail == "refuse" {
		f.fail(w, "refused as asked")
		return
	}
	w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
	if !f.initialInStream {
		w.Header().Set("X-Session", "s-1")
	}
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
	if f.initialInStream {
		payload, _ := f.marshal(map[string]string{"session": "s-1"})
		send(eventstream.Message{Headers: []eventstream.Header{
			str(":message-type", "event"), str(":event-type", "initial-response"), str(":content-type", f.payloadType),
		}, Payload: payload})
	}
	pad := bytes.Repeat([]byte{'.'}, in.Pad)
	if in.Fail == "unknown" {
		payload, _ := f.marshal(map[string]string{})
		send(eventstream.Message{Headers: []eventstream.Header{str(":message-type", "event"), str(":event-type", "newKind")}, Payload: payload})
	}
	for n := 0; n < in.Count; n++ {
		if n > 0 && in.IntervalMs > 0 {
			select {
			case <-time.After(time.Duration(in.IntervalMs) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		if !send(f.tick(n, pad)) {
			return
		}
	}
	switch in.Fail {
	case "exception":
		payload, _ := f.marshal(map[string]string{"message": "slow down"})
		send(eventstream.Message{Headers: []eventstream.Header{
			str(":message-type", "exception"), str(":exception-type", "tooFast"), str(":content-type", f.payloadType),
		}, Payload: payload})
	case "error":
		send(eventstream.Message{Headers: []eventstream.Header{
			str(":message-type", "error"), str(":error-code", "internal-error"), str(":error-message", "An unknown error occurred."),
		}})
	case "truncate":
		b, _ := eventstream.Append(nil, f.tick(in.Count, nil))
		w.Write(b[:len(b)/2])
		if flusher != nil {
			flusher.Flush()
		}
		// Let what was sent reach the client first: HTTP/2 drops the
		// frames still queued for a stream it resets.
		time.Sleep(50 * time.Millisecond)
		panic(http.ErrAbortHandler) // cuts the connection (HTTP/1.1) or resets the stream (HTTP/2)
	case "cut":
		b, _ := eventstream.Append(nil, f.tick(in.Count, nil))
		w.Write(b[:len(b)/2])
	case "crc":
		b, _ := eventstream.Append(nil, f.tick(in.Count, nil))
		b[len(b)-1] ^= 0xff
		w.Write(b)
	}
}

// echo serves Echo, a duplex stream: the request body is a stream of say
// events (after an initial-request message in the RPC protocols), each
// answered at once by a said event with the prefix (X-Prefix, or the
// initial request's prefix) added; the response ends with the request.
func echo(w http.ResponseWriter, r *http.Request, f *format) {
	if f.smithyProtocol != "" {
		w.Header().Set("Smithy-Protocol", f.smithyProtocol)
	}
	if got := r.Header.Get("Content-Type"); got != "application/vnd.amazon.eventstream" {
		f.fail(w, fmt.Sprintf("Content-Type %q, want application/vnd.amazon.eventstream", got))
		return
	}
	rc := http.NewResponseController(w)
	if r.ProtoMajor == 1 {
		rc.EnableFullDuplex()
		// The request is read to its end before the handler returns: a
		// full-duplex HTTP/1.1 connection whose body was left unread (the
		// chunked body's last chunk after the final signed message) is
		// read again by the server for the next request, concurrently.
		defer io.Copy(io.Discard, r.Body)
	}
	var next func() (eventstream.Message, error)
	if strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		v, err := newVerifier(r)
		if err != nil {
			f.fail(w, err.Error())
			return
		}
		next = v.next
	} else {
		next = eventstream.NewDecoder(r.Body, eventstream.Limits{}).Next
	}
	w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
	w.WriteHeader(200)
	rc.Flush()
	send := func(typ string, v any) error {
		payload, _ := f.marshal(v)
		b, _ := eventstream.Append(nil, eventstream.Message{Headers: []eventstream.Header{
			str(":message-type", "event"), str(":event-type", typ), str(":content-type", f.payloadType)}, Payload: payload})
		if _, err := w.Write(b); err != nil {
			return err
		}
		return rc.Flush()
	}
	// Failures once the stream has started are error messages in it; the
	// rest of the request is read until the client ends it (a reset
	// HTTP/2 stream hides the message from libcurl 7.88 while its upload
	// is paused: transport.TestDuplexRefused).
	fail := func(err error) {
		b, _ := eventstream.Append(nil, eventstream.Message{Headers: []eventstream.Header{str(":message-type", "error"),
			str(":error-code", "InvalidSignatureException"), str(":error-message", err.Error())}})
		w.Write(b)
		rc.Flush()
		io.Copy(io.Discard, r.Body)
	}
	prefix := r.Header.Get("X-Prefix")
	if f.initialInStream {
		msg, err := next()
		if err == nil && eventType(msg) != "initial-request" {
			err = errors.New("no initial-request message")
		}
		var in struct {
			Prefix string `json:"prefix"`
		}
		if err == nil {
			err = f.unmarshal(msg.Payload, &in)
		}
		if err != nil {
			fail(fmt.Errorf("initial request: %w", err))
			return
		}
		prefix = in.Prefix
		send("initial-response", map[string]string{})
	}
	for {
		msg, err := next()
		if err != nil {
			if err != io.EOF {
				fail(err)
			}
			return // io.EOF: the input ended
		}
		if eventType(msg) != "say" {
			continue
		}
		if send("said", map[string]string{"message": prefix + string(msg.Payload)}) != nil {
			return
		}
	}
}

func eventType(msg eventstream.Message) string {
	v, _ := msg.Get(":event-type")
	return v.Str()
}
