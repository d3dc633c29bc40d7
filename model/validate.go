package model

import (
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// validate reports the model's semantic errors: unresolved or wrongly typed
// references, trait values that do not match their definitions, traits
// applied where they do not belong, bad defaults and enum values. With
// refsOnly (a model that did not assemble cleanly) it reports only the
// references to shapes that are not defined or not of the right type.
func validate(m *Model, a *assembler, refsOnly bool) {
	v := validator{m: m, a: a, namespaces: map[string]bool{}, patterns: map[string]*regexp.Regexp{}, refsOnly: refsOnly}
	// a.sorted are the ids of every shape of m but the bundled ones that
	// references pulled in since (assembler.sorted).
	shapes := make([]*Shape, 0, len(a.sorted))
	last := ""
	for _, id := range a.sorted {
		s := m.shapes[id]
		// The prelude and the bundled shapes were checked when written.
		if ns := id.Namespace(); ns != PreludeNamespace && !s.bundled {
			if ns != last {
				v.namespaces[ns], last = true, ns
			}
			shapes = append(shapes, s)
		}
	}
	v.namespaces[PreludeNamespace] = true
	for _, s := range shapes {
		v.shape(s)
	}
	if refsOnly {
		return
	}
	if md, ok := m.metadata.Get("validators"); ok && md.Kind() != ArrayNode {
		a.errorf("", SourceLocation{}, "validators must be an array. Found %s.", md.Kind())
	}
	if md, ok := m.metadata.Get("suppressions"); ok && md.Kind() != ArrayNode {
		a.errorf("", SourceLocation{}, "suppressions must be an array. Found %s.", md.Kind())
	}
}

type validator struct {
	m          *Model
	a          *assembler
	namespaces map[string]bool
	patterns   map[string]*regexp.Regexp
	// noConstraints is set while checking @default values.
	noConstraints bool
	// lenientEnums is set while checking the value of a bundled trait.
	lenientEnums bool
	// refsOnly limits the checks to references (see validate).
	refsOnly bool
	// defs are the last trait definitions looked up, and nextDef the one
	// to replace next: a model applies a few traits many times.
	defs    [8]traitDef
	nextDef int
}

type traitDef struct {
	id      ShapeID
	def     *Shape
	allowed func(ShapeType, ShapeID, *Model) bool
}

// constraints checks a node value against the @length, @range and @pattern
// traits in ts (of a member or of its target).
func (v *validator) constraints(n Node, ts Traits) string {
	if len(ts) == 0 || v.noConstraints {
		return ""
	}
	if lt, ok := ts.Get(TraitLength); ok {
		size := -1
		switch n.Kind() {
		case StringNode:
			size = utf8.RuneCountInString(n.Str())
		case ArrayNode, ObjectNode:
			size = n.Len()
		}
		if lo, ok := lt.Get("min"); ok && size >= 0 && float64(size) < lo.Float64() {
			return sprintf("length %d is below the minimum %s", size, lo.Literal())
		}
		if hi, ok := lt.Get("max"); ok && size >= 0 && float64(size) > hi.Float64() {
			return sprintf("length %d is above the maximum %s", size, hi.Literal())
		}
	}
	if rt, ok := ts.Get(TraitRange); ok && n.Kind() == NumberNode {
		if lo, ok := rt.Get("min"); ok && n.Float64() < lo.Float64() {
			return sprintf("value %s is below the minimum %s", n.Literal(), lo.Literal())
		}
		if hi, ok := rt.Get("max"); ok && n.Float64() > hi.Float64() {
			return sprintf("value %s is above the maximum %s", n.Literal(), hi.Literal())
		}
	}
	if pt, ok := ts.Get(TraitPattern); ok && n.Kind() == StringNode {
		re, seen := v.patterns[pt.Str()]
		if !seen {
			re, _ = regexp.Compile(pt.Str()) // an invalid pattern is reported on the pattern trait
			v.patterns[pt.Str()] = re
		}
		if re != nil && !re.MatchString(n.Str()) {
			return sprintf("value %q does not match the pattern %q", n.Str(), pt.Str())
		}
	}
	return ""
}

func (v *validator) errorf(id string, shape ShapeID, loc SourceLocation, format string, args ...any) {
	v.a.event(SeverityError, id, shape, loc, format, args...)
}

func (v *validator) shape(s *Shape) {
	if !v.refsOnly {
		v.traits(s.ID, s.Type, s.Traits, s.Loc)
	}
	for _, m := range s.Members {
		v.member(s, m)
	}
	switch s.Type {
	case MapType:
		if v.refsOnly {
			break
		}
		if km, ok := s.Member("key"); ok {
			if t, ok := v.m.shapes[km.Target]; ok && t.Type != StringType && t.Type != EnumType {
				v.errorf("Target", km.ID, km.Loc, "Map key member targets %s `%s`, but map keys must target a string or enum shape", t.Type, t.ID)
			}
		}
	case EnumType, IntEnumType:
		if !v.refsOnly {
			v.enum(s)
		}
	case OperationType:
		v.target(s, "input", s.Input, StructureType)
		v.target(s, "output", s.Output, StructureType)
		for _, e := range s.Errors {
			v.errorTarget(s, e)
		}
	case ServiceType:
		for _, o := range s.Operations {
			v.target(s, "operation", o, OperationType)
		}
		for _, r := range s.Resources {
			v.target(s, "resource", r, ResourceType)
		}
		for _, e := range s.Errors {
			v.errorTarget(s, e)
		}
	case ResourceType:
		for _, o := range append(append([]ShapeID{s.Create, s.Put, s.Read, s.Update, s.Delete, s.List}, s.Operations...), s.CollectionOperations...) {
			v.target(s, "operation", o, OperationType)
		}
		for _, r := range s.Resources {
			v.target(s, "resource", r, ResourceType)
		}
		for _, r := range s.Identifiers {
			v.target(s, "identifier", r.Target, StringType, EnumType)
		}
		for _, r := range s.Properties {
			v.target(s, "property", r.Target, "")
		}
	}
	if d, ok := s.Trait(TraitDefault); ok && s.Type != MemberType && !v.refsOnly {
		v.defaultValue(s.ID, s.Loc, d, s)
	}
}

// requireMembers checks the member names of a list or map; false when one is missing.
func (a *assembler) requireMembers(s *Shape, names ...string) bool {
	var missing []string
	for _, n := range names {
		if _, ok := s.Member(n); !ok {
			missing = append(missing, n)
		}
	}
	for _, m := range s.Members {
		if !slices.Contains(names, m.Name()) {
			if s.Type == MapType {
				a.errorf(s.ID, m.Loc, "Map shapes may only have `key` and `value` members, but found `%s`", m.Name())
			} else {
				a.errorf(s.ID, m.Loc, "%s shapes may only have a `member` member, but found `%s`", capitalize(string(s.Type)), m.Name())
			}
		}
	}
	switch len(missing) {
	case 0:
		return true
	case 1:
		a.errorf(s.ID, s.Loc, "Missing required member of shape `%s`: %s", s.ID, missing[0])
	default:
		a.errorf(s.ID, s.Loc, "Missing required members of shape `%s`: %s", s.ID, strings.Join(missing, ", "))
	}
	return false
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// target checks that a shape property refers to a defined shape of one of the
// given types ("" accepts any non-aggregate-entity type).
func (v *validator) target(s *Shape, what string, id ShapeID, types ...ShapeType) {
	if id == "" {
		return
	}
	t, ok := v.m.shapes[id]
	if !ok {
		v.errorf("Target", s.ID, s.Loc, "%s shape `%s` refers to an unresolved %s shape `%s`", s.Type, s.ID, what, id)
		return
	}
	for _, want := range types {
		if want == "" || t.Type == want {
			return
		}
	}
	v.errorf("Target", s.ID, s.Loc, "%s shape `%s` refers to %s shape `%s` as its %s; expected %s", s.Type, s.ID, t.Type, id, what, typeList(types))
}

func typeList(types []ShapeType) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = string(t)
	}
	return strings.Join(parts, " or ")
}

