package model

import (
	"fmt"
	"sort"
)

// Diff compares two models as values (shapes with their members, traits and
// properties, and metadata; the prelude is the same in both) and describes
// each difference. No difference means the models are equal.
func Diff(x, y *Model) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if !x.metadata.Equal(y.metadata) {
		add("metadata: %s != %s", x.metadata.JSON(), y.metadata.JSON())
	}
	ids := map[ShapeID]bool{}
	for id := range x.shapes {
		ids[id] = true
	}
	for id := range y.shapes {
		ids[id] = true
	}
	sorted := make([]ShapeID, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	for _, id := range sorted {
		a, okA := x.shapes[id]
		b, okB := y.shapes[id]
		switch {
		case !okA:
			add("%s: only in the second model", id)
		case !okB:
			add("%s: only in the first model", id)
		default:
			out = append(out, diffShape(a, b)...)
		}
	}
	return out
}

func diffShape(a, b *Shape) []string {
	var out []string
	add := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("%s: ", a.ID)+fmt.Sprintf(format, args...))
	}
	if a.Type != b.Type {
		add("type %s != %s", a.Type, b.Type)
	}
	out = append(out, diffTraits(a.ID, a.Traits, b.Traits)...)
	if len(a.Members) != len(b.Members) {
		add("%d members != %d", len(a.Members), len(b.Members))
	}
	for i := 0; i < len(a.Members) && i < len(b.Members); i++ {
		ma, mb := a.Members[i], b.Members[i]
		if ma.ID != mb.ID || ma.Target != mb.Target {
			add("member %d: %s -> %s != %s -> %s", i, ma.ID, ma.Target, mb.ID, mb.Target)
			continue
		}
		out = append(out, diffTraits(ma.ID, ma.Traits, mb.Traits)...)
	}
	pairs := []struct {
		name string
		x, y any
	}{
		{"mixins", a.Mixins, b.Mixins},
		{"input", orUnit(a.Input), orUnit(b.Input)}, {"output", orUnit(a.Output), orUnit(b.Output)},
		{"errors", a.Errors, b.Errors}, {"version", a.Version, b.Version},
		{"operations", a.Operations, b.Operations}, {"resources", a.Resources, b.Resources},
		{"rename", a.Rename, b.Rename}, {"identifiers", a.Identifiers, b.Identifiers},
		{"properties", a.Properties, b.Properties}, {"create", a.Create, b.Create}, {"put", a.Put, b.Put},
		{"read", a.Read, b.Read}, {"update", a.Update, b.Update}, {"delete", a.Delete, b.Delete},
		{"list", a.List, b.List}, {"collectionOperations", a.CollectionOperations, b.CollectionOperations},
	}
	if a.Type != OperationType {
		pairs = append(pairs[:1], pairs[3:]...)
	}
	for _, p := range pairs {
		if fmt.Sprint(p.x) != fmt.Sprint(p.y) {
			add("%s %v != %v", p.name, p.x, p.y)
		}
	}
	return out
}

func diffTraits(id ShapeID, a, b Traits) []string {
	var out []string
	for _, t := range a {
		v, ok := b.Get(t.ID)
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: trait %s only in the first model", id, t.ID))
		case !v.Equal(t.Value):
			out = append(out, fmt.Sprintf("%s: trait %s: %s != %s", id, t.ID, t.Value.JSON(), v.JSON()))
		}
	}
	for _, t := range b {
		if !a.Has(t.ID) {
			out = append(out, fmt.Sprintf("%s: trait %s only in the second model", id, t.ID))
		}
	}
	return out
}
