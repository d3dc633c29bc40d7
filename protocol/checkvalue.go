package protocol

import (
	"fmt"

	"github.com/smithycurl/smithycurl/model"
)

// CheckValue checks doc, a value of structure id in the document form, as
// the encoders check an input: every member one the structure has, every
// value of its member's type (typecheck.go), every @required member set;
// not the constraint traits. The error names the member path
// ("member items[2].name: expected a string"). Stubs (client/stub) check
// the outputs and errors they are given with it.
func CheckValue(m *model.Model, id model.ShapeID, doc []byte) error {
	return checkValue(m, id, doc, true)
}

// CheckMembers checks doc as CheckValue does, but as a part of a value of
// structure id: its own members may be left out even when @required
// (those of the structures inside it may not). A mock server's fixtures
// match requests on some input members with it.
func CheckMembers(m *model.Model, id model.ShapeID, doc []byte) error {
	return checkValue(m, id, doc, false)
}

func checkValue(m *model.Model, id model.ShapeID, doc []byte, required bool) error {
	s, ok := m.Shape(id)
	if !ok || s.Type != model.StructureType {
		return fmt.Errorf("%s is not a structure of the model", id)
	}
	c := compiler{m: m, shapes: map[model.ShapeID]*shapeCodec{}}
	sc := c.shape(id)
	c.finish()
	sn := scanner{data: doc}
	if _, err := (&jsonOptions{}).encodeStruct(nil, &sn, sc, false); err != nil {
		return err
	}
	if !sn.atEnd() {
		return sn.errorf("unexpected data after the object")
	}
	vals, err := topLevel(sc, doc)
	if err != nil {
		return err
	}
	if !required {
		part := *sc
		part.members = make([]*memberCodec, len(sc.members))
		for i, mc := range sc.members {
			c := *mc
			c.required = false
			part.members[i] = &c
		}
		sc = &part
	}
	if vs := validateInput(sc, vals, false); len(vs) > 0 {
		return fmt.Errorf("member %s", vs[0])
	}
	return nil
}