func (v *validator) errorTarget(s *Shape, id ShapeID) {
	v.target(s, "error", id, StructureType)
	if t, ok := v.m.shapes[id]; ok && t.Type == StructureType && !t.HasTrait(TraitError) {
		v.errorf("Target", s.ID, s.Loc, "`%s` is bound as an error of `%s` but does not have the `error` trait", id, s.ID)
	}
}

func (v *validator) member(s *Shape, m *Member) {
	if !v.refsOnly {
		v.traits(m.ID, MemberType, m.Traits, m.Loc)
	}
	if s.Type == EnumType || s.Type == IntEnumType {
		return
	}
	if m.Target == "" {
		// An elided member ($name) whose mixin or resource failed: that
		// failure is the error, not an unresolved shape with no name.
		return
	}
	t, ok := v.m.shapes[m.Target]
	if !ok {
		v.errorf("Target", m.ID, m.Loc, "member `%s` targets an unresolved shape `%s`", m.ID, m.Target)
		return
	}
	switch t.Type {
	case OperationType, ServiceType, ResourceType:
		v.errorf("Target", m.ID, m.Loc, "member `%s` cannot target %s shape `%s`", m.ID, t.Type, t.ID)
		return
	}
	if d, ok := m.Traits.Get(TraitDefault); ok && !v.refsOnly {
		v.defaultValue(m.ID, m.Loc, d, t)
	}
}

