package model

import "strings"

// astFastReader reads a JSON AST straight from its text: it follows the
// AST's structure (shapes, members, references) itself and builds Nodes only
// for the values of traits and metadata. It reads files without problems
// only: at anything the full reader (readAST, over a parsed Node tree) would
// report, or that this reader does not expect (a property before `type`, a
// repeated property), it gives up, and the full reader reads the file again.
// So the two give the same draftFile for every file this reader accepts
// (TestASTFastReaderAgrees, FuzzASTFastReader), and every problem keeps the
// full reader's message and location.
type astFastReader struct {
	p jsonParser
	f *draftFile

	nodes   slab[Node]
	strs    byteSlab
	shapes  slab[draftShape]
	members slab[draftMember]
	traits  slab[draftTrait]
	refs    slab[draftRef]
	named   slab[draftNamedRef]
	mptrs   slab[*draftMember]
	// traitIDs are the last trait ids checked, nextTraitID the one to
	// replace next.
	traitIDs    [8]string
	nextTraitID int
	// namespaces are the last two namespaces of valid ids (shapeID).
	namespaces [2]string
	// Scratch lists of the references of the array or object being read.
	refBuf   []draftRef
	namedBuf []draftNamedRef
}

// readASTFast reads the JSON AST src; nil when the full reader must read it.
func readASTFast(path, src string) *draftFile {
	r := &astFastReader{p: jsonParser{src: src}, f: &draftFile{path: path, version: "2.0", json: true}}
	r.p.nodes, r.p.bytes = &r.nodes, &r.strs
	if !r.root() {
		return nil
	}
	return r.f
}

// The properties of a shape, as bits of a set.
const (
	propType uint32 = 1 << iota
	propTraits
	propMixins
	propMembers
	propMember
	propKey
	propValue
	propInput
	propOutput
	propErrors
	propOperations
	propResources
	propCollectionOperations
	propCreate
	propPut
	propRead
	propUpdate
	propDelete
	propList
	propVersion
	propIdentifiers
	propProperties
	propRename
)

var shapePropBits = map[string]uint32{
	"type": propType, "traits": propTraits, "mixins": propMixins, "members": propMembers,
	"member": propMember, "key": propKey, "value": propValue, "input": propInput, "output": propOutput,
	"errors": propErrors, "operations": propOperations, "resources": propResources,
	"collectionOperations": propCollectionOperations, "create": propCreate, "put": propPut,
	"read": propRead, "update": propUpdate, "delete": propDelete, "list": propList,
	"version": propVersion, "identifiers": propIdentifiers, "properties": propProperties, "rename": propRename,
}

// astShapePropSets and simpleShapePropSet are astShapeProps and
// simpleShapeProps as sets.
var (
	astShapePropSets = func() map[ShapeType]uint32 {
		out := make(map[ShapeType]uint32, len(astShapeProps))
		for t, props := range astShapeProps {
			out[t] = propSet(props)
		}
		return out
	}()
	simpleShapePropSet = propSet(simpleShapeProps)
)

func propSet(props []string) uint32 {
	var bits uint32
	for _, p := range props {
		bits |= shapePropBits[p]
	}
	return bits
}

// loc is the location of byte offset off, at most the parser's: mostly on
// the line the parser is on.
func (r *astFastReader) loc(off int) SourceLocation {
	p := &r.p
	line, start := p.line, p.lineStart
	if off < start { // on an earlier line
		line -= strings.Count(p.src[off:start], "\n")
		start = strings.LastIndexByte(p.src[:off], '\n') + 1
	}
	return SourceLocation{File: r.f.path, Line: int32(line + 1), Column: int32(off - start + 1)}
}

// open enters the object or array (by its opening byte) at the next non-space
// byte; empty reports one closed at once.
func (r *astFastReader) open(c byte) (empty, ok bool) {
	p := &r.p
	p.skipSpace()
	if p.i >= len(p.src) || p.src[p.i] != c || p.enter() != nil {
		return false, false
	}
	p.i++
	p.skipSpace()
	if p.i < len(p.src) && p.src[p.i] == c+2 { // '}' and ']' follow '{' and '[' by two
		p.i++
		p.depth--
		return true, true
	}
	return false, true
}

