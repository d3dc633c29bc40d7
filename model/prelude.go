package model

import (
	_ "embed"
	"sync"
)

// preludeSource is the smithy.api namespace, written from the specification.
//
//go:embed prelude.smithy
var preludeSource []byte

// preludeSnapshot is preludeSource assembled and written as a snapshot, so
// that a process reads the prelude instead of parsing and assembling it on
// its first load. TestPreludeSnapshot checks that it is current;
// `go test ./model -run TestPreludeSnapshot -update-prelude` rewrites it.
//
//go:embed prelude.scmodel
var preludeSnapshot string

// preludeModel is the assembled prelude, shared read-only by every load.
type preludeModel struct {
	file   *draftFile
	drafts map[ShapeID]*draftShape
	shapes map[ShapeID]*Shape
	// events are problems in the prelude itself; tests keep them empty.
	events []Event
}

var (
	preludeOnce sync.Once
	prelude     *preludeModel
)

func loadPrelude() *preludeModel {
	preludeOnce.Do(func() {
		if prelude = readPrelude(); prelude == nil {
			prelude = buildPrelude() // a snapshot of another format version
		}
	})
	return prelude
}

// buildPrelude parses and assembles preludeSource.
func buildPrelude() *preludeModel {
	f := parseIDL("smithy.api/prelude.smithy", preludeSource)
	a := newAssembler(nil, []*draftFile{f})
	a.run([]*draftFile{f})
	return &preludeModel{file: f, drafts: a.drafts, shapes: a.shapes, events: a.events}
}

// readPrelude reads preludeSnapshot (nil when it cannot).
func readPrelude() *preludeModel {
	m, err := unmarshalSnapshot("smithy.api/prelude.scmodel", preludeSnapshot)
	if err != nil {
		return nil
	}
	f := &draftFile{path: "smithy.api/prelude.smithy", version: "2.0", namespace: PreludeNamespace}
	return &preludeModel{file: f, drafts: draftsOf(f, m), shapes: m.shapes}
}

// draftsOf gives the shapes of m, read from a snapshot of file f, the
// drafts a load needs of shapes it does not assemble: id, type and location
// (which shapes exist, the default value of an annotation trait).
func draftsOf(f *draftFile, m *Model) map[ShapeID]*draftShape {
	out := make(map[ShapeID]*draftShape, len(m.shapes))
	drafts := make([]draftShape, 0, len(m.shapes))
	f.shapes = make([]*draftShape, 0, len(m.shapes))
	for _, id := range m.ShapeIDs() {
		s := m.shapes[id]
		drafts = append(drafts, draftShape{id: id, typ: s.Type, loc: s.Loc})
		d := &drafts[len(drafts)-1]
		out[id] = d
		f.shapes = append(f.shapes, d)
	}
	return out
}
