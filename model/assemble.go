package model

import (
	"slices"
	"strings"
)

// assembler turns the draft files of a model into Shapes: it resolves relative
// ids, builds each shape's own definition, applies `apply` statements and
// mixins, and merges metadata.
type assembler struct {
	events []Event
	drafts map[ShapeID]*draftShape
	owner  map[ShapeID]*draftFile
	shapes map[ShapeID]*Shape
	uses   map[*draftFile]map[string]ShapeID
	// pending are traits applied to members that a shape inherits from mixins;
	// they are added when the shape's mixins have been applied.
	pending map[ShapeID][]pendingTrait
	state   map[ShapeID]uint8 // mixin expansion: 1 in progress, 2 done, 3 failed
	prelude *preludeModel
	// registered are the drafts that define shapes (the first of each id),
	// in the order of the files; merges are later definitions of the same
	// shapes that differ only in traits.
	registered []fileDraft
	merges     []fileDraft
	// pulled holds the bundled namespaces copied into the model (bundle.go);
	// nil while the prelude or a bundled namespace is itself assembled.
	pulled map[string]bool
	// sorted are the ids of the shapes once built and applied to, sorted:
	// mixins are expanded and the model validated in this order. Shapes
	// are added after that only by pull, and they are bundled ones.
	sorted []ShapeID

	// known are the last drafts draftOf found, and nextKnown the one to
	// replace next: references to a few shapes (traits, the prelude's
	// simple shapes) repeat, and an id once defined keeps its draft.
	known     [8]*draftShape
	nextKnown int

	// The slabs of the shapes built, their traits, members and member ids.
	shapeSlab  slab[Shape]
	traitSlab  slab[Trait]
	memberSlab slab[Member]
	memberPtrs slab[*Member]
	ids        byteSlab
}

// fileDraft is a draft shape and the file that defines it.
type fileDraft struct {
	f *draftFile
	d *draftShape
}

type pendingTrait struct {
	trait Trait
	loc   SourceLocation
}

func (a *assembler) event(sev Severity, id string, shape ShapeID, loc SourceLocation, format string, args ...any) {
	a.events = append(a.events, Event{Severity: sev, ID: id, Shape: shape, Loc: loc, Message: sprintf(format, args...)})
}

func (a *assembler) errorf(shape ShapeID, loc SourceLocation, format string, args ...any) {
	a.event(SeverityError, "Model", shape, loc, format, args...)
}

// newAssembler returns an assembler for files on top of prelude p (nil
// while the prelude itself is assembled).
func newAssembler(p *preludeModel, files []*draftFile) *assembler {
	// Sized for the prelude, the files' shapes and a few bundled namespaces:
	// growing a map rehashes it.
	size := 64
	if p != nil {
		size += len(p.drafts)
	}
	own := 0
	for _, f := range files {
		own += len(f.shapes)
	}
	size += own
	a := &assembler{
		drafts:     make(map[ShapeID]*draftShape, size),
		owner:      make(map[ShapeID]*draftFile, size),
		shapes:     make(map[ShapeID]*Shape, size),
		uses:       map[*draftFile]map[string]ShapeID{},
		pending:    map[ShapeID][]pendingTrait{},
		state:      make(map[ShapeID]uint8, size),
		prelude:    p,
		registered: make([]fileDraft, 0, own),
	}
	if p != nil {
		for id, d := range p.drafts {
			a.drafts[id] = d
			a.owner[id] = p.file
			a.state[id] = 2
		}
		for id, s := range p.shapes {
			a.shapes[id] = s
		}
		a.events = append(a.events, p.events...)
	}
	return a
}

// assemble builds a model from files, on top of the prelude.
func assemble(files []*draftFile) (*Model, []Event) {
	a := newAssembler(loadPrelude(), files)
	a.pulled = map[string]bool{}
	m := a.run(files)
	// Like the reference tools, fully validate only a model that assembled
	// cleanly: shapes that failed to assemble would only add confusing
	// follow-on errors. References to undefined shapes are reported anyway,
	// so that one load lists every one of them.
	validate(m, a, hasErrors(a.events))
	applySuppressions(m, a)
	sortEvents(a.events)
	return m, a.events
}

