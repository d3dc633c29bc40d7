// Package protocol turns operation inputs into HTTP requests and HTTP
// responses into operation outputs or errors, for the Smithy protocols
// aws.protocols#restJson1, alloy#simpleRestJson, aws.protocols#awsJson1_0,
// aws.protocols#awsJson1_1, smithy.protocols#rpcv2Cbor,
// smithy.protocols#rpcv2Json, aws.protocols#restXml, aws.protocols#awsQuery
// and aws.protocols#ec2Query. It has no network code. The RPC protocols
// share one codec (rpc.go); rpcv2Cbor transcodes the document form to CBOR
// and back in one pass (cborcodec.go).
//
// XML (restXml bodies, query responses) is read by a tokenizer of its own
// (xmltok.go) driven by the compiled shapes, in one pass to the document
// form: no DTD, no entity but the five predefined ones and character
// references, no external reference, UTF-8 only, nesting bounded.
//
// Values are JSON in the document form: objects keyed by Smithy member names
// (never jsonName), blobs as base64 strings, timestamps as epoch seconds or
// RFC 3339 strings on input and RFC 3339 UTC strings on output, big numbers
// with every digit, NaN and infinities as "NaN", "Infinity", "-Infinity",
// unions as objects with one member, enums as their value.
package protocol

import (
	"context"
	"fmt"

	"github.com/smithycurl/smithycurl/internal/uuid"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Codec encodes requests and decodes responses of one protocol. A Codec is
// safe for concurrent use; it compiles each operation once.
type Codec interface {
	// Protocol is the id of the protocol trait the codec speaks.
	Protocol() model.ShapeID
	// EncodeRequest builds the HTTP request of op from its input in the
	// document form ("" or "{}" for no input). Errors are *ValidationError
	// or *InputError.
	EncodeRequest(ctx context.Context, op *model.Operation, input []byte) (*wire.Request, error)
	// DecodeResponse returns the output of op in the document form, or a
	// *ServiceError for an error response, or a *ResponseError.
	DecodeResponse(ctx context.Context, op *model.Operation, resp *wire.Response) ([]byte, error)
}

// OutputDecoder is a Codec that decodes an output into memory the caller
// gives (the REST and RPC protocols but the query ones): the C API's
// result buffer, so that the output is written once where the caller
// reads it.
type OutputDecoder interface {
	// DecodeResponseInto is DecodeResponse writing a successful
	// response's output into memory alloc gives (nil: the codec's own).
	DecodeResponseInto(ctx context.Context, op *model.Operation, resp *wire.Response, alloc Alloc) ([]byte, error)
}

// Alloc gives memory for an output of about size bytes: a slice of
// length 0 and capacity at least size. The output is returned in it when
// it fits; one that outgrows it moves to Go memory (a slice of capacity
// below size is not used).
type Alloc func(size int) []byte

// buffer is memory for an output of about size bytes: a's, else Go's.
func (a Alloc) buffer(size int) []byte {
	if a != nil {
		if b := a(size); cap(b) >= size {
			return b[:0]
		}
	}
	return make([]byte, 0, size)
}

// PayloadEncoder is a Codec whose protocol binds a blob to the body (the
// REST protocols): the body can be given as bytes beside the document.
type PayloadEncoder interface {
	// EncodeRequestPayload is EncodeRequest with payload, not a base64
	// string of input, as the value of op's blob payload member
	// (@httpPayload, streaming or not), which input must leave out:
	// payload becomes the body as it is, without a copy. An operation
	// without a blob payload is an *InputError.
	EncodeRequestPayload(ctx context.Context, op *model.Operation, input, payload []byte) (*wire.Request, error)
}

// BlobPayload returns the name of the blob bound to the body of op's input
// (output with out) in a REST protocol, "" when there is none: what
// PayloadEncoder encodes, and what a response without that member in its
// document carries as its body (wire.Response.Streamed).
func BlobPayload(m *model.Model, protocol model.ShapeID, op *model.Operation, out bool) string {
	switch protocol {
	case RestJSON1, RestXML, SimpleRestJSON:
	default:
		return ""
	}
	s := op.Input
	if out {
		s = op.Output
	}
	for _, mem := range s.Members {
		if mem.Traits.Has(model.TraitHTTPPayload) {
			if target, ok := m.Shape(mem.Target); ok && target.Type == model.BlobType {
				return mem.Name()
			}
			return ""
		}
	}
	return ""
}

// Protocol trait ids.
const (
	RestJSON1      model.ShapeID = "aws.protocols#restJson1"
	SimpleRestJSON model.ShapeID = "alloy#simpleRestJson"
)

// Option configures a codec.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	validate         bool
	newToken         func() string
	explicitDefaults *bool
	epochOutput      bool
	noHostPrefix     bool
	bucketInEndpoint bool
	compression      compression
}

