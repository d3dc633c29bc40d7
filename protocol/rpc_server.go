package protocol

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// The server half of the RPC protocols (awsJson1_0, awsJson1_1, rpcv2Cbor,
// rpcv2Json): the inverse of rpcCodec.EncodeRequest, on the same compiled
// plans and body formats (the JSON and CBOR readers that decode responses).

// rpcServer routes and reads the requests of one RPC protocol.
type rpcServer struct {
	c *rpcCodec
	// ops finds an operation by what names it: the X-Amz-Target value
	// (awsJson) or the operation's name (rpcv2).
	ops   map[string]*model.Operation
	rpcv2 bool
	codes serverCodes
}

var awsJSONServerCodes = serverCodes{unknownStatus: 400, unknown: codeUnknownOperation,
	syntax: codeSerialization, required: "ValidationException", mediaType: codeUnsupportedMedia}

// rpcv2 answers what is not one of its requests as a path that is not
// found.
var rpcv2ServerCodes = serverCodes{unknownStatus: 404, unknown: codeUnknownOperation,
	syntax: codeSerialization, required: "ValidationException", mediaType: codeUnsupportedMedia}

// newRPCServer is the server of codec c, which it makes a server's
// (strict: see jsonOptions).
func newRPCServer(c *rpcCodec) *rpcServer {
	c.json.strict = true
	s := &rpcServer{c: c, ops: make(map[string]*model.Operation, len(c.svc.Operations)), rpcv2: c.d.smithyProtocol != ""}
	s.codes = awsJSONServerCodes
	if s.rpcv2 {
		s.codes = rpcv2ServerCodes
	}
	for _, op := range c.svc.Operations {
		key := op.Name
		if !s.rpcv2 {
			key = amzTarget(c.svc, op)
		}
		s.ops[key] = op
	}
	return s
}

func (s *rpcServer) Protocol() model.ShapeID { return s.c.d.protocol }

func (s *rpcServer) unknown(format string, args ...any) error {
	return refuse(nil, s.codes.unknownStatus, s.codes.unknown, fmt.Errorf(format, args...))
}

func (s *rpcServer) Route(req *wire.Request) (*model.Operation, error) {
	if req.Method != "POST" {
		return nil, s.unknown("method %s, the protocol's requests are POSTs", req.Method)
	}
	if s.rpcv2 {
		return s.routeRPCv2(req)
	}
	target := strings.TrimSpace(header(req.Header, "X-Amz-Target"))
	if target == "" {
		return nil, s.unknown("no X-Amz-Target header")
	}
	if op, ok := s.ops[target]; ok {
		return op, nil
	}
	return nil, s.unknown("X-Amz-Target %q is no operation of %s", target, s.c.svc.Shape.ID.Name())
}

// routeRPCv2 routes by the last four segments of the path,
// service/{Service}/operation/{Operation}, the service named by its shape
// name or its absolute id with "." for "#". A request with X-Amz-Target
// or X-Amzn-Target, or without the protocol's Smithy-Protocol header, is
// refused (the spec: a server MUST reject it).
func (s *rpcServer) routeRPCv2(req *wire.Request) (*model.Operation, error) {
	for _, h := range []string{"X-Amz-Target", "X-Amzn-Target"} {
		if _, ok := headerValues(req.Header, h); ok {
			return nil, s.unknown("an %s request must not have an %s header", s.c.d.smithyProtocol, h)
		}
	}
	if got := strings.TrimSpace(header(req.Header, "Smithy-Protocol")); got != s.c.d.smithyProtocol {
		return nil, s.unknown("Smithy-Protocol header is %q, want %q", got, s.c.d.smithyProtocol)
	}
	path, _, _ := strings.Cut(req.Path, "?")
	seg := strings.Split(strings.TrimSuffix(path, "/"), "/")
	if n := len(seg); n < 4 || seg[n-4] != "service" || seg[n-2] != "operation" {
		return nil, s.unknown("path %q does not end in /service/{Service}/operation/{Operation}", path)
	}
	n := len(seg)
	svcID := s.c.svc.Shape.ID
	if name := seg[n-3]; name != svcID.Name() && name != strings.Replace(string(svcID), "#", ".", 1) {
		return nil, s.unknown("path names service %q, this is %s", name, svcID.Name())
	}
	if op, ok := s.ops[seg[n-1]]; ok {
		return op, nil
	}
	return nil, s.unknown("%s has no operation %q", svcID.Name(), seg[n-1])
}

