package protocol

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"github.com/smithycurl/smithycurl/internal/uuid"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Protocol trait ids of the AWS query protocols.
const (
	AWSQuery model.ShapeID = "aws.protocols#awsQuery"
	EC2Query model.ShapeID = "aws.protocols#ec2Query"
)

// TraitAWSQueryError is an error's awsQuery code and status.
const TraitAWSQueryError model.ShapeID = "aws.protocols#awsQueryError"

// NewAWSQuery returns the codec of aws.protocols#awsQuery for service svc
// of model m.
func NewAWSQuery(m *model.Model, svc *model.Service, opts ...Option) Codec {
	return newQueryCodec(m, svc, AWSQuery, opts)
}

// NewEC2Query returns the codec of aws.protocols#ec2Query for service svc
// of model m.
func NewEC2Query(m *model.Model, svc *model.Service, opts ...Option) Codec {
	return newQueryCodec(m, svc, EC2Query, opts)
}

// queryCodec implements awsQuery and ec2Query: every request is a POST to
// "/" with the input as form parameters (Action, Version, then the members
// flattened to dotted keys); responses are XML. HTTP binding traits are
// ignored.
//
// awsQuery: keys are member names or @xmlName; lists are Key.member.N
// (Key.N with @xmlFlattened), maps Key.entry.N.key/value; an empty list is
// "Key="; the output is in <OperationResult> inside <OperationResponse>;
// errors are <ErrorResponse><Error><Code>, the code of an error shape being
// its @awsQueryError code or its name.
//
// ec2Query: keys are @ec2QueryName, else @xmlName or the member name with
// its first letter upper-cased; lists are always flattened (Key.N) and an
// empty list sends nothing; the output is the root element's children;
// errors are <Response><Errors><Error><Code>.
type queryCodec struct {
	m        *model.Model
	svc      *model.Service
	protocol model.ShapeID
	ec2      bool
	cfg      config
	json     jsonOptions

	plans plans[*queryPlan]
}

func newQueryCodec(m *model.Model, svc *model.Service, proto model.ShapeID, opts []Option) *queryCodec {
	c := &queryCodec{m: m, svc: svc, protocol: proto, ec2: proto == EC2Query}
	c.cfg = config{newToken: uuid.V4}
	for _, o := range opts {
		o.apply(&c.cfg)
	}
	c.json.epochOutput = c.cfg.epochOutput
	c.plans.init(compiler{m: m, shapes: map[model.ShapeID]*shapeCodec{}}, c.compile)
	return c
}

func (c *queryCodec) Protocol() model.ShapeID { return c.protocol }

// queryPlan is an operation compiled for the query protocols.
type queryPlan struct {
	opCommon
	errors []queryErrorPlan
}

type queryErrorPlan struct {
	shape *model.Shape
	sc    *shapeCodec
	code  string // @awsQueryError code, else the shape name
}

func (c *queryCodec) compile(op *model.Operation) (*queryPlan, error) {
	common, err := compileCommon(&c.plans.comp, op)
	if err != nil {
		return nil, err
	}
	p := &queryPlan{opCommon: common}
	for _, es := range op.Errors {
		code := es.ID.Name()
		if v, ok := es.Trait(TraitAWSQueryError); ok && !c.ec2 {
			code = strField(v, "code")
		}
		p.errors = append(p.errors, queryErrorPlan{shape: es, sc: c.plans.comp.shape(es.ID), code: code})
	}
	return p, nil
}

func (c *queryCodec) EncodeRequest(ctx context.Context, op *model.Operation, input []byte) (*wire.Request, error) {
	p, vals, err := startRequest(ctx, &c.plans, &c.cfg, op, input)
	if err != nil {
		return nil, err
	}
	in := p.in
	body := make([]byte, 0, len(input)*2+64)
	body = append(body, "Action="...)
	body = wire.AppendEscaped(body, op.Name, false)
	body = append(body, "&Version="...)
	body = wire.AppendEscaped(body, c.svc.Shape.Version, false)
	var key []byte
	for i, mc := range in.members {
		raw := vals[i]
		if raw == nil {
			continue
		}
		key = append(key[:0], c.keyOf(mc)...)
		s := scanner{data: raw}
		if body, err = c.encodeValue(body, key, &s, mc); err != nil {
			return inputFailure(op, inMember(err, mc.name))
		}
	}

	req := &wire.Request{Method: "POST", Path: "/", Header: make(wire.Header, 4), Input: wire.Members{Names: in.names, Values: vals}}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if req.HostPrefix, err = c.cfg.hostPrefix(p.host, func(mc *memberCodec) []byte { return vals[mc.index] }); err != nil {
		return inputFailure(op, err)
	}
	if p.gzip && c.cfg.compression.applies(len(body)) {
		body = gzipBody(req.Header, body)
	}
	setBody(req, body)
	return req, nil
}

// keyOf is the key part of a structure member.
func (c *queryCodec) keyOf(mc *memberCodec) string {
	if c.ec2 {
		return mc.xml.ec2Name
	}
	return mc.xml.name
}

// The keys of lists and maps: "Key" + listItems + ".N" for item N (from
// 1), "Key" + mapEntries + ".N." + the key's or the value's name for
// entry N. An empty awsQuery list is "Key=", an empty ec2Query list
// nothing.