// WithBucketInEndpoint leaves a leading {Bucket} label out of S3's request
// paths: the endpoint rules put the bucket in the endpoint (its host, or
// its path for path-style addressing), as every AWS SDK does with them.
func WithBucketInEndpoint() Option {
	return optionFunc(func(c *config) { c.bucketInEndpoint = true })
}

// WithValidation turns on the check of the input against the model's
// constraint traits (@length, @range, @pattern, enum and intEnum values,
// @uniqueItems) before anything is sent. It is off by default, as the Smithy
// specification says for clients: the service has the last word, and a
// model older than the service would refuse values the service accepts.
// @required and the type checks (numbers in their type's range, valid
// base64 blobs, timestamps in years 0001 to 9999) are always on.
func WithValidation() Option { return optionFunc(func(c *config) { c.validate = true }) }

// WithoutValidation turns the constraint checks of WithValidation off
// again (the default). @required and the type checks stay on.
func WithoutValidation() Option { return optionFunc(func(c *config) { c.validate = false }) }

// WithIdempotencyTokens sets the function that fills idempotency tokens the
// caller left out (default: a random UUID v4).
func WithIdempotencyTokens(f func() string) Option {
	return optionFunc(func(c *config) { c.newToken = f })
}

// WithExplicitDefaults sets whether absent members of nested structures are
// sent with their default values. restJson1 sends them by default;
// simpleRestJson does not (smithy4s's explicitDefaultsEncoding).
func WithExplicitDefaults(on bool) Option {
	return optionFunc(func(c *config) { c.explicitDefaults = &on })
}

// WithEpochTimestamps makes decoded timestamps epoch seconds (numbers)
// instead of RFC 3339 strings.
func WithEpochTimestamps() Option { return optionFunc(func(c *config) { c.epochOutput = true }) }

// WithoutHostPrefix leaves wire.Request.HostPrefix empty: the endpoint
// trait's hostPrefix and its host labels are not looked at.
func WithoutHostPrefix() Option { return optionFunc(func(c *config) { c.noHostPrefix = true }) }

// WithRequestCompression sets when a body is compressed as the operation's
// @requestCompression says: never when off, else when it has at least
// minBytes bytes (default DefaultMinCompressionBytes; a streaming payload
// never is). Its range is the caller's to check (the AWS SDKs': 0 to
// awsconfig.MaxMinCompressionSize).
func WithRequestCompression(on bool, minBytes int) Option {
	return optionFunc(func(c *config) { c.compression = compression{off: !on, minBytes: minBytes, minSet: true} })
}

