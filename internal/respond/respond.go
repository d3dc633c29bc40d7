// Package respond renders the HTTP responses a service sends, from an
// output or a modeled error in the document form, for the protocols
// restJson1, simpleRestJson, awsJson1_0, awsJson1_1, rpcv2Json, rpcv2Cbor,
// restXml, awsQuery and ec2Query.
// It is written from the protocol specifications independently of the
// codecs in protocol/, so the property tests (testing/proptest) can check
// the codecs' decoders against it, and stubs (client/stub) answer through
// the real decoders: a stubbed output decodes exactly as a real one.
//
// Values are plain Go values as encoding/json decodes them with UseNumber:
// map[string]any, []any, string, json.Number, bool and nil.
package respond

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// Renderer renders the responses of one protocol.
type Renderer interface {
	// RenderResponse renders the response carrying output out of op.
	RenderResponse(m *model.Model, op *model.Operation, out map[string]any) (*wire.Response, error)
	// RenderError renders an error response of error shape e with members.
	RenderError(m *model.Model, op *model.Operation, e *model.Shape, members map[string]any) (*wire.Response, error)
}

// The renderers of each protocol.
var (
	RestJSON1      = Rest{Protocol: protocol.RestJSON1, StatusMax: 299}
	SimpleRestJSON = Rest{Protocol: protocol.SimpleRestJSON, Simple: true, StatusMax: 399}
	RestXML        = Rest{Protocol: protocol.RestXML, XML: true, StatusMax: 299}
	AWSJSON1_0     = AWSJSON{Protocol: protocol.AWSJSON1_0, ContentType: "application/x-amz-json-1.0"}
	AWSJSON1_1     = AWSJSON{Protocol: protocol.AWSJSON1_1, ContentType: "application/x-amz-json-1.1", ShortType: true}
)

// For returns the renderer of service svc's protocol, or nil when this
// package renders none of its protocols.
func For(svc *model.Service) Renderer {
	for _, r := range []struct {
		trait model.ShapeID
		r     Renderer
	}{
		{protocol.RestJSON1, RestJSON1}, {protocol.SimpleRestJSON, SimpleRestJSON},
		{protocol.AWSJSON1_0, AWSJSON1_0}, {protocol.AWSJSON1_1, AWSJSON1_1},
		{protocol.RestXML, RestXML}, {protocol.AWSQuery, Query{NS: ServiceNS(svc)}}, {protocol.RPCv2JSON, RPCv2JSON{}},
		{protocol.RPCv2CBOR, RPCv2CBOR{}}, {protocol.EC2Query, EC2{NS: ServiceNS(svc)}},
	} {
		if svc.Shape.HasTrait(r.trait) {
			if rest, ok := r.r.(Rest); ok && rest.XML {
				rest.svcTraits = svc.Shape.Traits // the root elements' namespace
				return rest
			}
			return r.r
		}
	}
	return nil
}

// ErrNotXML is the error of a value XML 1.0 cannot carry (a control
// character, a lone surrogate): such an output has no restXml or awsQuery
// response.
var ErrNotXML = errors.New("a value XML 1.0 cannot carry")

// UnknownMember is the document form's key of a union member the model
// does not know: {"$unknown": [name, value]}, rendered as that member.
const UnknownMember = "$unknown"

// ErrorStatus is the status of an error shape: its @httpError, else 500
// for a server error and 400 for a client one.
func ErrorStatus(e *model.Shape) int {
	if v, ok := e.Trait(model.TraitHTTPError); ok {
		if n, ok := v.Int64(); ok {
			return int(n)
		}
	}
	if v, ok := e.Trait(model.TraitError); ok && v.Str() == "server" {
		return 500
	}
	return 400
}

// Timestamp formats.
const (
	FmtDateTime = "date-time"
	FmtHTTPDate = "http-date"
	FmtEpoch    = "epoch-seconds"
)

// View reads a model for the renderers.
type View struct{ M *model.Model }

// Target is the shape a member targets (nil when unresolved).
func (v View) Target(mem *model.Member) *model.Shape {
	s, _ := v.M.Target(mem)
	return s
}

// Str is the string value of a member's effective trait: the member's,
// else its target's.
func (v View) Str(mem *model.Member, id model.ShapeID) string {
	n, _ := v.M.MemberTrait(mem, id)
	return n.Str()
}

// TSFormat is the effective timestamp format of a member, def when it has
// none.
func (v View) TSFormat(mem *model.Member, def string) string {
	if mem == nil {
		return def
	}
	if f := v.Str(mem, model.TraitTimestampFormat); f != "" {
		return f
	}
	return def
}

// TypeOf is a shape's type, with strings carrying @enum read as enums and
// sets as lists. A nil shape (an unresolved target) reads as a document.
func TypeOf(s *model.Shape) model.ShapeType {
	if s == nil {
		return model.DocumentType
	}
	switch {
	case s.Type == model.StringType && s.HasTrait(model.TraitEnum):
		return model.EnumType
	case s.Type == model.SetType:
		return model.ListType
	case s.ID == model.UnitID:
		return "unit"
	}
	return s.Type
}

// Elem returns the member of a list or the key and value of a map.
func Elem(s *model.Shape, name string) *model.Member {
	m, _ := s.Member(name)
	return m
}

// WireName is the JSON key of a member: its jsonName when the protocol
// reads it.
func WireName(mem *model.Member, useJSONName bool) string {
	if useJSONName {
		return mem.JSONName()
	}
	return mem.Name()
}

// Loc is where a member travels in an HTTP message.
type Loc uint8

// Locations.
const (
	LocBody Loc = iota
	LocLabel
	LocGreedyLabel
	LocQuery
	LocQueryParams
	LocHeader
	LocPrefixHeaders
	LocPayload
	LocStatus
)

// LocateHTTP is where a top-level member travels in the protocols with
// HTTP binding traits (restJson1, simpleRestJson, restXml).
func LocateHTTP(mem *model.Member, response bool) Loc {
	t := mem.Traits
	switch {
	case t.Has(model.TraitHTTPLabel) && !response:
		return LocLabel
	case t.Has(model.TraitHTTPQuery) && !response:
		return LocQuery
	case t.Has(model.TraitHTTPQueryParams) && !response:
		return LocQueryParams
	case t.Has(model.TraitHTTPHeader):
		return LocHeader
	case t.Has(model.TraitHTTPPrefixHeaders):
		return LocPrefixHeaders
	case t.Has(model.TraitHTTPPayload):
		return LocPayload
	case t.Has(model.TraitHTTPResponseCode) && response:
		return LocStatus
	}
	return LocBody
}

func setDefault(h wire.Header, k, v string) {
	if _, ok := h[wire.CanonicalHeaderKey(k)]; !ok {
		h.Set(k, v)
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// scalarText renders a scalar as label, query, header or XML attribute
// text.
func scalarText(v View, mem *model.Member, val any, defFormat string) (string, error) {
	if TypeOf(v.Target(mem)) == model.TimestampType {
		t, err := DocInstant(val)
		if err != nil {
			return "", err
		}
		return FormatInstant(v.TSFormat(mem, defFormat), t), nil
	}
	switch x := val.(type) {
	case string:
		return x, nil
	case json.Number:
		return string(x), nil
	case bool:
		if x {
			return "true", nil
		}
		return "false", nil
	}
	return "", fmt.Errorf("member %s: %T is not a scalar", mem.ID, val)
}