// next moves past the value just read to the next one of the object or array
// (closing c): more is false at its end.
func (r *astFastReader) next(c byte) (more, ok bool) {
	p := &r.p
	p.skipSpace()
	if p.i >= len(p.src) {
		return false, false
	}
	switch p.src[p.i] {
	case ',':
		p.i++
		p.skipSpace()
		return true, true
	case c:
		p.i++
		p.depth--
		return false, true
	}
	return false, false
}

// key reads the key of an object entry and its colon; off is the key's offset,
// and the value follows at p.i.
func (r *astFastReader) key() (key string, off int, ok bool) {
	p := &r.p
	off = p.i
	if off >= len(p.src) || p.src[off] != '"' {
		return "", 0, false
	}
	key, err := p.str()
	if err != nil {
		return "", 0, false
	}
	p.skipSpace()
	if p.i >= len(p.src) || p.src[p.i] != ':' {
		return "", 0, false
	}
	p.i++
	p.skipSpace()
	return key, off, true
}

// str reads a string value at p.i.
func (r *astFastReader) str() (string, bool) {
	p := &r.p
	if p.i >= len(p.src) || p.src[p.i] != '"' {
		return "", false
	}
	s, err := p.str()
	return s, err == nil
}

// value reads any JSON value at p.i.
func (r *astFastReader) value() (Node, bool) {
	n, err := r.p.value()
	return n, err == nil
}

func (r *astFastReader) root() bool {
	const smithy, metadata, shapes = 1, 2, 4
	var seen int
	empty, ok := r.open('{')
	for more := !empty && ok; more; {
		k, _, ok := r.key()
		if !ok {
			return false
		}
		var bit int
		switch k {
		case "smithy":
			bit = smithy
			v, ok := r.str()
			switch {
			case !ok:
				return false
			case v == "1" || v == "1.0":
				r.f.version = "1.0"
			case v == "2" || v == "2.0":
				r.f.version = "2.0"
			default:
				return false
			}
		case "metadata":
			bit = metadata
			if !r.metadata() {
				return false
			}
		case "shapes":
			bit = shapes
			if !r.shapeList() {
				return false
			}
		}
		if bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		if more, ok = r.next('}'); !ok {
			return false
		}
	}
	if !ok || seen&smithy == 0 {
		return false
	}
	r.p.skipSpace()
	return r.p.i == len(r.p.src)
}

func (r *astFastReader) metadata() bool {
	empty, ok := r.open('{')
	for more := !empty && ok; more; {
		k, _, ok := r.key()
		if !ok {
			return false
		}
		off := r.p.i
		v, ok := r.value()
		if !ok {
			return false
		}
		r.f.metadata = append(r.f.metadata, draftMetadata{key: k, value: v, loc: r.loc(off)})
		if more, ok = r.next('}'); !ok {
			return false
		}
	}
	return ok
}

func (r *astFastReader) shapeList() bool {
	empty, ok := r.open('{')
	r.f.shapes = []*draftShape{}
	for more := !empty && ok; more; {
		k, _, ok := r.key()
		if !ok || !r.shape(k) {
			return false
		}
		if more, ok = r.next('}'); !ok {
			return false
		}
	}
	return ok
}

