package model

import (
	"slices"
	"strings"
)

// expand applies the mixins of shape id (after its mixins' own) and resolves
// elided member targets. stack holds the shapes being expanded, to report cycles.
func (a *assembler) expand(id ShapeID, stack []ShapeID) bool {
	switch a.state[id] {
	case 2:
		return true
	case 3:
		return false
	case 1:
		a.reportCycle(id, stack)
		return false
	}
	s, ok := a.shapes[id]
	if !ok {
		return false
	}
	okAll := true
	var mixins []*Shape
	if len(s.Mixins) > 0 { // else no cycle can pass through the shape
		a.state[id] = 1
		stack = append(stack, id)
	}
	for _, mid := range s.Mixins {
		ms, found := a.shapes[mid]
		if !found {
			a.errorf(id, s.Loc, "Cannot apply mixin to %s: %s not found", id, mid)
			okAll = false
			continue
		}
		if !a.expand(mid, stack) {
			if a.state[mid] == 3 {
				a.errorf(id, s.Loc, "Cannot apply mixin to %s: %s not found", id, mid)
			}
			okAll = false
			continue
		}
		if !ms.HasTrait(TraitMixin) {
			a.event(SeverityError, "Target", id, s.Loc, "Attempted to use %s as a mixin, but it is not marked with the mixin trait", mid)
			okAll = false
			continue
		}
		if ms.Type != s.Type {
			a.errorf(id, s.Loc, "Cannot use %s `%s` as a mixin of %s `%s`", ms.Type, mid, s.Type, id)
			okAll = false
			continue
		}
		mixins = append(mixins, ms)
	}
	if len(s.Mixins) > 0 && a.state[id] == 2 { // finished through a cycle report
		return false
	}
	if !okAll {
		a.state[id] = 3 // failed: shapes that use it as a mixin say so
		return false
	}
	a.state[id] = 2
	a.checkMixinShape(s)
	// Elided members take their target from the `for` resource first, so
	// that a conflicting mixin member is reported.
	forOK := a.resolveElided(s)
	if len(mixins) > 0 {
		a.applyMixins(s, mixins)
	}
	complete := true
	switch s.Type {
	case ListType, SetType:
		complete = a.requireMembers(s, "member")
	case MapType:
		complete = a.requireMembers(s, "key", "value")
	}
	for _, m := range s.Members {
		if m.Target == "" {
			if forOK { // else the missing resource is the one error
				a.errorf(m.ID, m.Loc, "Unable to resolve the target of elided member `%s`: no `for` resource identifier or property and no mixin member has that name", m.Name())
			}
			m.Target = UnitID
		}
	}
	if !complete {
		a.state[id] = 3 // users of this mixin report it as not found
		return false
	}
	for _, m := range s.Members {
		if pts := a.pending[m.ID]; len(pts) > 0 {
			a.applyInherited(s, m, pts)
			delete(a.pending, m.ID)
		}
	}
	return okAll
}

// checkMixinShape enforces what mixin operations and resources may declare.
func (a *assembler) checkMixinShape(s *Shape) {
	if !s.HasTrait(TraitMixin) {
		return
	}
	if s.Type == OperationType && (orUnit(s.Input) != UnitID || orUnit(s.Output) != UnitID) {
		a.errorf(s.ID, s.Loc, "Operation shapes with the mixin trait MUST target `smithy.api#Unit` for their input and output. Operation mixin shape `%s` defines one or both of these properties.", s.ID)
	}
	if s.Type == ResourceType && (len(s.Properties) > 0 || len(s.Identifiers) > 0) {
		a.errorf(s.ID, s.Loc, "Resource shapes with the mixin trait may not define any properties. Resource mixin shape `%s` defines one or more properties.", s.ID)
	}
}

// applyInherited applies `apply` traits to a member s inherited from a mixin:
// like a redeclared member, they override the inherited traits. The shape's
// own definition gains the member, so the JSON AST keeps the override.
func (a *assembler) applyInherited(s *Shape, m *Member, pts []pendingTrait) {
	var lm *Member
	for _, x := range s.local.Members {
		if x.Name() == m.Name() {
			lm = x
		}
	}
	if lm == nil {
		lm = &Member{ID: m.ID, Target: m.Target, Loc: m.Loc}
		s.local.Members = append(s.local.Members[:len(s.local.Members):len(s.local.Members)], lm)
	}
	for _, pt := range pts {
		m.Traits = setTrait(m.Traits, pt.trait)
		lm.Traits = setTrait(lm.Traits, pt.trait)
	}
}

