package protocol

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/internal/uuid"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// The RPC protocols (awsJson1_0, awsJson1_1, rpcv2Cbor, rpcv2Json) share
// one codec: every request is a POST with the whole input in the body, keyed
// by member names (HTTP binding traits and jsonName are ignored), errors are
// named by a type in the response. A dialect holds what differs: where the
// request goes, its headers and the body format.

// rpcFormat is the body format of an RPC protocol.
type rpcFormat interface {
	// encodeInput writes the body of an input from its top-level members
	// in the document form (vals[i] is members[i], nil when absent).
	encodeInput(in *shapeCodec, vals [][]byte) ([]byte, error)
	// decodeStruct reads a structure from a whole body (an empty body is an
	// empty structure) with its defaults and client error correction; a
	// server's (jsonOptions.strict) without the correction, refusing data
	// after the body's value. The structure is written into memory alloc
	// gives when it does (OutputDecoder).
	decodeStruct(sc *shapeCodec, body []byte, alloc Alloc) ([]byte, error)
	// errorType is the error type a response names, sanitised ("" if none).
	errorType(resp *wire.Response) string
	// document returns an error body no error shape describes in the
	// document form (JSON), or nil.
	document(body []byte) []byte
	// eventBody is the format of event payloads (rpcevents.go).
	eventBody() restBody
}

// rpcDialect is what one RPC protocol adds to the shared codec.
type rpcDialect struct {
	protocol    model.ShapeID
	contentType string
	// path is the request path of op ("/" or "/service/S/operation/O").
	path func(svc *model.Service, op *model.Operation) string
	// header sets the protocol's own request headers.
	header func(h wire.Header, svc *model.Service, op *model.Operation)
	// unitNoBody sends no body and no Content-Type for Unit input.
	unitNoBody bool
	// streamAccept asks for an event-stream response by its media type in
	// Accept (rpcv2).
	streamAccept bool
	// smithyProtocol is the Smithy-Protocol header value (rpcv2): responses
	// with another value are malformed.
	smithyProtocol string
	// json sets the JSON rules of the protocol (nil for CBOR).
	newFormat func(o *jsonOptions) rpcFormat
	// compiler options
	noTimestampFormat bool
}

// rpcCodec implements the RPC protocols.
type rpcCodec struct {
	m           *model.Model
	svc         *model.Service
	d           rpcDialect
	queryCompat bool // aws.protocols#awsQueryCompatible
	cfg         config
	json        jsonOptions
	format      rpcFormat

	plans plans[*rpcPlan]
}

func newRPCCodec(m *model.Model, svc *model.Service, d rpcDialect, opts []Option) *rpcCodec {
	c := &rpcCodec{m: m, svc: svc, d: d}
	c.queryCompat = svc.Shape.HasTrait(TraitAWSQueryCompatible)
	c.cfg = config{newToken: uuid.V4}
	for _, o := range opts {
		o.apply(&c.cfg)
	}
	c.json.fillDefaults = true
	if c.cfg.explicitDefaults != nil {
		c.json.fillDefaults = *c.cfg.explicitDefaults
	}
	c.json.epochOutput = c.cfg.epochOutput
	c.format = d.newFormat(&c.json)
	c.plans.init(compiler{m: m, shapes: map[model.ShapeID]*shapeCodec{}, noJSONName: true, noTimestampFormat: d.noTimestampFormat}, c.compile)
	return c
}

func (c *rpcCodec) Protocol() model.ShapeID { return c.d.protocol }

// rpcPlan is an operation compiled for an RPC protocol.
type rpcPlan struct {
	opCommon
	path   string
	errors []rpcErrorPlan
	// inStream and outStream are the event-stream members of the input
	// and output (nil when none).
	inStream, outStream *memberCodec
}

type rpcErrorPlan struct {
	shape *model.Shape
	sc    *shapeCodec
}

