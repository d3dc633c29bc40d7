package proptest

import (
	"github.com/smithycurl/smithycurl/model"
)

// Trait ids read here. They are spelled again rather than imported from
// protocol/ on purpose: this package reads the model on its own, so that a
// codec's reading of a trait is checked, not copied.
const (
	tJSONName        model.ShapeID = "smithy.api#jsonName"
	tTimestampFormat model.ShapeID = "smithy.api#timestampFormat"
	tDefault         model.ShapeID = "smithy.api#default"
	tClientOptional  model.ShapeID = "smithy.api#clientOptional"
	tRequired        model.ShapeID = "smithy.api#required"
	tSparse          model.ShapeID = "smithy.api#sparse"
	tLength          model.ShapeID = "smithy.api#length"
	tRange           model.ShapeID = "smithy.api#range"
	tPattern         model.ShapeID = "smithy.api#pattern"
	tUniqueItems     model.ShapeID = "smithy.api#uniqueItems"
	tEnumValue       model.ShapeID = "smithy.api#enumValue"
	tEnum            model.ShapeID = "smithy.api#enum"
	tMediaType       model.ShapeID = "smithy.api#mediaType"
	tIdemToken       model.ShapeID = "smithy.api#idempotencyToken"
	tHostLabel       model.ShapeID = "smithy.api#hostLabel"
	tStreaming       model.ShapeID = "smithy.api#streaming"
	tHTTP            model.ShapeID = "smithy.api#http"
	tHTTPLabel       model.ShapeID = "smithy.api#httpLabel"
	tHTTPQuery       model.ShapeID = "smithy.api#httpQuery"
	tHTTPQueryParams model.ShapeID = "smithy.api#httpQueryParams"
	tHTTPHeader      model.ShapeID = "smithy.api#httpHeader"
	tHTTPPrefix      model.ShapeID = "smithy.api#httpPrefixHeaders"
	tHTTPPayload     model.ShapeID = "smithy.api#httpPayload"
	tHTTPStatus      model.ShapeID = "smithy.api#httpResponseCode"
	tHTTPError       model.ShapeID = "smithy.api#httpError"
	tError           model.ShapeID = "smithy.api#error"
	tEndpoint        model.ShapeID = "smithy.api#endpoint"
	tEventStream     model.ShapeID = "smithy.api#eventStream" // not a trait: streaming unions
	tDiscriminated   model.ShapeID = "alloy#discriminated"
	tUntagged        model.ShapeID = "alloy#untagged"
	tJSONUnknown     model.ShapeID = "alloy#jsonUnknown"
	tNullable        model.ShapeID = "alloy#nullable"
	tOpenEnum        model.ShapeID = "alloy#openEnum"
)

// Timestamp formats.
const (
	fmtDateTime = "date-time"
	fmtHTTPDate = "http-date"
	fmtEpoch    = "epoch-seconds"
)

// view reads a model for the generator and the wire readers.
type view struct{ m *model.Model }

func (v view) shape(id model.ShapeID) *model.Shape {
	s, _ := v.m.Shape(id)
	return s
}

func (v view) target(mem *model.Member) *model.Shape {
	s, _ := v.m.Target(mem)
	return s
}

// trait is a member's effective trait: the member's, else its target's.
func (v view) trait(mem *model.Member, id model.ShapeID) (model.Node, bool) {
	return v.m.MemberTrait(mem, id)
}

func (v view) str(mem *model.Member, id model.ShapeID) string {
	n, _ := v.trait(mem, id)
	return n.Str()
}

// typeOf is a shape's type, with strings carrying @enum read as enums and
// sets as lists. A nil shape (an unresolved target) reads as a document.
func typeOf(s *model.Shape) model.ShapeType {
	if s == nil {
		return model.DocumentType
	}
	switch {
	case s.Type == model.StringType && s.HasTrait(tEnum):
		return model.EnumType
	case s.Type == model.SetType:
		return model.ListType
	case s.ID == "smithy.api#Unit":
		return "unit"
	}
	return s.Type
}

// enumValues lists the values of an enum, or of an intEnum as literals.
func enumValues(s *model.Shape) []string {
	var out []string
	if v, ok := s.Trait(tEnum); ok {
		for _, e := range v.Items() {
			x, _ := e.Get("value")
			out = append(out, x.Str())
		}
		return out
	}
	for _, mem := range s.Members {
		ev, ok := mem.Traits.Get(tEnumValue)
		switch {
		case !ok:
			out = append(out, mem.Name())
		case ev.Kind() == model.NumberNode:
			out = append(out, ev.Literal())
		default:
			out = append(out, ev.Str())
		}
	}
	return out
}

// elem returns the member of a list or the key and value of a map.
func elem(s *model.Shape, name string) *model.Member {
	m, _ := s.Member(name)
	return m
}

// wireName is the JSON key of a member: its jsonName when the protocol
// reads it.
func wireName(mem *model.Member, useJSONName bool) string {
	if useJSONName {
		if v, ok := mem.Traits.Get(tJSONName); ok {
			return v.Str()
		}
	}
	return mem.Name()
}

// unknownMember is the alloy#jsonUnknown member of a structure, if any.
func unknownMember(s *model.Shape) *model.Member {
	for _, mem := range s.Members {
		if mem.Traits.Has(tJSONUnknown) {
			return mem
		}
	}
	return nil
}