func (s *rpcServer) DecodeRequest(ctx context.Context, op *model.Operation, req *wire.Request) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := s.c.plans.get(op)
	if err != nil {
		return nil, fmt.Errorf("operation %s: %w", op.Shape.ID, err)
	}
	if err := s.checkAccept(op, p, req); err != nil {
		return nil, err
	}
	ct := header(req.Header, "Content-Type")
	if p.inStream != nil && mediaTypeIs(ct, EventStreamMediaType) {
		return s.initialRequest(op, p, req.Body)
	}
	body, err := requestBody(op, req, s.codes)
	if err != nil {
		return nil, err
	}
	// A body in another media type is refused; one without a
	// Content-Type is read as the protocol's (the spec binds clients to
	// send it, a mock need not be stricter).
	if len(body) > 0 && ct != "" && !mediaTypeIs(ct, s.c.d.contentType) {
		return nil, refuse(op, 415, s.codes.mediaType, fmt.Errorf("Content-Type %q, want %s", ct, s.c.d.contentType))
	}
	doc, err := s.c.format.decodeStruct(p.in, body, nil)
	if err != nil {
		return nil, refuse(op, 400, s.codes.syntax, fmt.Errorf("body: %w", err))
	}
	if err := checkInput(&s.c.cfg, op, p.in, doc, s.codes); err != nil {
		return nil, err
	}
	return doc, nil
}

// initialRequest reads the input of an operation with an input event
// stream: the body is the stream's messages, and the other members come in
// its first one when that is an initial-request event (else they are
// absent). The events that follow are the caller's to read
// (EventStreams.DecodeEvent on the codec).
func (s *rpcServer) initialRequest(op *model.Operation, p *rpcPlan, body []byte) ([]byte, error) {
	var payload []byte
	msg, err := eventstream.NewDecoder(bytes.NewReader(body), eventstream.Limits{}).Next()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, refuse(op, 400, s.codes.syntax, fmt.Errorf("event stream: %w", err))
	}
	if err == nil {
		mt, _, _ := stringHeader(&msg, ":message-type")
		et, _, _ := stringHeader(&msg, ":event-type")
		if mt == "event" && et == initialRequest {
			payload = msg.Payload
		}
	}
	doc, err := s.c.format.decodeStruct(p.in, payload, nil)
	if err != nil {
		return nil, refuse(op, 400, s.codes.syntax, fmt.Errorf("%s: %w", initialRequest, err))
	}
	if err := checkInput(&s.c.cfg, op, p.in, doc, s.codes); err != nil {
		return nil, err
	}
	return doc, nil
}

// checkAccept refuses an rpcv2 request whose Accept header takes neither
// the protocol's media type nor, for an output event stream, the event
// stream's (406).
func (s *rpcServer) checkAccept(op *model.Operation, p *rpcPlan, req *wire.Request) error {
	if !s.rpcv2 {
		return nil
	}
	accept := header(req.Header, "Accept")
	if accept == "" {
		return nil
	}
	want := s.c.d.contentType
	if p.outStream != nil {
		want = EventStreamMediaType
	}
	for _, a := range strings.Split(accept, ",") {
		mt, _, _ := strings.Cut(a, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
		if mt == want || mt == "*/*" || mt == "application/*" {
			return nil
		}
	}
	return refuse(op, 406, codeNotAcceptable, errors.New("Accept "+accept+" does not take "+want))
}