func (a *assembler) reportCycle(id ShapeID, stack []ShapeID) {
	start := 0
	for i, s := range stack {
		if s == id {
			start = i
		}
	}
	cycle := stack[start:]
	for _, c := range cycle {
		var others []string
		for _, o := range cycle {
			if o != c {
				others = append(others, string(o))
			}
		}
		s := a.shapes[c]
		a.errorf(c, s.Loc, "Unable to resolve mixins; cycles detected between this shape and [%s]", strings.Join(others, ", "))
		a.state[c] = 2
	}
}

// applyMixins merges the members, traits and properties of mixins into s;
// s.local keeps what s declared itself.
func (a *assembler) applyMixins(s *Shape, mixins []*Shape) {
	local := *s
	local.Members = s.Members
	s.local = &local

	var members []*Member
	byName := map[string]int{}
	var traits Traits
	for _, mx := range mixins {
		for _, mm := range mx.Members {
			name := mm.Name()
			origin := mm.Mixin
			if origin == "" {
				origin = mx.ID
			}
			nm := &Member{ID: s.ID.WithMember(name), Target: mm.Target, Traits: mm.Traits, Loc: mm.Loc, Mixin: origin}
			if i, dup := byName[strings.ToLower(name)]; dup {
				if members[i].Target != mm.Target {
					a.errorf(nm.ID, s.Loc, "Member `%s` is inherited from more than one mixin with different targets", name)
				}
				members[i] = nm
				continue
			}
			byName[strings.ToLower(name)] = len(members)
			members = append(members, nm)
		}
		local := localTraitsOf(mx)
		for _, t := range mx.Traits {
			if t.ID == TraitMixin || local[t.ID] {
				continue
			}
			traits = setTrait(traits, t)
		}
	}
	for _, lm := range local.Members {
		i, inherited := byName[strings.ToLower(lm.Name())]
		if !inherited {
			members = append(members, lm)
			continue
		}
		im := members[i]
		if lm.Target == "" {
			lm.Target = im.Target // elided: the shape's own definition names it too
		}
		if lm.Target != im.Target {
			a.errorf(lm.ID, lm.Loc, "Member conflicts with an inherited mixin member: `%s`", im.Mixin.WithMember(lm.Name()))
		}
		merged := im.Traits
		for _, t := range lm.Traits {
			merged = setTrait(merged, t)
		}
		members[i] = &Member{ID: im.ID, Target: im.Target, Traits: merged, Loc: lm.Loc, Mixin: im.Mixin}
	}
	for _, t := range local.Traits {
		traits = setTrait(traits, t)
	}
	s.Members, s.Traits = members, traits

	for _, mx := range mixins {
		s.Errors = appendNew(s.Errors, mx.Errors)
		s.Operations = appendNew(s.Operations, mx.Operations)
		s.Resources = appendNew(s.Resources, mx.Resources)
		s.CollectionOperations = appendNew(s.CollectionOperations, mx.CollectionOperations)
		s.Identifiers = appendNewRefs(s.Identifiers, mx.Identifiers)
		s.Properties = appendNewRefs(s.Properties, mx.Properties)
		for _, r := range mx.Rename {
			if !slices.ContainsFunc(s.Rename, func(x Rename) bool { return x.ID == r.ID }) {
				s.Rename = append(s.Rename, r)
			}
		}
		for _, p := range []struct{ dst, src *ShapeID }{
			{&s.Input, &mx.Input}, {&s.Output, &mx.Output}, {&s.Create, &mx.Create}, {&s.Put, &mx.Put},
			{&s.Read, &mx.Read}, {&s.Update, &mx.Update}, {&s.Delete, &mx.Delete}, {&s.List, &mx.List},
		} {
			if *p.dst == "" {
				*p.dst = *p.src
			}
		}
		if s.Version == "" {
			s.Version = mx.Version
		}
	}
	// Inherited list properties come first, then the shape's own.
	s.Errors = appendNew(withoutAll(s.Errors, local.Errors), local.Errors)
	s.Operations = appendNew(withoutAll(s.Operations, local.Operations), local.Operations)
	s.Resources = appendNew(withoutAll(s.Resources, local.Resources), local.Resources)
}

// localTraitsOf returns the traits that mixin mx keeps to itself (@mixin(localTraits: [...])).
func localTraitsOf(mx *Shape) map[ShapeID]bool {
	v, _ := mx.Trait(TraitMixin)
	lt, ok := v.Get("localTraits")
	if !ok {
		return nil
	}
	out := map[ShapeID]bool{}
	for _, item := range lt.Items() {
		out[ShapeID(item.Str())] = true
	}
	return out
}

// setTrait adds or replaces t without modifying ts in place.
func setTrait(ts Traits, t Trait) Traits {
	out := make(Traits, 0, len(ts)+1)
	for _, x := range ts {
		if x.ID != t.ID {
			out = append(out, x)
		}
	}
	return append(out, t)
}

