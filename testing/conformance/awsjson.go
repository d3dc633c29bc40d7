package conformance

import (
	"context"
	"errors"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// AWSJSON1_0 runs the aws.protocols#awsJson1_0 client cases.
func AWSJSON1_0(shared string) Result {
	return runRPC(shared, "awsJson1_0", protocol.AWSJSON1_0, protocol.NewAWSJSON1_0)
}

// AWSJSON1_1 runs the aws.protocols#awsJson1_1 client cases.
func AWSJSON1_1(shared string) Result {
	return runRPC(shared, "awsJson1_1", protocol.AWSJSON1_1, protocol.NewAWSJSON1_1)
}

type awsCodecFunc func(*model.Model, *model.Service, ...protocol.Option) protocol.Codec

func runRPC(shared, suite string, proto model.ShapeID, newCodec awsCodecFunc) Result {
	r := Result{Suite: suite}
	m, err := loadProtocolModel(shared)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	cases, err := collectCases(m, proto)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	// The RPC codecs are per service (the request names the service):
	// route each operation to the codec of the service it was found in.
	codec := serviceCodecs{}
	for _, sid := range m.Services() {
		s, _ := m.Shape(sid)
		if !s.HasTrait(proto) {
			continue
		}
		svc, err := m.Service(sid)
		if err != nil {
			r.fail("load", "%v", err)
			return r
		}
		c := newCodec(m, svc, protocol.WithIdempotencyTokens(func() string { return fixedToken }))
		for _, op := range svc.Operations {
			codec[op] = c
		}
	}
	excl := readExclusions(suite + ".tsv")
	cases, custom, s3Addressed := clientCases(m, cases)
	runProtocolCases(&r, m, codec, cases, excl, checkErrorCode)
	runClientCases(&r, shared, m, custom, s3Addressed, excl)
	return r
}

// serviceCodecs is a protocol.Codec that sends each operation to the codec
// of its service.
type serviceCodecs map[*model.Operation]protocol.Codec

func (s serviceCodecs) Protocol() model.ShapeID { return "" }

func (s serviceCodecs) codec(op *model.Operation) (protocol.Codec, error) {
	if c, ok := s[op]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("operation %s has no service codec", op.Shape.ID)
}

func (s serviceCodecs) EncodeRequest(ctx context.Context, op *model.Operation, input []byte) (*wire.Request, error) {
	c, err := s.codec(op)
	if err != nil {
		return nil, err
	}
	return c.EncodeRequest(ctx, op, input)
}

func (s serviceCodecs) DecodeResponse(ctx context.Context, op *model.Operation, resp *wire.Response) ([]byte, error) {
	c, err := s.codec(op)
	if err != nil {
		return nil, err
	}
	return c.DecodeResponse(ctx, op, resp)
}

// checkErrorCode checks the error code of error response cases that give one
// in vendorParams (aws.protocoltests.config#ErrorCodeParams: the awsQuery
// code of query-compatible services).
func checkErrorCode(codec protocol.Codec, c protocolCase) error {
	vp, ok := c.tc.Get("vendorParams")
	if !ok || c.errShape == nil {
		return nil
	}
	want := field(vp, "code")
	if want == "" {
		return nil
	}
	resp := &wire.Response{Header: wire.Header{}, Body: caseBody(c.tc)}
	if v, ok := c.tc.Get("code"); ok {
		n, _ := v.Int64()
		resp.Status = int(n)
	}
	if v, ok := c.tc.Get("headers"); ok {
		for i := 0; i < v.Len(); i++ {
			k, val := v.Entry(i)
			resp.Header[k] = append(resp.Header[k], val.Str())
		}
	}
	_, err := codec.DecodeResponse(context.Background(), c.op, resp)
	var se *protocol.ServiceError
	if !errors.As(err, &se) {
		return fmt.Errorf("want a service error, got %v", err)
	}
	if se.Code != want {
		return fmt.Errorf("error code %q, want %q", se.Code, want)
	}
	return nil
}