// defaultValue checks a @default value against the shape it defaults.
func (v *validator) defaultValue(id ShapeID, loc SourceLocation, d Node, t *Shape) {
	if d.IsNull() {
		return // null removes an inherited default
	}
	var problem string
	switch t.Type {
	case StructureType, UnionType:
		problem = "structures and unions cannot have default values"
	case ListType, SetType:
		if d.Kind() != ArrayNode || d.Len() != 0 {
			problem = "the default value of a list must be an empty array"
		}
	case MapType:
		if d.Kind() != ObjectNode || d.Len() != 0 {
			problem = "the default value of a map must be an empty object"
		}
	default:
		// Constraint traits do not apply to defaults: real models default a
		// @range(min: 1) page size to 0, meaning "not set".
		v.noConstraints = true
		problem = v.node(d, t, 0, func(string) {})
		v.noConstraints = false
	}
	if problem != "" {
		v.errorf("DefaultTrait", id, loc, "Error validating @default trait: %s", problem)
	}
}

func (v *validator) enum(s *Shape) {
	seen := map[string]ShapeID{}
	if len(s.Members) == 0 {
		v.errorf("Model", s.ID, s.Loc, "%s shapes must have at least one member", s.Type)
	}
	for _, m := range s.Members {
		val, ok := m.Traits.Get(TraitEnumValue)
		key := ""
		switch {
		case s.Type == IntEnumType && (!ok || !val.IsInteger()):
			v.errorf("Model", m.ID, m.Loc, "intEnum member `%s` must have an integer @enumValue", m.ID)
			continue
		case s.Type == IntEnumType:
			n, ok := val.Int64()
			if !ok || n < -1<<31 || n > 1<<31-1 {
				v.errorf("Model", m.ID, m.Loc, "intEnum member `%s` value %s is out of the integer range", m.ID, val.Literal())
			}
			key = val.Literal()
		case val.Kind() != StringNode || val.Str() == "":
			v.errorf("Model", m.ID, m.Loc, "enum member `%s` must have a non-empty string @enumValue", m.ID)
			continue
		default:
			key = val.Str()
		}
		if prev, dup := seen[key]; dup {
			v.errorf("Model", m.ID, m.Loc, "%s member `%s` has the same value `%s` as `%s`", s.Type, m.ID, key, prev)
		}
		seen[key] = m.ID
	}
}

