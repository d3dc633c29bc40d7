package proptest

import (
	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// Timestamp formats.
const (
	fmtDateTime = respond.FmtDateTime
	fmtHTTPDate = respond.FmtHTTPDate
	fmtEpoch    = respond.FmtEpoch
)

// view reads a model for the generator and the wire readers.
type view struct{ m *model.Model }

func (v view) shape(id model.ShapeID) *model.Shape {
	s, _ := v.m.Shape(id)
	return s
}

func (v view) target(mem *model.Member) *model.Shape { return respond.View{M: v.m}.Target(mem) }

// trait is a member's effective trait: the member's, else its target's.
func (v view) trait(mem *model.Member, id model.ShapeID) (model.Node, bool) {
	return v.m.MemberTrait(mem, id)
}

func (v view) str(mem *model.Member, id model.ShapeID) string {
	return respond.View{M: v.m}.Str(mem, id)
}

// tsFormat is the effective timestamp format of a member, def when it has
// none.
func (v view) tsFormat(mem *model.Member, def string) string {
	return respond.View{M: v.m}.TSFormat(mem, def)
}

// typeOf is a shape's type, with strings carrying @enum read as enums and
// sets as lists. A nil shape (an unresolved target) reads as a document.
func typeOf(s *model.Shape) model.ShapeType { return respond.TypeOf(s) }

// elem returns the member of a list or the key and value of a map.
func elem(s *model.Shape, name string) *model.Member { return respond.Elem(s, name) }

// wireName is the JSON key of a member: its jsonName when the protocol
// reads it.
func wireName(mem *model.Member, useJSONName bool) string { return respond.WireName(mem, useJSONName) }

// unknownMember is the alloy#jsonUnknown member of a structure, if any.
func unknownMember(s *model.Shape) *model.Member {
	for _, mem := range s.Members {
		if mem.Traits.Has(protocol.TraitJSONUnknown) {
			return mem
		}
	}
	return nil
}