func (a *assembler) run(files []*draftFile) *Model {
	for _, f := range files {
		a.events = append(a.events, f.events...)
	}
	a.register(files)
	for _, fd := range a.registered {
		a.shapes[fd.d.id] = a.build(fd.f, fd.d)
	}
	a.mergeDuplicates()
	for _, f := range files {
		for _, ap := range f.applies {
			a.apply(f, ap)
		}
	}
	ids := make([]ShapeID, 0, len(a.shapes))
	for id := range a.shapes {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	a.sorted = ids
	for _, id := range ids {
		a.expand(id, nil)
	}
	for id, pts := range a.pending {
		if len(pts) > 0 {
			a.errorf("", pts[0].loc, "Trait `%s` applied to unknown shape `%s`", pts[0].trait.ID.Name(), id)
		}
	}
	a.upgradeV1(files)
	m := &Model{shapes: a.shapes, version: "2.0"}
	m.metadata = a.mergeMetadata(files)
	return m
}

func hasErrors(events []Event) bool {
	for _, e := range events {
		if e.Severity == SeverityError {
			return true
		}
	}
	return false
}

// register indexes every draft shape by id and reports duplicate definitions.
func (a *assembler) register(files []*draftFile) {
	for _, f := range files {
		for _, d := range f.shapes {
			if d.id.Namespace() == PreludeNamespace && a.prelude != nil {
				a.errorf(d.id, d.loc, "Cannot define shapes in the `smithy.api` namespace: `%s`", d.id)
				continue
			}
			prev, dup := a.drafts[d.id]
			if !dup {
				a.drafts[d.id] = d
				a.owner[d.id] = f
				a.registered = append(a.registered, fileDraft{f, d})
				continue
			}
			if sameStructure(prev, d) {
				if equalDraftTraits(prev.traits, d.traits) && equalMemberTraits(prev, d) {
					a.event(SeverityNote, "Model.IgnoredDuplicateDefinition", d.id, d.loc,
						"Ignoring duplicate but equivalent shape definition: %s defined at %s and %s", d.id, prev.loc, d.loc)
				} else {
					// The same shape with other traits: its traits merge as if applied.
					a.merges = append(a.merges, fileDraft{f, d})
				}
				continue
			}
			a.errorf(d.id, d.loc, "Conflicting shape definition for `%s` found at `%s` and `%s`", d.id, prev.loc, d.loc)
		}
		uses := map[string]ShapeID{}
		for _, u := range f.uses {
			if prev, ok := uses[u.id.Name()]; ok && prev != u.id {
				a.errorf("", u.loc, "Cannot use name `%s` because it conflicts with `%s`", u.id, prev)
			}
			uses[u.id.Name()] = u.id
		}
		a.uses[f] = uses
	}
	for _, f := range files {
		for _, d := range f.shapes {
			a.checkVersion(f, d)
		}
		for _, u := range f.uses {
			if !a.defined(u.id) {
				a.event(SeverityWarning, "Model", "", u.loc, "Use statement refers to undefined shape: %s", u.id)
			}
		}
	}
}

// checkVersion reports what a file's IDL version does not allow.
func (a *assembler) checkVersion(f *draftFile, d *draftShape) {
	if f.json {
		return
	}
	if f.version == "2.0" {
		if d.typ == SetType {
			a.errorf(d.id, d.loc, "set shapes cannot be used in Smithy version 2.0")
		}
		return
	}
	switch d.typ {
	case EnumType, IntEnumType:
		a.errorf(d.id, d.loc, "%s shapes cannot be used in Smithy version 1.0", d.typ)
	case SetType:
		a.event(SeverityWarning, "ModelDeprecation", d.id, d.loc,
			"Set shapes are deprecated and have been removed in Smithy IDL v2. Use a list shape with the @uniqueItems trait instead.")
	}
	for _, t := range d.traits {
		if id, _ := a.resolve(f, t.name.name); id == TraitMixin {
			a.errorf(d.id, t.loc, "Mixins can only be used in Smithy 2.0 or later. Attempted to apply a @mixin trait to `%s` in a model file using version `1.0`.", d.id)
		}
	}
	for _, m := range d.members {
		for _, t := range m.traits {
			if id, _ := a.resolve(f, t.name.name); id == TraitDefault {
				a.errorf(d.id.WithMember(m.name), t.loc, "The @default trait can only be used in Smithy 2.0 or later")
			}
		}
	}
}

// sameStructure reports whether two definitions of a shape agree on
// everything but traits.
func sameStructure(x, y *draftShape) bool {
	if x.typ != y.typ || len(x.members) != len(y.members) || len(x.mixins) != len(y.mixins) ||
		x.input.name != y.input.name || x.output.name != y.output.name {
		return false
	}
	for i := range x.members {
		if x.members[i].name != y.members[i].name || x.members[i].target.name != y.members[i].target.name {
			return false
		}
	}
	for i := range x.mixins {
		if x.mixins[i].name != y.mixins[i].name {
			return false
		}
	}
	return true
}

func equalMemberTraits(x, y *draftShape) bool {
	for i := range x.members {
		if !equalDraftTraits(x.members[i].traits, y.members[i].traits) {
			return false
		}
	}
	return true
}

// mergeDuplicates adds the traits of duplicate definitions to the shapes.
func (a *assembler) mergeDuplicates() {
	for _, dm := range a.merges {
		s := a.shapes[dm.d.id]
		if s == nil {
			continue
		}
		for _, t := range a.traits(dm.f, dm.d.id, dm.d.traits) {
			s.Traits = a.addTrait(s.Traits, t, s.ID, dm.d.loc)
		}
		for i, dmem := range dm.d.members {
			m := s.Members[i]
			for _, t := range a.traits(dm.f, m.ID, dmem.traits) {
				m.Traits = a.addTrait(m.Traits, t, m.ID, dmem.loc)
			}
		}
	}
}

func equalDraftTraits(x, y []draftTrait) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].name.name != y[i].name.name || !x[i].value.Equal(y[i].value) {
			return false
		}
	}
	return true
}