func (c *rpcCodec) compile(op *model.Operation) (*rpcPlan, error) {
	common, err := compileCommon(&c.plans.comp, op)
	if err != nil {
		return nil, err
	}
	p := &rpcPlan{opCommon: common, path: c.d.path(c.svc, op), inStream: unionStream(common.in), outStream: unionStream(common.out)}
	for _, es := range op.Errors {
		p.errors = append(p.errors, rpcErrorPlan{shape: es, sc: c.plans.comp.shape(es.ID)})
	}
	return p, nil
}

func (c *rpcCodec) EncodeRequest(ctx context.Context, op *model.Operation, input []byte) (*wire.Request, error) {
	p, vals, err := startRequest(ctx, &c.plans, &c.cfg, op, input)
	if err != nil {
		return nil, err
	}
	in := p.in
	req := &wire.Request{Method: "POST", Path: p.path, Header: make(wire.Header, 6), Input: wire.Members{Names: in.names, Values: vals}}
	var body []byte
	// The body of an input event stream is its messages (the other members
	// go in its initial-request message: EncodeInitialMessage).
	streamBody := p.inStream != nil && vals[p.inStream.index] == nil
	if streamBody {
		req.Header.Set("Content-Type", EventStreamMediaType)
	} else if !(c.d.unitNoBody && in.kind == kUnit) {
		if body, err = c.format.encodeInput(in, vals); err != nil {
			return inputFailure(op, err)
		}
		req.Header.Set("Content-Type", c.d.contentType)
	}
	c.d.header(req.Header, c.svc, op)
	if c.d.streamAccept && p.outStream != nil {
		req.Header.Set("Accept", EventStreamMediaType)
	}
	if c.queryCompat {
		req.Header.Set("X-Amzn-Query-Mode", "true")
	}
	if req.HostPrefix, err = c.cfg.hostPrefix(p.host, func(mc *memberCodec) []byte { return vals[mc.index] }); err != nil {
		return inputFailure(op, err)
	}
	if p.gzip && body != nil && c.cfg.compression.applies(len(body)) {
		body = gzipBody(req.Header, body)
	}
	if !streamBody {
		setBody(req, body)
	}
	return req, nil
}

func (c *rpcCodec) DecodeResponse(ctx context.Context, op *model.Operation, resp *wire.Response) ([]byte, error) {
	return c.DecodeResponseInto(ctx, op, resp, nil)
}

func (c *rpcCodec) DecodeResponseInto(ctx context.Context, op *model.Operation, resp *wire.Response, alloc Alloc) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := c.plans.get(op)
	if err != nil {
		return nil, err
	}
	if err := c.checkSmithyProtocol(op, resp); err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, c.decodeError(p, resp)
	}
	out, err := c.format.decodeStruct(p.out, resp.Body, alloc)
	if err != nil {
		return nil, outputFailure(op, resp.Status, p.out, err)
	}
	return out, nil
}

// checkSmithyProtocol refuses a response whose Smithy-Protocol header is
// not the protocol's (rpcv2).
func (c *rpcCodec) checkSmithyProtocol(op *model.Operation, resp *wire.Response) error {
	if c.d.smithyProtocol == "" {
		return nil
	}
	got := ""
	if v, ok := headerValues(resp.Header, "Smithy-Protocol"); ok && len(v) > 0 {
		got = strings.TrimSpace(v[0])
	}
	if got == c.d.smithyProtocol {
		return nil
	}
	// A malformed response is handled by its status alone.
	if resp.Status < 200 || resp.Status > 299 {
		return &ServiceError{Status: resp.Status, Members: resp.Body}
	}
	return &ResponseError{Operation: op.Shape.ID, Status: resp.Status,
		Err: fmt.Errorf("Smithy-Protocol header is %q, want %q", got, c.d.smithyProtocol)}
}

// errorCorrect gives required members without a default that the service
// left out their zero value, as Smithy's client error correction asks
// (top-level members only; enums, unions and documents stay absent).
func (o *jsonOptions) errorCorrect(w *objectWriter, sc *shapeCodec) {
	for i, mc := range sc.members {
		if !mc.required || mc.hasDefault || w.seen.has(i) {
			continue
		}
		var zero string
		switch mc.target.kind {
		case kString, kBlob:
			zero = `""`
		case kBool:
			zero = "false"
		case kInt, kBigInt, kFloat, kBigDec, kIntEnum:
			zero = "0"
		case kTimestamp:
			zero = string(o.appendDocTimestamp(nil, timestamp{}))
		case kList:
			zero = "[]"
		case kMap, kStruct:
			zero = "{}"
		default:
			continue
		}
		w.member(mc)
		w.dst = append(w.dst, zero...)
	}
}