// New returns the codec for the protocol trait of service svc.
func New(m *model.Model, svc *model.Service, opts ...Option) (Codec, error) {
	switch ServiceProtocol(svc) {
	case RestJSON1:
		return NewRestJSON1(m, opts...), nil
	case SimpleRestJSON:
		return NewSimpleRestJSON(m, opts...), nil
	case AWSJSON1_0:
		return NewAWSJSON1_0(m, svc, opts...), nil
	case AWSJSON1_1:
		return NewAWSJSON1_1(m, svc, opts...), nil
	case RPCv2CBOR:
		return NewRPCv2CBOR(m, svc, opts...), nil
	case RPCv2JSON:
		return NewRPCv2JSON(m, svc, opts...), nil
	case RestXML:
		return NewRestXML(m, svc, opts...), nil
	case AWSQuery:
		return NewAWSQuery(m, svc, opts...), nil
	case EC2Query:
		return NewEC2Query(m, svc, opts...), nil
	}
	return nil, fmt.Errorf("service %s has no supported protocol trait (restJson1, simpleRestJson, awsJson1_0, awsJson1_1, rpcv2Cbor, rpcv2Json, restXml, awsQuery, ec2Query)", svc.Shape.ID)
}

// protocols are the supported protocols in the order New prefers them
// when a service has several.
var protocols = []model.ShapeID{RestJSON1, SimpleRestJSON, AWSJSON1_0, AWSJSON1_1, RPCv2CBOR, RPCv2JSON, RestXML, AWSQuery, EC2Query}

// ServiceProtocol is the protocol New gives svc's codec ("" when none is
// supported).
func ServiceProtocol(svc *model.Service) model.ShapeID {
	for _, p := range protocols {
		if svc.Shape.HasTrait(p) {
			return p
		}
	}
	return ""
}

// BlobPayloads names op's blob payload members of svc's protocol, input
// and output ("" when none): BlobPayload of the protocol New chooses, for
// what describes an operation without a client (the C API's operation
// JSON, the typed generators); client.BlobPayloads says the same.
func BlobPayloads(m *model.Model, svc *model.Service, op *model.Operation) (in, out string) {
	p := ServiceProtocol(svc)
	return BlobPayload(m, p, op, false), BlobPayload(m, p, op, true)
}

// dialect holds what differs between the REST protocols (restJson1,
// simpleRestJson, restXml).
type dialect struct {
	protocol model.ShapeID
	// errorType finds the error type a response names ("" if none).
	errorType func(resp *wire.Response) string
	// errorBody, when set, finds the part of an error body that holds the
	// error's members (restXml's <Error> element).
	errorBody func(body []byte) []byte
	// errorIn200, when set, finds an error in a successful response
	// without a payload member (S3's CopyObject and
	// CompleteMultipartUpload answer 200 with an <Error> body).
	errorIn200 func(body []byte) bool
	// byStatus falls back to the only error of the operation that owns the
	// response status.
	byStatus bool
	// successMax is the highest status that is not an error.
	successMax int
	// jsonStringPayload sends string and enum payloads without a media type
	// as JSON strings (simpleRestJson) instead of plain text.
	jsonStringPayload bool
	// defaultsByDefault is whether nested defaults are sent when the
	// caller did not choose.
	defaultsByDefault bool
}

// restCodec implements both REST JSON protocols.
type restCodec struct {
	m    *model.Model
	d    dialect
	cfg  config
	json jsonOptions
	body restBody // the document body: JSON, or XML for restXml

	plans plans[*opPlan]
}

func newRestCodec(m *model.Model, d dialect, opts []Option) *restCodec {
	c := &restCodec{m: m, d: d}
	c.cfg = config{newToken: uuid.V4}
	for _, o := range opts {
		o.apply(&c.cfg)
	}
	c.json.fillDefaults = d.defaultsByDefault
	if c.cfg.explicitDefaults != nil {
		c.json.fillDefaults = *c.cfg.explicitDefaults
	}
	c.json.epochOutput = c.cfg.epochOutput
	c.body = jsonBody{o: &c.json}
	c.plans.init(compiler{m: m, shapes: map[model.ShapeID]*shapeCodec{}, bucketInEndpoint: c.cfg.bucketInEndpoint}, func(op *model.Operation) (*opPlan, error) {
		return compileOperation(&c.plans.comp, op)
	})
	return c
}

func (c *restCodec) Protocol() model.ShapeID { return c.d.protocol }