// resolve turns a reference as written in f into an absolute id; found is
// false when no such shape is defined (the id then names f's namespace).
func (a *assembler) resolve(f *draftFile, name string) (ShapeID, bool) {
	if strings.IndexByte(name, '#') >= 0 {
		id := ShapeID(name)
		root := id.Root()
		d := a.draftOf(root)
		if d != nil && root == id {
			// The string of the definition: equal ids are then one string,
			// and comparing them (map keys included) compares pointers.
			id = d.id
		}
		return id, d != nil
	}
	root, member, hasMember := strings.Cut(name, "$")
	suffix := ""
	if hasMember {
		suffix = "$" + member
	}
	if id, ok := a.uses[f][root]; ok {
		return id + ShapeID(suffix), true
	}
	if f.namespace != "" {
		id := ShapeID(f.namespace + "#" + root)
		if a.defined(id) {
			return id + ShapeID(suffix), true
		}
	}
	if id := PreludeID(root); a.prelude != nil {
		if _, ok := a.prelude.drafts[id]; ok {
			return id + ShapeID(suffix), true
		}
	}
	ns := f.namespace
	if ns == "" {
		ns = PreludeNamespace
	}
	return ShapeID(ns + "#" + name), false
}

func (a *assembler) ref(f *draftFile, r draftRef) ShapeID {
	if !r.set() {
		return ""
	}
	id, _ := a.resolve(f, r.name)
	return id
}

func (a *assembler) refs(f *draftFile, rs []draftRef) []ShapeID {
	if len(rs) == 0 {
		return nil
	}
	out := make([]ShapeID, len(rs))
	for i, r := range rs {
		out[i] = a.ref(f, r)
	}
	return out
}

func (a *assembler) namedRefs(f *draftFile, rs []draftNamedRef) []Ref {
	if len(rs) == 0 {
		return nil
	}
	out := make([]Ref, len(rs))
	for i, r := range rs {
		out[i] = Ref{Name: r.name, Target: a.ref(f, r.target)}
	}
	return out
}