// traits validates each trait applied to shape id (of type typ).
func (v *validator) traits(id ShapeID, typ ShapeType, ts Traits, loc SourceLocation) {
	for _, t := range ts {
		def, allowed := v.traitDef(t.ID)
		if def == nil {
			switch {
			case v.namespaces[t.ID.Namespace()]:
				v.errorf("Model", id, loc, "Unable to resolve trait `%s`. If this is a custom trait, then it must be defined before it can be used in a model.", t.ID)
			case bundled[t.ID.Namespace()] != nil:
				// Perhaps a trait newer than the bundled definitions: kept opaque.
				v.a.event(SeverityWarning, "Model", id, loc, "Unable to resolve trait `%s`: the bundled `%s` definitions have no such trait; its value is not checked", t.ID, t.ID.Namespace())
			}
			// Traits from namespaces that are not loaded stay opaque.
			continue
		}
		if !def.HasTrait(TraitTrait) {
			v.errorf("Model", t.ID, loc, "Shape `%s` cannot be applied as a trait. If this is a custom trait, please add `@trait` to this shape.", t.ID)
			continue
		}
		warn := func(msg string) {
			v.a.event(SeverityWarning, "TraitValue", id, loc, "Error validating trait `%s`: %s", t.ID, msg)
		}
		// A bundled definition may be older than the model's: an enum value
		// it does not list is a warning, not an error.
		v.lenientEnums = def.bundled
		if problem := v.node(t.Value, def, 0, warn); problem != "" {
			v.errorf("TraitValue", id, loc, "Error validating trait `%s`: %s", t.ID, problem)
		}
		v.lenientEnums = false
		if allowed != nil && !allowed(typ, id, v.m) {
			v.errorf("TraitTarget", id, loc, "Trait `%s` cannot be applied to `%s`. This trait may only be applied to shapes that match the following selector: %s",
				relativeTrait(t.ID), id, selectorOf(def))
		}
	}
}

// traitDef returns the definition of trait id (nil when the model has none)
// and where the trait may be applied (nil when anywhere).
func (v *validator) traitDef(id ShapeID) (*Shape, func(ShapeType, ShapeID, *Model) bool) {
	for i := range v.defs {
		if d := &v.defs[i]; d.id == id && d.def != nil {
			return d.def, d.allowed
		}
	}
	def, ok := v.m.shapes[id]
	if !ok {
		return nil, nil
	}
	v.defs[v.nextDef%len(v.defs)] = traitDef{id: id, def: def, allowed: traitTargets[id]}
	v.nextDef++
	return def, traitTargets[id]
}

// relativeTrait names prelude traits without their namespace, as users write them.
func relativeTrait(id ShapeID) string {
	if id.Namespace() == PreludeNamespace {
		return id.Name()
	}
	return string(id)
}

func selectorOf(def *Shape) string {
	tv, _ := def.Trait(TraitTrait)
	sel, ok := tv.Get("selector")
	if !ok {
		return "*"
	}
	return sel.Str()
}

// maxNodeDepth bounds recursion through recursive shapes.
const maxNodeDepth = 64

