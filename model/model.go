package model

import (
	"sort"
	"sync"
)

// Model is an assembled, validated Smithy model. It is immutable and safe for
// concurrent use; clients share one Model instead of copying it.
type Model struct {
	shapes   map[ShapeID]*Shape
	metadata Node
	// version is the highest IDL/AST version among the model's files.
	version string

	indexOnce sync.Once
	services  map[ShapeID]*Service
}

// Shape returns the shape with id (members are looked up with Member).
func (m *Model) Shape(id ShapeID) (*Shape, bool) {
	s, ok := m.shapes[id]
	return s, ok
}

// Member returns the member with id "ns#Shape$member".
func (m *Model) Member(id ShapeID) (*Member, bool) {
	s, ok := m.shapes[id.Root()]
	if !ok || id.Member() == "" {
		return nil, false
	}
	return s.Member(id.Member())
}

// ShapeIDs returns the ids of every shape, prelude included, sorted.
func (m *Model) ShapeIDs() []ShapeID {
	ids := make([]ShapeID, 0, len(m.shapes))
	for id := range m.shapes {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// NumShapes returns the number of shapes, prelude included.
func (m *Model) NumShapes() int { return len(m.shapes) }

// Metadata returns the merged metadata object.
func (m *Model) Metadata() Node { return m.metadata }

// ShapesOfType returns the ids of the shapes of type t, sorted.
func (m *Model) ShapesOfType(t ShapeType) []ShapeID {
	var ids []ShapeID
	for id, s := range m.shapes {
		if s.Type == t {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}
