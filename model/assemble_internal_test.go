package model

import (
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestValidateSeesEveryShape: the order validation follows (assembler.sorted,
// taken before mixins are expanded) holds every shape of the model but the
// bundled ones, which references pull in later.
func TestValidateSeesEveryShape(t *testing.T) {
	pulled := 0
	for _, dir := range []string{"models/aws", "idl-conformance/valid"} {
		l := NewLoader()
		if err := l.AddPath(shareddata.Path(t, dir)); err != nil {
			t.Fatal(err)
		}
		a := newAssembler(loadPrelude(), l.parse())
		a.pulled = map[string]bool{}
		m := a.run(l.parse())
		sorted := map[ShapeID]bool{}
		for _, id := range a.sorted {
			sorted[id] = true
		}
		for id, s := range m.shapes {
			switch {
			case s.bundled:
				pulled++
			case !sorted[id]:
				t.Errorf("%s: shape %s is not in the validation order", dir, id)
			}
		}
		if len(m.shapes) < 100 {
			t.Errorf("%s: %d shapes: the test sees too little", dir, len(m.shapes))
		}
	}
	if pulled == 0 {
		t.Error("no bundled shape was pulled in: the test sees too little")
	}
}
