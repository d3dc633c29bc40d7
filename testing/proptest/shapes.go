package proptest

import (
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
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
	case s.Type == model.StringType && s.HasTrait(model.TraitEnum):
		return model.EnumType
	case s.Type == model.SetType:
		return model.ListType
	case s.ID == model.UnitID:
		return "unit"
	}
	return s.Type
}

// enumValues lists the values of an enum, or of an intEnum as literals.
func enumValues(s *model.Shape) []string {
	var out []string
	if v, ok := s.Trait(model.TraitEnum); ok {
		for _, e := range v.Items() {
			x, _ := e.Get("value")
			out = append(out, x.Str())
		}
		return out
	}
	for _, mem := range s.Members {
		ev, ok := mem.Traits.Get(model.TraitEnumValue)
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
		return mem.JSONName()
	}
	return mem.Name()
}

// unknownMember is the alloy#jsonUnknown member of a structure, if any.
func unknownMember(s *model.Shape) *model.Member {
	for _, mem := range s.Members {
		if mem.Traits.Has(protocol.TraitJSONUnknown) {
			return mem
		}
	}
	return nil
}
