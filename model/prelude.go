package model

import (
	_ "embed"
	"sync"
)

// preludeSource is the smithy.api namespace, written from the specification.
//
//go:embed prelude.smithy
var preludeSource []byte

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
		f := parseIDL("smithy.api/prelude.smithy", preludeSource)
		a := newAssembler(nil)
		a.run([]*draftFile{f})
		prelude = &preludeModel{file: f, drafts: a.drafts, shapes: a.shapes, events: a.events}
	})
	return prelude
}