func appendNew(dst, src []ShapeID) []ShapeID {
	out := append([]ShapeID(nil), dst...)
	for _, id := range src {
		found := false
		for _, x := range out {
			found = found || x == id
		}
		if !found {
			out = append(out, id)
		}
	}
	return out
}

func withoutAll(ids, remove []ShapeID) []ShapeID {
	var out []ShapeID
	for _, id := range ids {
		keep := true
		for _, r := range remove {
			keep = keep && r != id
		}
		if keep {
			out = append(out, id)
		}
	}
	return out
}

func appendNewRefs(dst, src []Ref) []Ref {
	out := append([]Ref(nil), dst...)
	for _, r := range src {
		found := false
		for _, x := range out {
			found = found || x.Name == r.Name
		}
		if !found {
			out = append(out, r)
		}
	}
	return out
}

// resolveElided gives elided members ($name) their target from the shape's
// `for` resource (identifiers, then properties); mixins give the others
// later. It returns false when the `for` resource was reported as missing or
// not a resource.
func (a *assembler) resolveElided(s *Shape) bool {
	d := a.drafts[s.ID]
	if d == nil {
		return true
	}
	var resource *Shape
	if d.forResource.set() {
		rid, _ := a.resolve(a.owner[s.ID], d.forResource.name)
		resource = a.shapes[rid]
		switch {
		case resource == nil:
			a.event(SeverityError, "Target", s.ID, d.forResource.loc, "%s shape `%s` refers to an unresolved resource shape `%s` in its `for` clause", s.Type, s.ID, rid)
		case resource.Type != ResourceType:
			a.event(SeverityError, "Target", s.ID, d.forResource.loc, "The target of the `for` production must be a resource shape, but found a %s shape: %s", resource.Type, rid)
		}
		if resource == nil || resource.Type != ResourceType {
			return false
		}
	}
	for _, m := range s.Members {
		if m.Target != "" {
			continue
		}
		if resource != nil {
			for _, r := range append(append([]Ref(nil), resource.Identifiers...), resource.Properties...) {
				if r.Name == m.Name() {
					m.Target = r.Target
					break
				}
			}
		}
	}
	return true
}

// upgradeV1 gives IDL/AST 1.0 members the 2.0 meaning of their 1.0 semantics:
// a member targeting a non-boxed number or boolean had a zero default.
func (a *assembler) upgradeV1(files []*draftFile) {
	for _, f := range files {
		if f.version != "1.0" {
			continue
		}
		for _, d := range f.shapes {
			s := a.shapes[d.id]
			if s == nil || a.owner[d.id] != f || s.Type != StructureType {
				continue
			}
			for _, m := range s.Members {
				if m.Traits.Has(TraitBox) || m.Traits.Has(TraitDefault) {
					continue
				}
				if zero, ok := a.v1Zero(m.Target); ok {
					m.Traits = append(m.Traits[:len(m.Traits):len(m.Traits)], Trait{ID: TraitDefault, Value: zero})
				}
			}
		}
	}
}

// v1Zero returns the zero value of a 1.0 target that is primitive (not boxed).
func (a *assembler) v1Zero(target ShapeID) (Node, bool) {
	t, ok := a.shapes[target]
	if !ok {
		return Node{}, false
	}
	if t.ID.Namespace() == PreludeNamespace {
		if !strings.HasPrefix(t.ID.Name(), "Primitive") {
			return Node{}, false
		}
	} else if t.HasTrait(TraitBox) || a.owner[target] == nil || a.owner[target].version != "1.0" {
		return Node{}, false
	}
	switch t.Type {
	case BooleanType:
		return Bool(false), true
	case ByteType, ShortType, IntegerType, LongType, FloatType, DoubleType:
		return Int(0), true
	}
	return Node{}, false
}

// mergeMetadata merges the metadata of every file: equal values merge, two
// arrays concatenate, anything else is a conflict.
func (a *assembler) mergeMetadata(files []*draftFile) Node {
	var b ObjectBuilder
	locs := map[string]SourceLocation{}
	for _, f := range files {
		for _, md := range f.metadata {
			v := a.resolveNode(f, md.value)
			prev, ok := locs[md.key]
			if !ok {
				locs[md.key] = md.loc
				b.list = append(b.list, String(md.key), v)
				continue
			}
			for i := 0; i < len(b.list); i += 2 {
				if b.list[i].s != md.key {
					continue
				}
				old := b.list[i+1]
				switch {
				case old.Kind() == ArrayNode && v.Kind() == ArrayNode:
					b.list[i+1] = Array(append(append([]Node{}, old.Items()...), v.Items()...)...)
				case old.Equal(v):
				default:
					a.errorf("", md.loc, "Metadata conflict for key `%s`. Defined in both `%s` and `%s`", md.key, prev, md.loc)
				}
			}
		}
	}
	return b.Build()
}
