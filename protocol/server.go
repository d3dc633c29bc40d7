package protocol

import (
	"context"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Server is the server's half of a protocol: it finds the operation an
// HTTP request calls and reads the request into the operation's input in
// the document form, by the protocol's rules (the inverse of
// Codec.EncodeRequest). Responses are rendered by internal/respond. A
// Server is safe for concurrent use.
type Server interface {
	// Protocol is the id of the protocol trait the server speaks.
	Protocol() model.ShapeID
	// Route returns the operation of the service that req calls. A request
	// that calls none is a *RequestError with the protocol's status and
	// code for an unknown operation.
	Route(req *wire.Request) (*model.Operation, error)
	// DecodeRequest reads op's input from req into the document form (a
	// JSON object keyed by member names). It checks what the protocol's
	// deserializer must: media types, the body's syntax, each value's
	// type, @required members. A request that breaks them is a
	// *RequestError. With WithValidation it also checks the constraint
	// traits and returns every violation as a *ValidationError.
	DecodeRequest(ctx context.Context, op *model.Operation, req *wire.Request) ([]byte, error)
}

// RequestError is a request a server cannot serve, with how the protocol
// answers it.
type RequestError struct {
	Operation model.ShapeID // "" when no operation was found
	Status    int           // the HTTP status to answer: 400, 404, 406, 413, 415
	// Code is the error type the protocol sends ("SerializationException",
	// "UnknownOperationException", ...).
	Code string
	// Member is the path of the member at fault ("items[2].name"), "" when
	// none is.
	Member string
	Err    error
}

func (e *RequestError) Error() string {
	where := ""
	if e.Operation != "" {
		where = " for " + e.Operation.Name()
	}
	if e.Member != "" {
		where += ", member " + e.Member
	}
	return fmt.Sprintf("request%s: %v", where, e.Err)
}

func (e *RequestError) Unwrap() error { return e.Err }

// NewServer returns the server half of the protocol New would choose for
// service svc.
func NewServer(m *model.Model, svc *model.Service, opts ...Option) (Server, error) {
	p := ServiceProtocol(svc)
	if p == "" {
		return nil, fmt.Errorf("service %s has no supported protocol trait", svc.Shape.ID)
	}
	switch p {
	case RestJSON1:
		return newRestServer(m, svc, restJSON1Dialect(), false, opts)
	case SimpleRestJSON:
		return newRestServer(m, svc, simpleRestJSONDialect(), false, opts)
	case RestXML:
		return newRestServer(m, svc, restXMLDialect(svc), true, opts)
	case AWSJSON1_0:
		return newRPCServer(NewAWSJSON1_0(m, svc, opts...).(*rpcCodec)), nil
	case AWSJSON1_1:
		return newRPCServer(NewAWSJSON1_1(m, svc, opts...).(*rpcCodec)), nil
	case RPCv2CBOR:
		return newRPCServer(NewRPCv2CBOR(m, svc, opts...).(*rpcCodec)), nil
	case RPCv2JSON:
		return newRPCServer(NewRPCv2JSON(m, svc, opts...).(*rpcCodec)), nil
	case AWSQuery:
		return newQueryServer(NewAWSQuery(m, svc, opts...).(*queryCodec)), nil
	case EC2Query:
		return newQueryServer(NewEC2Query(m, svc, opts...).(*queryCodec)), nil
	}
	return nil, fmt.Errorf("service %s: no server for protocol %s yet", svc.Shape.ID, p)
}
