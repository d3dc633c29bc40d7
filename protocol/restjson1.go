package protocol

import (
	"context"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// NewRestJSON1 returns the codec of aws.protocols#restJson1 for model m.
func NewRestJSON1(m *model.Model, opts ...Option) Codec {
	return newRestCodec(m, restJSON1Dialect(), opts)
}

func restJSON1Dialect() dialect {
	return dialect{
		protocol:          RestJSON1,
		errorType:         restJSON1ErrorType,
		successMax:        299,
		defaultsByDefault: true,
	}
}

// restJSON1ErrorType reads the error type of a restJson1 error response:
// the X-Amzn-Errortype header, else the body's __type, else its code.
func restJSON1ErrorType(resp *wire.Response) string {
	if v, ok := headerValues(resp.Header, "X-Amzn-Errortype"); ok && len(v) > 0 && v[0] != "" {
		return sanitizeErrorType(v[0])
	}
	var typ, code string
	s := scanner{data: resp.Body}
	s.object(func(key []byte) error {
		k := string(key)
		if (k == "__type" || k == "code") && s.peek() == '"' {
			v, err := s.str()
			if k == "__type" {
				typ = v
			} else {
				code = v
			}
			return err
		}
		_, err := s.skip()
		return err
	})
	if typ != "" {
		return sanitizeErrorType(typ)
	}
	return sanitizeErrorType(code)
}

func (c *restCodec) EncodeRequest(ctx context.Context, op *model.Operation, input []byte) (*wire.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := c.plans.get(op)
	if err != nil {
		return nil, err
	}
	return c.encodeRequest(p, input, nil)
}

func (c *restCodec) EncodeRequestPayload(ctx context.Context, op *model.Operation, input, payload []byte) (*wire.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := c.plans.get(op)
	if err != nil {
		return nil, err
	}
	if pm := p.in.payload; pm == nil || pm.target.kind != kBlob {
		return inputFailure(op, fmt.Errorf("operation %s has no blob payload to give as bytes", op.Name))
	}
	if payload == nil {
		payload = []byte{}
	}
	return c.encodeRequest(p, input, payload)
}

func (c *restCodec) DecodeResponse(ctx context.Context, op *model.Operation, resp *wire.Response) ([]byte, error) {
	return c.DecodeResponseInto(ctx, op, resp, nil)
}

func (c *restCodec) DecodeResponseInto(ctx context.Context, op *model.Operation, resp *wire.Response, alloc Alloc) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := c.plans.get(op)
	if err != nil {
		return nil, err
	}
	return c.decodeResponse(p, resp, alloc)
}

func strField(n model.Node, key string) string {
	v, _ := n.Get(key)
	return v.Str()
}
