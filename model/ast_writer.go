package model

import (
	"sort"
	"strings"
)

// MarshalAST writes the model, prelude and bundled shapes excluded, as a
// Smithy JSON AST 2.0 document in the reference tools' layout: shapes sorted
// by id, each shape as its own definition declares it (members and traits
// from mixins are not repeated), traits sorted by id.
func (m *Model) MarshalAST() []byte {
	var root ObjectBuilder
	root.Set("smithy", String("2.0"))
	if m.metadata.Len() > 0 {
		root.Set("metadata", sortedObject(m.metadata))
	}
	var shapes ObjectBuilder
	for _, id := range m.ShapeIDs() {
		if id.Namespace() == PreludeNamespace || m.shapes[id].bundled {
			continue
		}
		shapes.list = append(shapes.list, String(string(id)), m.shapes[id].astNode())
	}
	root.Set("shapes", shapes.Build())
	var b strings.Builder
	root.Build().appendJSON(&b, "", "    ")
	b.WriteByte('\n')
	return []byte(b.String())
}

func sortedObject(n Node) Node {
	keys := n.Keys()
	sort.Strings(keys)
	var b ObjectBuilder
	for _, k := range keys {
		v, _ := n.Get(k)
		b.list = append(b.list, String(k), v)
	}
	return b.Build()
}

func targetNode(id ShapeID) Node { return Object("target", String(string(id))) }

func targetList(ids []ShapeID) Node {
	items := make([]Node, len(ids))
	for i, id := range ids {
		items[i] = targetNode(id)
	}
	return Array(items...)
}

func traitsNode(ts Traits) Node {
	sorted := append(Traits(nil), ts...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	var b ObjectBuilder
	for _, t := range sorted {
		b.list = append(b.list, String(string(t.ID)), t.Value)
	}
	return b.Build()
}

func memberNode(mem *Member) Node {
	var b ObjectBuilder
	b.Set("target", String(string(mem.Target)))
	if len(mem.Traits) > 0 {
		b.Set("traits", traitsNode(mem.Traits))
	}
	return b.Build()
}

func (s *Shape) astNode() Node {
	d := s
	if s.local != nil {
		d = s.local
	}
	var b ObjectBuilder
	b.Set("type", String(string(s.Type)))
	if len(s.Mixins) > 0 {
		b.Set("mixins", targetList(s.Mixins))
	}
	switch s.Type {
	case ListType, SetType, MapType:
		for _, mem := range d.Members {
			b.Set(mem.Name(), memberNode(mem))
		}
	case StructureType, UnionType, EnumType, IntEnumType:
		var members ObjectBuilder
		for _, mem := range d.Members {
			members.list = append(members.list, String(mem.Name()), memberNode(mem))
		}
		b.Set("members", members.Build())
	case OperationType:
		b.Set("input", targetNode(orUnit(d.Input)))
		b.Set("output", targetNode(orUnit(d.Output)))
		if len(d.Errors) > 0 {
			b.Set("errors", targetList(d.Errors))
		}
	case ServiceType:
		if d.Version != "" {
			b.Set("version", String(d.Version))
		}
		setList(&b, "operations", d.Operations)
		setList(&b, "resources", d.Resources)
		setList(&b, "errors", d.Errors)
		if len(d.Rename) > 0 {
			var r ObjectBuilder
			for _, x := range d.Rename {
				r.Set(string(x.ID), String(x.Name))
			}
			b.Set("rename", r.Build())
		}
	case ResourceType:
		setRefs(&b, "identifiers", d.Identifiers)
		setRefs(&b, "properties", d.Properties)
		for _, p := range []struct {
			name string
			id   ShapeID
		}{{"create", d.Create}, {"put", d.Put}, {"read", d.Read}, {"update", d.Update}, {"delete", d.Delete}, {"list", d.List}} {
			if p.id != "" {
				b.Set(p.name, targetNode(p.id))
			}
		}
		setList(&b, "operations", d.Operations)
		setList(&b, "collectionOperations", d.CollectionOperations)
		setList(&b, "resources", d.Resources)
	}
	if len(d.Traits) > 0 {
		b.Set("traits", traitsNode(d.Traits))
	}
	return b.Build()
}

func orUnit(id ShapeID) ShapeID {
	if id == "" {
		return UnitID
	}
	return id
}

func setList(b *ObjectBuilder, key string, ids []ShapeID) {
	if len(ids) > 0 {
		b.Set(key, targetList(ids))
	}
}

func setRefs(b *ObjectBuilder, key string, refs []Ref) {
	if len(refs) == 0 {
		return
	}
	var o ObjectBuilder
	for _, r := range refs {
		o.Set(r.Name, targetNode(r.Target))
	}
	b.Set(key, o.Build())
}