// duplicateMember reports whether name is among the earlier members, in any
// letter case (member names must differ case-insensitively).
func duplicateMember(earlier []*draftMember, name string) bool {
	for _, e := range earlier {
		if len(e.name) == len(name) && strings.EqualFold(e.name, name) {
			return true
		}
	}
	return false
}

// build makes the shape of a draft as its own definition declares it.
func (a *assembler) build(f *draftFile, d *draftShape) *Shape {
	s := a.shapeSlab.one()
	s.ID, s.Type, s.Loc = d.id, d.typ, d.loc
	s.Traits = a.traits(f, d.id, d.traits)
	// Room for every member: pointers to them stay valid.
	a.memberSlab.grow(len(d.members))
	a.memberPtrs.grow(len(d.members))
	members, ptrs := a.memberSlab.mark(), a.memberPtrs.mark()
	var seen map[string]bool // only for many members: a scan is cheaper below that
	if len(d.members) > 64 {
		seen = make(map[string]bool, len(d.members))
	}
	for i, dm := range d.members {
		mid := ShapeID(a.ids.join(string(d.id.Root()), '$', dm.name))
		dup := false
		if seen != nil {
			lower := strings.ToLower(dm.name)
			dup, seen[lower] = seen[lower], true
		} else {
			dup = duplicateMember(d.members[:i], dm.name)
		}
		if dup {
			a.errorf(mid, dm.loc, "Duplicate member of `%s`: `%s`", d.id, dm.name)
			continue
		}
		a.memberSlab.push(&members, Member{ID: mid, Target: a.ref(f, dm.target), Traits: a.traits(f, mid, dm.traits), Loc: dm.loc})
		m := &a.memberSlab.buf[len(a.memberSlab.buf)-1]
		if m.Target == "" && !dm.elided && (d.typ == EnumType || d.typ == IntEnumType) {
			m.Target = UnitID
		}
		if d.typ == EnumType && !m.Traits.Has(TraitEnumValue) {
			// An enum member without a value has its name as value.
			m.Traits = append(m.Traits[:len(m.Traits):len(m.Traits)], Trait{ID: TraitEnumValue, Value: String(dm.name)})
		}
		a.memberPtrs.push(&ptrs, m)
	}
	s.Members = a.memberPtrs.done(ptrs)
	s.Mixins = a.refs(f, d.mixins)
	s.Input, s.Output = a.ref(f, d.input), a.ref(f, d.output)
	s.Errors = a.refs(f, d.errors)
	s.Operations, s.Resources = a.refs(f, d.operations), a.refs(f, d.resources)
	s.CollectionOperations = a.refs(f, d.collectionOps)
	s.Create, s.Put, s.Read = a.ref(f, d.create), a.ref(f, d.put), a.ref(f, d.read)
	s.Update, s.Delete, s.List = a.ref(f, d.update), a.ref(f, d.del), a.ref(f, d.list)
	s.Identifiers, s.Properties = a.namedRefs(f, d.identifiers), a.namedRefs(f, d.properties)
	s.Version = d.version
	for _, r := range d.rename {
		id, _ := a.resolve(f, r.name)
		s.Rename = append(s.Rename, Rename{ID: id, Name: r.target.name})
	}
	return s
}

// traits resolves the trait applications of one shape or member.
func (a *assembler) traits(f *draftFile, target ShapeID, ts []draftTrait) Traits {
	if len(ts) == 0 {
		return nil
	}
	mark := a.traitSlab.mark()
	for _, t := range ts {
		id, _ := a.resolve(f, t.name.name)
		v := t.value
		switch {
		case t.annotation:
			v = a.annotationValue(id)
		case !f.json: // a JSON AST has no syntactic shape ids
			v = a.resolveNode(f, v)
		}
		if out := Traits(a.traitSlab.built(mark)); out.Has(id) {
			// The list is not shared yet: the merged value, or the same
			// one after a conflict, replaces it in place.
			copy(out, a.addTrait(out, Trait{ID: id, Value: v}, target, t.loc))
			continue
		}
		a.traitSlab.push(&mark, Trait{ID: id, Value: v})
	}
	return a.traitSlab.done(mark)
}