func (r *astFastReader) shape(key string) bool {
	id, ok := ParseShapeID(key)
	if !ok {
		return false
	}
	loc := r.loc(r.p.i)
	empty, ok := r.open('{')
	if !ok || empty {
		return false
	}
	if k, _, ok := r.key(); !ok || k != "type" {
		return false
	}
	tn, ok := r.str()
	if ok && tn == "apply" {
		return r.apply(key, loc)
	}
	typ, known := shapeTypes[tn]
	if !ok || !known || id.Member() != "" {
		return false
	}
	allowed, ok := astShapePropSets[typ]
	if !ok {
		allowed = simpleShapePropSet
	}
	seen := propType
	s := r.shapes.one()
	s.id, s.typ, s.loc = id, typ, loc
	for {
		more, ok := r.next('}')
		if !ok {
			return false
		}
		if !more {
			break
		}
		k, _, ok := r.key()
		bit := shapePropBits[k]
		if !ok || allowed&bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		switch k {
		case "traits":
			s.traits, ok = r.traitList()
		case "mixins":
			s.mixins, ok = r.refList()
		case "members":
			ok = r.memberList(s)
		case "member", "key", "value":
			var m *draftMember
			if m, ok = r.member(k); ok {
				s.members = append(s.members, m)
			}
		case "input":
			s.input, ok = r.ref()
		case "output":
			s.output, ok = r.ref()
		case "errors":
			s.errors, ok = r.refList()
		case "operations":
			s.operations, ok = r.refList()
		case "resources":
			s.resources, ok = r.refList()
		case "collectionOperations":
			s.collectionOps, ok = r.refList()
		case "create":
			s.create, ok = r.ref()
		case "put":
			s.put, ok = r.ref()
		case "read":
			s.read, ok = r.ref()
		case "update":
			s.update, ok = r.ref()
		case "delete":
			s.del, ok = r.ref()
		case "list":
			s.list, ok = r.ref()
		case "version":
			s.version, ok = r.str()
		case "identifiers":
			s.identifiers, ok = r.namedRefs()
		case "properties":
			s.properties, ok = r.namedRefs()
		case "rename":
			s.rename, ok = r.rename()
		}
		if !ok {
			return false
		}
	}
	r.f.shapes = append(r.f.shapes, s)
	return true
}

// apply reads an `apply` entry after its type: at most a `traits` object.
func (r *astFastReader) apply(key string, loc SourceLocation) bool {
	ap := draftApply{target: draftRef{name: key, loc: loc}}
	more, ok := r.next('}')
	if !ok {
		return false
	}
	if more {
		if k, _, ok := r.key(); !ok || k != "traits" {
			return false
		}
		if ap.traits, ok = r.traitList(); !ok {
			return false
		}
		if more, ok = r.next('}'); !ok || more {
			return false
		}
		r.f.applies = append(r.f.applies, ap)
	}
	return true
}

// traitList reads a `traits` object.
func (r *astFastReader) traitList() ([]draftTrait, bool) {
	empty, ok := r.open('{')
	mark := r.traits.mark()
	for more := !empty && ok; more; {
		k, off, ok := r.key()
		if !ok {
			return nil, false
		}
		if k, ok = r.traitID(k); !ok {
			return nil, false
		}
		loc := r.loc(off)
		v, ok := r.value()
		if !ok {
			return nil, false
		}
		r.traits.push(&mark, draftTrait{name: draftRef{name: k, loc: loc}, value: v, loc: loc})
		if more, ok = r.next('}'); !ok {
			return nil, false
		}
	}
	if !ok {
		return nil, false
	}
	out := r.traits.done(mark)
	if out == nil {
		out = []draftTrait{}
	}
	return out, true
}

// traitID returns k, which must be a shape id, or an equal string read
// before. A model applies a few traits many times: the last ids read are
// remembered, and traits with one id share one string (comparing it then
// compares pointers).
func (r *astFastReader) traitID(k string) (string, bool) {
	for _, id := range r.traitIDs {
		if id == k && id != "" {
			return id, true
		}
	}
	if _, ok := ParseShapeID(k); !ok {
		return "", false
	}
	r.traitIDs[r.nextTraitID%len(r.traitIDs)] = k
	r.nextTraitID++
	return k, true
}

// shapeID is ParseShapeID(s) succeeding. The namespaces of the last two ids
// are remembered: a model's references are mostly to its own namespace
// and the prelude's.
func (r *astFastReader) shapeID(s string) bool {
	hash := strings.IndexByte(s, '#')
	if hash < 0 {
		return false
	}
	if ns := s[:hash]; ns == "" || ns != r.namespaces[0] && ns != r.namespaces[1] {
		if !validNamespace(ns) {
			return false
		}
		r.namespaces[1], r.namespaces[0] = r.namespaces[0], ns
	}
	return validShapeName(s[hash+1:])
}