// decodeError identifies the error shape of an error response by the type
// it names and reads its members. For awsQueryCompatible services the Code
// is the awsQuery error code from x-amzn-query-error when the service sends
// one.
func (c *rpcCodec) decodeError(p *rpcPlan, resp *wire.Response) error {
	code := c.format.errorType(resp)
	queryCode := ""
	if c.queryCompat {
		queryCode = queryErrorCode(resp)
	}
	match := errorNamed(p.errors, func(e *rpcErrorPlan) *model.Shape { return e.shape }, code)
	doc := resp.Body // the body as a JSON object
	if d := c.format.document(resp.Body); d != nil {
		doc = d
	}
	if match == nil {
		return &ServiceError{Code: orDefault(queryCode, code), Status: resp.Status, Members: doc, Message: messageOf(doc)}
	}
	members, err := c.format.decodeStruct(match.sc, resp.Body, nil)
	if err != nil {
		return &ResponseError{Operation: p.op.Shape.ID, Status: resp.Status, Err: fmt.Errorf("error %s: %w", match.shape.ID, err)}
	}
	return &ServiceError{
		Shape:   match.shape.ID,
		Code:    orDefault(queryCode, match.shape.ID.Name()),
		Status:  resp.Status,
		Members: members,
		Message: errorMessage(members, doc),
	}
}

// queryErrorCode is the awsQuery error code an awsQueryCompatible service
// sends in x-amzn-query-error ("Code;Fault"), "" when none.
func queryErrorCode(resp *wire.Response) string {
	v, ok := headerValues(resp.Header, "X-Amzn-Query-Error")
	if !ok || len(v) == 0 {
		return ""
	}
	code, _, _ := strings.Cut(strings.TrimSpace(v[0]), ";")
	return code
}

// jsonFormat is the JSON body of the awsJson and rpcv2Json protocols.
type jsonFormat struct {
	o      *jsonOptions
	errTyp func(resp *wire.Response) string
}

func (f jsonFormat) encodeInput(in *shapeCodec, vals [][]byte) ([]byte, error) {
	n := 0
	for _, v := range vals {
		n += len(v) + 8
	}
	body := make([]byte, 1, n+n/4+16)
	body[0] = '{'
	n = 0
	for i, mc := range in.members {
		raw := vals[i]
		if raw == nil {
			continue
		}
		if n > 0 {
			body = append(body, ',')
		}
		n++
		body = append(body, mc.wireKey...)
		s := scanner{data: raw}
		var err error
		if body, err = f.o.encodeValue(body, &s, mc); err != nil {
			return nil, inMember(err, mc.name)
		}
	}
	return append(body, '}'), nil
}

func (f jsonFormat) decodeStruct(sc *shapeCodec, body []byte, alloc Alloc) ([]byte, error) {
	strict := f.o.strict
	w := objectWriter{dst: alloc.buffer(len(body) + len(body)/4 + 16)}
	w.dst = append(w.dst, '{')
	if len(bytes.TrimSpace(body)) > 0 && (sc.kind != kUnit || strict) {
		s := scanner{data: body}
		if err := f.o.decodeFields(&w, &s, sc); err != nil {
			return nil, err
		}
		if strict && !s.atEnd() {
			return nil, badValue("data after the JSON body")
		}
	}
	f.o.addDefaults(&w, sc)
	if !strict {
		f.o.errorCorrect(&w, sc)
	}
	return append(w.dst, '}'), nil
}

func (f jsonFormat) errorType(resp *wire.Response) string { return f.errTyp(resp) }

func (f jsonFormat) document(body []byte) []byte { return nil }

func (f jsonFormat) eventBody() restBody { return jsonBody{o: f.o} }