// node checks that n is a valid value for shape t; it returns the first
// problem found, or "".
func (v *validator) node(n Node, t *Shape, depth int, warn func(string)) string {
	if depth > maxNodeDepth {
		return ""
	}
	expect := func(kind string) string {
		found := n.Kind().String() + " value"
		if n.Kind() == BoolNode || n.Kind() == NumberNode || n.Kind() == StringNode {
			found += ", `" + strings.Trim(n.JSON(), `"`) + "`"
		}
		return sprintf("Expected %s value for %s shape, `%s`; found %s", kind, t.Type, t.ID, found)
	}
	if p := v.constraints(n, t.Traits); p != "" {
		return p
	}
	switch t.Type {
	case DocumentType:
		return ""
	case StringType, BlobType:
		if n.Kind() != StringNode {
			return expect("string")
		}
		if ev, ok := t.Trait(TraitEnum); ok && t.Type == StringType {
			for _, def := range ev.Items() {
				if val, _ := def.Get("value"); val.Str() == n.Str() {
					return ""
				}
			}
			return v.notInEnum(n, sprintf("String value provided for `%s` must be one of the following values: %s", t.ID, enumValues(t)), warn)
		}
	case EnumType:
		if n.Kind() != StringNode {
			return expect("string")
		}
		for _, m := range t.Members {
			if val, _ := m.Traits.Get(TraitEnumValue); val.Str() == n.Str() {
				return ""
			}
		}
		return v.notInEnum(n, sprintf("String value provided for `%s` must be one of the following values: %s", t.ID, enumValues(t)), warn)
	case BooleanType:
		if n.Kind() != BoolNode {
			return expect("boolean")
		}
	case TimestampType:
		if n.Kind() != NumberNode && n.Kind() != StringNode {
			return expect("number or string")
		}
	case ByteType, ShortType, IntegerType, LongType, BigIntegerType, IntEnumType:
		if n.Kind() != NumberNode {
			return expect("number")
		}
		if !n.IsInteger() {
			return sprintf("%s shapes must not have floating point values, but found `%s` provided for `%s`", t.Type, n.Literal(), t.ID)
		}
		if lim, ok := intLimits[t.Type]; ok {
			x, _ := new(big.Int).SetString(n.Literal(), 10)
			if x == nil || x.Cmp(big.NewInt(lim[0])) < 0 || x.Cmp(big.NewInt(lim[1])) > 0 {
				return sprintf("%s value must be between %d and %d, but found %s", t.Type, lim[0], lim[1], n.Literal())
			}
		}
		if t.Type == IntEnumType {
			for _, m := range t.Members {
				if val, _ := m.Traits.Get(TraitEnumValue); val.Equal(n) {
					return ""
				}
			}
			return v.notInEnum(n, sprintf("Integer value provided for `%s` must be one of the following values: %s", t.ID, enumValues(t)), warn)
		}
	case FloatType, DoubleType, BigDecimalType:
		if n.Kind() == StringNode && t.Type != BigDecimalType {
			switch n.Str() {
			case "NaN", "Infinity", "-Infinity":
				return ""
			}
		}
		if n.Kind() != NumberNode {
			return expect("number")
		}
	case ListType, SetType:
		if n.Kind() != ArrayNode {
			return expect("array")
		}
		mem, _ := t.Member("member")
		return v.items(n.Items(), mem, t, depth, warn)
	case MapType:
		if n.Kind() != ObjectNode {
			return expect("object")
		}
		mem, _ := t.Member("value")
		vals := make([]Node, n.Len())
		for i := range vals {
			_, vals[i] = n.Entry(i)
		}
		return v.items(vals, mem, t, depth, warn)
	case StructureType, UnionType:
		if n.Kind() != ObjectNode {
			return expect("object")
		}
		if t.Type == UnionType && n.Len() != 1 {
			return sprintf("union values must contain exactly one member, but found %d for `%s`", n.Len(), t.ID)
		}
		for i := 0; i < n.Len(); i++ {
			k, val := n.Entry(i)
			m, ok := t.Member(k)
			if !ok {
				// Unknown members are kept: a newer definition may have them.
				warn(sprintf("Invalid %s member `%s` found for `%s`", t.Type, k, t.ID))
				continue
			}
			if val.IsNull() {
				continue
			}
			if p := v.constraints(val, m.Traits); p != "" {
				return k + ": " + p
			}
			if target, ok := v.m.shapes[m.Target]; ok {
				if p := v.node(val, target, depth+1, warn); p != "" {
					return k + ": " + p
				}
			}
		}
		if t.Type == StructureType {
			for _, m := range t.Members {
				if _, ok := n.Get(m.Name()); !ok && m.Traits.Has(TraitRequired) && !m.Traits.Has(TraitDefault) {
					return sprintf("Missing required structure member `%s` for `%s`", m.Name(), t.ID)
				}
			}
		}
	}
	return ""
}

// notInEnum returns the problem of value n that its enum does not list, or
// warns and returns "" for the value of a bundled trait.
func (v *validator) notInEnum(n Node, problem string, warn func(string)) string {
	if v.lenientEnums {
		warn(sprintf("`%s` is not a value the bundled definition knows: %s", strings.Trim(n.JSON(), `"`), problem))
		return ""
	}
	return problem
}

func (v *validator) items(items []Node, mem *Member, container *Shape, depth int, warn func(string)) string {
	if mem == nil {
		return ""
	}
	target, ok := v.m.shapes[mem.Target]
	if !ok {
		return ""
	}
	for i, item := range items {
		if item.IsNull() {
			if container.HasTrait(TraitSparse) {
				continue
			}
			return sprintf("Non-sparse %s `%s` must not contain null values", container.Type, container.ID)
		}
		if p := v.node(item, target, depth+1, warn); p != "" {
			return sprintf("[%d]: %s", i, p)
		}
	}
	return ""
}

