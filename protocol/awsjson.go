package protocol

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Protocol trait ids of the AWS JSON RPC protocols.
const (
	AWSJSON1_0 model.ShapeID = "aws.protocols#awsJson1_0"
	AWSJSON1_1 model.ShapeID = "aws.protocols#awsJson1_1"

	tQueryCompatible model.ShapeID = "aws.protocols#awsQueryCompatible"
)

// NewAWSJSON1_0 returns the codec of aws.protocols#awsJson1_0 for service
// svc of model m.
func NewAWSJSON1_0(m *model.Model, svc *model.Service, opts ...Option) Codec {
	return newAWSJSONCodec(m, svc, AWSJSON1_0, "application/x-amz-json-1.0", opts)
}

// NewAWSJSON1_1 returns the codec of aws.protocols#awsJson1_1 for service
// svc of model m.
func NewAWSJSON1_1(m *model.Model, svc *model.Service, opts ...Option) Codec {
	return newAWSJSONCodec(m, svc, AWSJSON1_1, "application/x-amz-json-1.1", opts)
}

// awsJSONCodec implements awsJson1_0 and awsJson1_1: every request is a POST
// to "/" naming the operation in X-Amz-Target, with the whole input as a JSON
// object keyed by member names; HTTP binding traits and jsonName are ignored.
type awsJSONCodec struct {
	m           *model.Model
	svc         *model.Service
	protocol    model.ShapeID
	contentType string
	queryCompat bool // aws.protocols#awsQueryCompatible
	cfg         config
	json        jsonOptions

	mu    sync.Mutex
	comp  compiler
	plans sync.Map // *model.Operation -> *awsPlan
}

func newAWSJSONCodec(m *model.Model, svc *model.Service, proto model.ShapeID, contentType string, opts []Option) *awsJSONCodec {
	c := &awsJSONCodec{m: m, svc: svc, protocol: proto, contentType: contentType}
	c.queryCompat = svc.Shape.HasTrait(tQueryCompatible)
	c.cfg = config{newToken: uuidV4}
	for _, o := range opts {
		o.apply(&c.cfg)
	}
	c.json.fillDefaults = true
	if c.cfg.explicitDefaults != nil {
		c.json.fillDefaults = *c.cfg.explicitDefaults
	}
	c.json.epochOutput = c.cfg.epochOutput
	c.comp = compiler{m: m, shapes: map[model.ShapeID]*shapeCodec{}, noJSONName: true}
	return c
}

func (c *awsJSONCodec) Protocol() model.ShapeID { return c.protocol }

// awsPlan is an operation compiled for the awsJson protocols.
type awsPlan struct {
	op        *model.Operation
	target    string // X-Amz-Target: "<service name>.<operation name>"
	in, out   *shapeCodec
	idemToken *memberCodec
	host      []hostSegment
	gzip      bool
	errors    []awsErrorPlan
}

type awsErrorPlan struct {
	shape *model.Shape
	sc    *shapeCodec
}

func (c *awsJSONCodec) plan(op *model.Operation) (*awsPlan, error) {
	if p, ok := c.plans.Load(op); ok {
		return p.(*awsPlan), nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.plans.Load(op); ok {
		return p.(*awsPlan), nil
	}
	p, err := c.compile(op)
	c.comp.finish()
	if err != nil {
		return nil, err
	}
	c.plans.Store(op, p)
	return p, nil
}

func (c *awsJSONCodec) compile(op *model.Operation) (*awsPlan, error) {
	p := &awsPlan{op: op, target: amzTarget(c.svc, op)}
	p.in = c.comp.shape(op.Input.ID)
	p.out = c.comp.shape(op.Output.ID)
	for _, mc := range p.in.members {
		if mc.idemToken {
			p.idemToken = mc
		}
	}
	if e, ok := op.Shape.Trait(tEndpoint); ok {
		host, err := parseHostPrefix(op, p.in, strField(e, "hostPrefix"))
		if err != nil {
			return nil, err
		}
		p.host = host
	}
	if rc, ok := op.Shape.Trait(tCompression); ok {
		if enc, ok := rc.Get("encodings"); ok {
			for _, e := range enc.Items() {
				if e.Str() == "gzip" {
					p.gzip = true
				}
			}
		}
	}
	for _, es := range op.Errors {
		p.errors = append(p.errors, awsErrorPlan{shape: es, sc: c.comp.shape(es.ID)})
	}
	return p, nil
}

func (c *awsJSONCodec) EncodeRequest(ctx context.Context, op *model.Operation, input []byte) (*wire.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := c.plan(op)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*wire.Request, error) {
		return nil, &InputError{Operation: op.Shape.ID, Err: err}
	}
	in := p.in
	vals, err := topLevel(in, input)
	if err != nil {
		return fail(err)
	}
	if p.idemToken != nil && vals[p.idemToken.index] == nil {
		vals[p.idemToken.index] = appendString(nil, c.cfg.newToken())
	}
	if vs := validateInput(in, vals, c.cfg.validate); len(vs) > 0 {
		return nil, &ValidationError{Operation: op.Shape.ID, Violations: vs}
	}
	body := make([]byte, 1, len(input)+len(input)/4+16)
	body[0] = '{'
	n := 0
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
		if body, err = c.json.encodeValue(body, &s, mc); err != nil {
			return fail(inMember(err, mc.name))
		}
	}
	body = append(body, '}')

	req := &wire.Request{Method: "POST", Path: "/", Header: make(wire.Header, 6)}
	req.Header.Set("Content-Type", c.contentType)
	req.Header.Set("X-Amz-Target", p.target)
	if c.queryCompat {
		req.Header.Set("X-Amzn-Query-Mode", "true")
	}
	if req.HostPrefix, err = c.cfg.hostPrefix(p.host, func(mc *memberCodec) []byte { return vals[mc.index] }); err != nil {
		return fail(err)
	}
	if p.gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(body)
		zw.Close()
		body = buf.Bytes()
		req.Header.Set("Content-Encoding", "gzip")
	}
	req.Body = body
	req.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return req, nil
}

