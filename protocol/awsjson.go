package protocol

import (
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Protocol trait ids of the AWS JSON RPC protocols.
const (
	AWSJSON1_0 model.ShapeID = "aws.protocols#awsJson1_0"
	AWSJSON1_1 model.ShapeID = "aws.protocols#awsJson1_1"
)

// TraitAWSQueryCompatible marks a JSON service that also names its errors
// by their awsQuery code.
const TraitAWSQueryCompatible model.ShapeID = "aws.protocols#awsQueryCompatible"

// NewAWSJSON1_0 returns the codec of aws.protocols#awsJson1_0 for service
// svc of model m.
func NewAWSJSON1_0(m *model.Model, svc *model.Service, opts ...Option) Codec {
	return newRPCCodec(m, svc, awsJSONDialect(AWSJSON1_0, "application/x-amz-json-1.0"), opts)
}

// NewAWSJSON1_1 returns the codec of aws.protocols#awsJson1_1 for service
// svc of model m.
func NewAWSJSON1_1(m *model.Model, svc *model.Service, opts ...Option) Codec {
	return newRPCCodec(m, svc, awsJSONDialect(AWSJSON1_1, "application/x-amz-json-1.1"), opts)
}

// awsJSONDialect is awsJson1_0 and awsJson1_1: every request is a POST to
// "/" naming the operation in X-Amz-Target; errors are named by
// X-Amzn-Errortype, else the body's __type, else its code.
func awsJSONDialect(proto model.ShapeID, contentType string) rpcDialect {
	return rpcDialect{
		protocol:    proto,
		contentType: contentType,
		path:        func(*model.Service, *model.Operation) string { return "/" },
		header: func(h wire.Header, svc *model.Service, op *model.Operation) {
			h.Set("X-Amz-Target", amzTarget(svc, op))
		},
		newFormat: func(o *jsonOptions) rpcFormat { return jsonFormat{o: o, errTyp: restJSON1ErrorType} },
	}
}