// memberList reads a `members` object.
func (r *astFastReader) memberList(s *draftShape) bool {
	empty, ok := r.open('{')
	mark := r.mptrs.mark()
	for more := !empty && ok; more; {
		k, _, ok := r.key()
		if !ok {
			return false
		}
		m, ok := r.member(k)
		if !ok {
			return false
		}
		r.mptrs.push(&mark, m)
		if more, ok = r.next('}'); !ok {
			return false
		}
	}
	if !ok {
		return false
	}
	s.members = r.mptrs.done(mark)
	if s.members == nil {
		s.members = []*draftMember{}
	}
	return true
}

// member reads a member object, which must have a target.
func (r *astFastReader) member(name string) (*draftMember, bool) {
	loc := r.loc(r.p.i)
	empty, ok := r.open('{')
	if !ok || empty {
		return nil, false
	}
	m := r.members.one()
	m.name, m.loc = name, loc
	const target, traits = 1, 2
	var seen int
	for more := true; more; {
		k, _, ok := r.key()
		if !ok {
			return nil, false
		}
		var bit int
		switch k {
		case "target":
			bit = target
			m.target, ok = r.target()
		case "traits":
			bit = traits
			m.traits, ok = r.traitList()
		}
		if !ok || bit == 0 || seen&bit != 0 {
			return nil, false
		}
		seen |= bit
		if more, ok = r.next('}'); !ok {
			return nil, false
		}
	}
	return m, seen&target != 0
}

// target reads the shape id that is the value of a `target` key.
func (r *astFastReader) target() (draftRef, bool) {
	off := r.p.i
	t, ok := r.str()
	if !ok || !r.shapeID(t) {
		return draftRef{}, false
	}
	return draftRef{name: t, loc: r.loc(off)}, true
}

// ref reads a {"target": "id"} reference object.
func (r *astFastReader) ref() (draftRef, bool) {
	empty, ok := r.open('{')
	if !ok || empty {
		return draftRef{}, false
	}
	k, _, ok := r.key()
	if !ok || k != "target" {
		return draftRef{}, false
	}
	ref, ok := r.target()
	if !ok {
		return draftRef{}, false
	}
	if more, ok := r.next('}'); !ok || more {
		return draftRef{}, false
	}
	return ref, true
}

// refList reads an array of reference objects.
func (r *astFastReader) refList() ([]draftRef, bool) {
	empty, ok := r.open('[')
	base := len(r.refBuf)
	for more := !empty && ok; more; {
		ref, ok := r.ref()
		if !ok {
			return nil, false
		}
		r.refBuf = append(r.refBuf, ref)
		if more, ok = r.next(']'); !ok {
			return nil, false
		}
	}
	if !ok {
		return nil, false
	}
	out := r.refs.copy(r.refBuf[base:])
	r.refBuf = r.refBuf[:base]
	if out == nil {
		out = []draftRef{}
	}
	return out, true
}

// namedRefs reads an object of reference objects (resource identifiers and
// properties).
func (r *astFastReader) namedRefs() ([]draftNamedRef, bool) {
	empty, ok := r.open('{')
	base := len(r.namedBuf)
	for more := !empty && ok; more; {
		k, _, ok := r.key()
		if !ok {
			return nil, false
		}
		ref, ok := r.ref()
		if !ok {
			return nil, false
		}
		r.namedBuf = append(r.namedBuf, draftNamedRef{name: k, target: ref})
		if more, ok = r.next('}'); !ok {
			return nil, false
		}
	}
	if !ok {
		return nil, false
	}
	out := r.named.copy(r.namedBuf[base:])
	r.namedBuf = r.namedBuf[:base]
	if out == nil {
		out = []draftNamedRef{}
	}
	return out, true
}

// rename reads a service's `rename` object: shape ids to names.
func (r *astFastReader) rename() ([]draftNamedRef, bool) {
	var out []draftNamedRef
	empty, ok := r.open('{')
	for more := !empty && ok; more; {
		k, _, ok := r.key()
		if !ok {
			return nil, false
		}
		off := r.p.i
		to, ok := r.str()
		if !ok {
			return nil, false
		}
		out = append(out, draftNamedRef{name: k, target: draftRef{name: to, loc: r.loc(off)}})
		if more, ok = r.next('}'); !ok {
			return nil, false
		}
	}
	return out, ok
}
