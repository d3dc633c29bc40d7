package proptest

import (
	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// Responder renders the responses of a protocol (by package respond): the
// part of Protocol the response differential against botocore
// (testing/cmd/geninputs -responses) needs. Every Protocol is one; awsQuery
// is one too (its requests are not read back by these tests, so it is not
// a Protocol).
type Responder interface {
	Trait() model.ShapeID
	Locate(mem *model.Member, response bool) Loc
	Status() (min, max int)
	RenderResponse(m *model.Model, op *model.Operation, out map[string]any) (*wire.Response, error)
	RenderError(m *model.Model, op *model.Operation, e *model.Shape, members map[string]any) (*wire.Response, error)
}

// Locator says where a top-level member travels (Protocol.Locate).
type Locator interface {
	Locate(mem *model.Member, response bool) Loc
}

// ResponderOf returns the responder of service svc, or nil.
func ResponderOf(svc *model.Service) Responder {
	if p := ProtocolOf(svc); p != nil {
		return p
	}
	if svc.Shape.HasTrait(protocol.AWSQuery) {
		return queryProto{}
	}
	if svc.Shape.HasTrait(protocol.RestXML) {
		return restProto{Rest: respond.RestXML}
	}
	return nil
}

// queryProto is awsQuery: every member in the body.
type queryProto struct{ respond.Query }

func (queryProto) Trait() model.ShapeID           { return protocol.AWSQuery }
func (queryProto) Locate(*model.Member, bool) Loc { return LocBody }
func (queryProto) Status() (int, int)             { return 200, 200 }