func (c *awsJSONCodec) DecodeResponse(ctx context.Context, op *model.Operation, resp *wire.Response) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := c.plan(op)
	if err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, c.decodeError(p, resp)
	}
	out, err := c.decodeStruct(p.out, resp.Body)
	if err != nil {
		return nil, &ResponseError{Operation: op.Shape.ID, Status: resp.Status, Err: err}
	}
	return out, nil
}

// decodeStruct reads a structure from a whole body; an empty body is an
// empty object.
func (c *awsJSONCodec) decodeStruct(sc *shapeCodec, body []byte) ([]byte, error) {
	w := objectWriter{dst: make([]byte, 0, len(body)+len(body)/4+16)}
	w.dst = append(w.dst, '{')
	if len(bytes.TrimSpace(body)) > 0 && sc.kind != kUnit {
		s := scanner{data: body}
		if err := c.json.decodeFields(&w, &s, sc); err != nil {
			return nil, err
		}
	}
	c.json.addDefaults(&w, sc)
	c.errorCorrect(&w, sc)
	return append(w.dst, '}'), nil
}

// errorCorrect gives required members without a default that the service
// left out their zero value, as Smithy's client error correction asks
// (top-level members only; enums, unions and documents stay absent).
func (c *awsJSONCodec) errorCorrect(w *objectWriter, sc *shapeCodec) {
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
			zero = string(c.json.appendDocTimestamp(nil, timestamp{}))
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

// decodeError identifies the error shape of an error response by the type it
// names (X-Amzn-Errortype, else the body's __type, else its code) and reads
// its members. For awsQueryCompatible services the Code is the awsQuery error
// code from x-amzn-query-error when the service sends one.
func (c *awsJSONCodec) decodeError(p *awsPlan, resp *wire.Response) error {
	code := restJSON1ErrorType(resp)
	queryCode := ""
	if c.queryCompat {
		if v, ok := headerValues(resp.Header, "X-Amzn-Query-Error"); ok && len(v) > 0 {
			queryCode, _, _ = strings.Cut(strings.TrimSpace(v[0]), ";")
		}
	}
	var match *awsErrorPlan
	if code != "" {
		for i := range p.errors {
			e := &p.errors[i]
			if e.shape.ID.Name() == code || string(e.shape.ID) == code {
				match = e
				break
			}
		}
	}
	if match == nil {
		e := &ServiceError{Code: orDefault(queryCode, code), Status: resp.Status, Members: resp.Body}
		e.Message = messageOf(resp.Body)
		return e
	}
	members, err := c.decodeStruct(match.sc, resp.Body)
	if err != nil {
		return &ResponseError{Operation: p.op.Shape.ID, Status: resp.Status, Err: fmt.Errorf("error %s: %w", match.shape.ID, err)}
	}
	return &ServiceError{
		Shape:   match.shape.ID,
		Code:    orDefault(queryCode, match.shape.ID.Name()),
		Status:  resp.Status,
		Members: members,
		Message: messageOf(members),
	}
}