// listItems is the segment of a list's keys between the list's own key
// and the item numbers: "member" (the item's @xmlName) in awsQuery, none
// ("") when flattened and always in ec2Query.
func (c *queryCodec) listItems(mc *memberCodec) string {
	if c.ec2 || mc.xml.flattened {
		return ""
	}
	return mc.target.elem.xml.name
}

// mapEntries is the segment of a map's keys between the map's own key and
// the entry numbers: "entry", none when flattened.
func mapEntries(mc *memberCodec) string {
	if mc.xml.flattened {
		return ""
	}
	return "entry"
}

// appendKeyPart appends "." and seg to key, nothing when seg is "".
func appendKeyPart(key []byte, seg string) []byte {
	if seg == "" {
		return key
	}
	return append(append(key, '.'), seg...)
}

// appendParam appends "&key=value", both form-encoded.
func appendParam(dst, key []byte, value string) []byte {
	dst = append(dst, '&')
	dst = wire.AppendEscaped(dst, string(key), false)
	dst = append(dst, '=')
	return wire.AppendEscaped(dst, value, false)
}

// encodeValue appends the parameters of one document-form value under key.
func (c *queryCodec) encodeValue(dst, key []byte, s *scanner, mc *memberCodec) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kList:
		if s.peek() != '[' {
			return dst, typeError("an array")
		}
		n := 0
		base := len(key)
		key = appendKeyPart(key, c.listItems(mc))
		prefix := len(key)
		err := s.array(func(i int) error {
			if null, err := nullItem(s, sc); null || err != nil {
				return inIndex(err, i)
			}
			n++
			key = append(key[:prefix], '.')
			key = strconv.AppendInt(key, int64(n), 10)
			var err error
			dst, err = c.encodeValue(dst, key, s, sc.elem)
			return inIndex(err, i)
		})
		if err == nil && n == 0 && !c.ec2 {
			dst = appendParam(dst, key[:base], "")
		}
		return dst, err
	case kMap:
		if s.peek() != '{' {
			return dst, typeError("an object")
		}
		n := 0
		key = appendKeyPart(key, mapEntries(mc))
		prefix := len(key)
		err := s.object(func(k []byte) error {
			if null, err := nullItem(s, sc); null || err != nil {
				return inKey(err, k)
			}
			n++
			key = append(key[:prefix], '.')
			key = strconv.AppendInt(key, int64(n), 10)
			entry := len(key)
			key = append(key, '.')
			key = append(key, sc.key.xml.name...)
			dst = appendParam(dst, key, string(k))
			key = append(key[:entry], '.')
			key = append(key, sc.elem.xml.name...)
			var err error
			dst, err = c.encodeValue(dst, key, s, sc.elem)
			return inKey(err, k)
		})
		return dst, err
	case kStruct, kUnion, kUnit:
		if s.peek() != '{' {
			return dst, typeError("an object")
		}
		prefix := len(key)
		_, err := setMembers(s, sc, func(m *memberCodec) error {
			var err error
			key = append(key[:prefix], '.')
			key = append(key, c.keyOf(m)...)
			dst, err = c.encodeValue(dst, key, s, m)
			return inMember(err, m.name)
		})
		return dst, err
	case kDocument:
		return dst, badValue("documents cannot be sent in a query protocol")
	}
	text, err := readText(s, mc, formatDateTime)
	if err != nil {
		return dst, err
	}
	return appendParam(dst, key, text), nil
}

func (c *queryCodec) DecodeResponse(ctx context.Context, op *model.Operation, resp *wire.Response) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := c.plans.get(op)
	if err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, c.decodeError(p, resp)
	}
	fail := func(err error) ([]byte, error) {
		return nil, outputFailure(op, resp.Status, p.out, err)
	}
	doc := resp.Body
	if !c.ec2 && len(bytes.TrimSpace(doc)) > 0 && p.out.kind != kUnit {
		// <OperationResponse><OperationResult>members</...></...>
		start, end, ok, err := findElement(doc, "", op.Name+"Result")
		if err != nil {
			return fail(err)
		}
		if !ok {
			start, end = 0, 0
		}
		doc = doc[start:end]
	}
	out, err := decodeXMLStruct(&c.json, p.out, doc)
	if err != nil {
		return fail(err)
	}
	return out, nil
}

// decodeError reads an error response: its <Error> element's Code names
// the error shape.
func (c *queryCodec) decodeError(p *queryPlan, resp *wire.Response) error {
	path := []string{"ErrorResponse", "Error"}
	if c.ec2 {
		path = []string{"Response", "Errors", "Error"}
	}
	unmodeled := func(code, msg string) error {
		return &ServiceError{Code: code, Status: resp.Status, Members: resp.Body, Message: msg}
	}
	start, end, ok, err := findElement(resp.Body, path...)
	if err != nil || !ok {
		return unmodeled("", "")
	}
	elem := resp.Body[start:end]
	code, _ := childText(elem, "Code")
	msg, _ := childText(elem, "Message")
	for i := range p.errors {
		e := &p.errors[i]
		if e.code != code {
			continue
		}
		members, err := decodeXMLStruct(&c.json, e.sc, elem)
		if err != nil {
			return &ResponseError{Operation: p.op.Shape.ID, Status: resp.Status, Err: fmt.Errorf("error %s: %w", e.shape.ID, err)}
		}
		members = withMessage(members, e.sc, msg)
		return &ServiceError{Shape: e.shape.ID, Code: code, Status: resp.Status, Members: members, Message: orDefault(messageOf(members), msg)}
	}
	return unmodeled(code, msg)
}