// annotationValue is the value of a trait written without one (`@foo`):
// {} for structures, maps and unknown traits, [] for lists, else null (which
// trait validation then reports).
func (a *assembler) annotationValue(id ShapeID) Node {
	d, ok := a.drafts[id]
	if !ok {
		return Object()
	}
	switch d.typ {
	case StructureType, MapType:
		return Object()
	case ListType, SetType:
		return Array()
	}
	return Null()
}

// addTrait adds t to ts following the spec's conflict rules: equal values
// merge, two lists concatenate, anything else is a conflict. ts is never
// modified in place, because trait lists are shared with mixins.
func (a *assembler) addTrait(ts Traits, t Trait, target ShapeID, loc SourceLocation) Traits {
	for i := range ts {
		if ts[i].ID != t.ID {
			continue
		}
		switch {
		case ts[i].Value.Equal(t.Value):
			return ts
		case ts[i].Value.Kind() == ArrayNode && t.Value.Kind() == ArrayNode:
			items := append(append([]Node{}, ts[i].Value.Items()...), t.Value.Items()...)
			out := append(Traits(nil), ts...)
			out[i].Value = Array(items...)
			return out
		default:
			a.errorf(target, loc, "Conflicting `%s` trait found on shape `%s`. The previous trait was defined at `%s`, and a conflicting trait was defined at `%s`.",
				t.ID, target, a.traitLoc(target), loc)
			return ts
		}
	}
	return append(ts[:len(ts):len(ts)], t)
}

func (a *assembler) traitLoc(target ShapeID) SourceLocation {
	if s, ok := a.shapes[target.Root()]; ok {
		if m, ok := s.Member(target.Member()); ok {
			return m.Loc
		}
		return s.Loc
	}
	return SourceLocation{}
}

// resolveNode replaces unquoted shape ids of IDL node values by absolute ids.
func (a *assembler) resolveNode(f *draftFile, n Node) Node {
	if !hasSyntactic(n) {
		return n
	}
	switch n.kind {
	case StringNode:
		id, ok := a.resolve(f, n.s)
		if !ok {
			a.event(SeverityDanger, "SyntacticShapeIdTarget", "", SourceLocation{File: f.path},
				"Syntactic shape ID `%s` does not resolve to a valid shape ID: `%s`. Did you mean to quote this string? Are you missing a model file?", n.s, id)
			return String(n.s)
		}
		return String(string(id))
	case ArrayNode, ObjectNode:
		list := make([]Node, len(n.list))
		for i, item := range n.list {
			list[i] = a.resolveNode(f, item)
		}
		return Node{kind: n.kind, list: list, pos: n.pos}
	}
	return n
}

func hasSyntactic(n Node) bool {
	if n.syntactic {
		return true
	}
	for i := range n.list {
		if hasSyntactic(n.list[i]) {
			return true
		}
	}
	return false
}

// apply adds the traits of an `apply` statement to its target.
func (a *assembler) apply(f *draftFile, ap draftApply) {
	id, _ := a.resolve(f, ap.target.name)
	for _, dt := range ap.traits {
		ts := a.traits(f, id, []draftTrait{dt})
		if len(ts) == 0 {
			continue
		}
		t := ts[0]
		if id.Namespace() == PreludeNamespace && a.prelude != nil {
			a.errorf(id, dt.loc, "Cannot apply `%s` to an immutable prelude shape defined in `smithy.api`.", t.ID)
			continue
		}
		s, ok := a.own(id.Root())
		if !ok {
			a.errorf("", dt.loc, "Trait `%s` applied to unknown shape `%s`", t.ID.Name(), id)
			continue
		}
		if id.Member() == "" {
			s.Traits = a.addTrait(s.Traits, t, id, dt.loc)
			continue
		}
		if m, ok := s.Member(id.Member()); ok {
			m.Traits = a.addTrait(m.Traits, t, id, dt.loc)
			continue
		}
		// The member may come from a mixin; decide once mixins are applied.
		a.pending[id] = append(a.pending[id], pendingTrait{trait: t, loc: dt.loc})
	}
}
