package model

import (
	"embed"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// The bundled namespaces are the trait definitions of the protocols, auth
// schemes and companion namespaces the library supports or reads (aws.api,
// aws.auth, aws.customizations, aws.protocols, alloy, smithy.framework,
// smithy.protocols, smithy.rules, smithy.waiters), written from the
// specifications, one file per namespace under bundled/.
//
// Like the prelude, a bundled namespace is assembled once per process and
// shared read-only; unlike the prelude it is assembled only when a model first
// refers to it, and a load copies in only the namespaces its files refer to.
// A model may define shapes of a bundled namespace itself (an older or newer
// copy of the same definitions): its own definition of a shape replaces the
// bundled one, as if the bundle were a dependency the model did not declare.
//
//go:embed bundled/*.smithy bundled/*.scmodel
var bundledFS embed.FS

// bundledNamespace is one bundled namespace, assembled on first use.
type bundledNamespace struct {
	name   string
	once   sync.Once
	file   *draftFile
	drafts map[ShapeID]*draftShape
	shapes map[ShapeID]*Shape
	// events are problems in the bundled file itself; tests keep them empty.
	events []Event
}

// bundled maps each bundled namespace to its definitions. The map is fixed
// when the package is initialised; each entry assembles itself once.
var bundled = bundledIndex()

func bundledIndex() map[string]*bundledNamespace {
	entries, err := bundledFS.ReadDir("bundled")
	if err != nil {
		panic("model: the embedded bundled definitions are missing: " + err.Error())
	}
	out := make(map[string]*bundledNamespace, len(entries))
	for _, e := range entries {
		if ns, ok := strings.CutSuffix(e.Name(), ".smithy"); ok {
			out[ns] = &bundledNamespace{name: ns}
		}
	}
	return out
}

// BundledNamespaces returns the namespaces whose trait definitions the loader
// supplies when a model refers to them without defining them, sorted.
func BundledNamespaces() []string {
	out := make([]string, 0, len(bundled))
	for ns := range bundled {
		out = append(out, ns)
	}
	sort.Strings(out)
	return out
}

// load assembles the namespace on top of the prelude, once: it reads the
// namespace's embedded snapshot (bundled/NS.scmodel), else parses and
// assembles its definitions. A bundled namespace refers only to itself and
// the prelude.
func (b *bundledNamespace) load() *bundledNamespace {
	b.once.Do(func() {
		if !b.read() {
			b.build()
		}
	})
	return b
}

// build parses and assembles the namespace's definitions.
func (b *bundledNamespace) build() {
	path := "bundled/" + b.name + ".smithy"
	src, err := bundledFS.ReadFile(path)
	if err != nil {
		panic("model: the embedded file " + path + " is missing: " + err.Error())
	}
	f := parseIDL("smithycurl/"+path, src)
	f.bundled = true
	a := newAssembler(loadPrelude(), []*draftFile{f})
	a.run([]*draftFile{f})
	b.file, b.events = f, a.events
	b.drafts = make(map[ShapeID]*draftShape, len(f.shapes))
	b.shapes = make(map[ShapeID]*Shape, len(f.shapes))
	for _, d := range f.shapes {
		if s, ok := a.shapes[d.id]; ok && a.drafts[d.id] == d {
			s.bundled = true
			b.drafts[d.id], b.shapes[d.id] = d, s
		}
	}
}

// read reads the namespace's embedded snapshot, which TestBundledSnapshots
// keeps current; false when there is none or it is of another format.
func (b *bundledNamespace) read() bool {
	name := "bundled/" + b.name + ".scmodel"
	data, err := bundledFS.ReadFile(name)
	if err != nil {
		return false
	}
	m, err := unmarshalSnapshotOver(name, unsafe.String(unsafe.SliceData(data), len(data)), loadPrelude().shapes)
	if err != nil {
		return false
	}
	b.file = &draftFile{path: "smithycurl/bundled/" + b.name + ".smithy", version: "2.0", namespace: b.name, bundled: true}
	b.shapes, b.drafts = m.shapes, draftsOf(b.file, m)
	return true
}

// defined reports whether shape id (a root id) is defined, first copying in
// the bundled namespace that would define it.
func (a *assembler) defined(id ShapeID) bool { return a.draftOf(id) != nil }

// draftOf returns the draft of shape id (a root id), first copying in the
// bundled namespace that would define it; nil when no shape has that id.
func (a *assembler) draftOf(id ShapeID) *draftShape {
	for _, d := range a.known {
		if d != nil && d.id == id {
			return d
		}
	}
	if d, ok := a.drafts[id]; ok {
		a.known[a.nextKnown%len(a.known)] = d
		a.nextKnown++
		return d
	}
	if !a.pull(id.Namespace()) {
		return nil
	}
	return a.drafts[id]
}

// pull copies bundled namespace ns into the model being assembled, once per
// load; false when ns is not bundled or was already copied. Shapes the model
// defines itself keep their own definition.
func (a *assembler) pull(ns string) bool {
	if a.pulled == nil || a.pulled[ns] {
		return false
	}
	b, ok := bundled[ns]
	if !ok {
		return false
	}
	a.pulled[ns] = true
	b.load()
	for id, d := range b.drafts {
		if own, ok := a.drafts[id]; ok {
			a.event(SeverityNote, "Model.BundledDefinitionReplaced", id, own.loc,
				"The model's own definition of `%s` replaces smithycurl's bundled one", id)
			continue
		}
		a.drafts[id], a.owner[id], a.shapes[id], a.state[id] = d, b.file, b.shapes[id], 2
	}
	a.events = append(a.events, b.events...)
	return true
}

// own returns the shape with root id for changing it: a bundled shape, shared
// by every model, is first replaced by a copy that only this model holds.
func (a *assembler) own(id ShapeID) (*Shape, bool) {
	s, ok := a.shapes[id]
	if !ok || !s.bundled {
		return s, ok
	}
	c := *s
	c.bundled = false
	c.Members = make([]*Member, len(s.Members))
	copies := make(map[*Member]*Member, len(s.Members))
	for i, m := range s.Members {
		mc := *m
		c.Members[i] = &mc
		copies[m] = &mc
	}
	if s.local != nil {
		l := *s.local
		l.Members = make([]*Member, len(s.local.Members))
		for i, m := range s.local.Members {
			if mc, ok := copies[m]; ok {
				l.Members[i] = mc
			} else {
				mc := *m
				l.Members[i] = &mc
			}
		}
		c.local = &l
	}
	a.shapes[id] = &c
	return &c, true
}