var intLimits = map[ShapeType][2]int64{
	ByteType:    {-128, 127},
	ShortType:   {-32768, 32767},
	IntegerType: {-1 << 31, 1<<31 - 1},
	IntEnumType: {-1 << 31, 1<<31 - 1},
}

func enumValues(t *Shape) string {
	var vals []string
	if ev, ok := t.Trait(TraitEnum); ok {
		for _, def := range ev.Items() {
			val, _ := def.Get("value")
			vals = append(vals, "`"+val.Str()+"`")
		}
	}
	for _, m := range t.Members {
		val, _ := m.Traits.Get(TraitEnumValue)
		vals = append(vals, "`"+strings.Trim(val.JSON(), `"`)+"`")
	}
	return strings.Join(vals, ", ")
}

// traitTargets says where the traits the project interprets may be applied.
// Only these are checked: a full selector engine is not needed to call services.
var traitTargets = map[ShapeID]func(ShapeType, ShapeID, *Model) bool{
	TraitHTTP:              onType(OperationType),
	TraitReadonly:          onType(OperationType),
	TraitIdempotent:        onType(OperationType),
	TraitError:             onType(StructureType),
	TraitInput:             onType(StructureType),
	TraitOutput:            onType(StructureType),
	TraitHTTPError:         onType(StructureType),
	TraitRetryable:         onType(StructureType),
	TraitHTTPLabel:         onStructureMember,
	TraitHTTPQuery:         onStructureMember,
	TraitHTTPQueryParams:   onStructureMember,
	TraitHTTPHeader:        onStructureMember,
	TraitHTTPPrefixHeaders: onStructureMember,
	TraitHTTPPayload:       onStructureMember,
	TraitHTTPResponseCode:  onStructureMember,
	TraitHostLabel:         onStructureMember,
	TraitJSONName:          onType(MemberType),
	TraitRequired:          onStructureMember,
	TraitSparse:            onType(ListType, MapType),
	TraitUniqueItems:       onType(ListType),
	TraitEnumValue:         onType(MemberType),
	TraitEndpoint:          onType(OperationType),
}

func onType(types ...ShapeType) func(ShapeType, ShapeID, *Model) bool {
	return func(t ShapeType, _ ShapeID, _ *Model) bool {
		for _, want := range types {
			if t == want {
				return true
			}
		}
		return false
	}
}

func onStructureMember(t ShapeType, id ShapeID, m *Model) bool {
	if t != MemberType {
		return false
	}
	s, ok := m.shapes[id.Root()]
	return ok && (s.Type == StructureType || s.Type == UnionType)
}

// applySuppressions lowers WARNING and DANGER events suppressed by the
// `suppressions` metadata or the @suppress trait to SUPPRESSED.
func applySuppressions(m *Model, a *assembler) {
	sup, _ := m.metadata.Get("suppressions")
	for i := range a.events {
		e := &a.events[i]
		if e.Severity != SeverityWarning && e.Severity != SeverityDanger {
			continue
		}
		if s, ok := m.shapes[e.Shape.Root()]; ok && e.Shape != "" {
			ids, _ := s.Trait(TraitSuppress)
			if mem, ok := s.Member(e.Shape.Member()); ok {
				if mids, ok := mem.Traits.Get(TraitSuppress); ok {
					ids = mids
				}
			}
			for _, id := range ids.Items() {
				if eventMatches(e.ID, id.Str()) {
					e.Severity = SeveritySuppressed
				}
			}
		}
		for _, s := range sup.Items() {
			id, _ := s.Get("id")
			ns, _ := s.Get("namespace")
			if eventMatches(e.ID, id.Str()) && (ns.Str() == "*" || ns.Str() == e.Shape.Namespace()) {
				e.Severity = SeveritySuppressed
				if r, ok := s.Get("reason"); ok {
					e.Message += " (" + r.Str() + ")"
				}
			}
		}
	}
}

// eventMatches reports whether event id matches want exactly or as a dotted prefix.
func eventMatches(id, want string) bool {
	return want != "" && (id == want || strings.HasPrefix(id, want+"."))
}

func sortEvents(events []Event) {
	sort.SliceStable(events, func(i, j int) bool {
		x, y := events[i].Loc, events[j].Loc
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Column < y.Column
	})
}
