package model

import (
	"sort"
	"strings"
)

// astReader turns a JSON AST document into a draftFile.
type astReader struct {
	f     *draftFile
	lines lineIndex
	// line is the line of the last location found: the reader mostly moves
	// forward a few lines at a time.
	line int
}

// parseAST reads one Smithy JSON AST file: with the fast reader, or when
// that gives up, from its Node tree.
func parseAST(path string, src string) *draftFile {
	if f := readASTFast(path, src); f != nil {
		return f
	}
	root, err := ParseJSONNode(src)
	return readAST(path, src, root, err)
}

// readAST reads the JSON AST src, already parsed into root (or err).
func readAST(path string, src string, root Node, err error) *draftFile {
	f := &draftFile{path: path, version: "2.0", json: true}
	r := astReader{f: f, lines: newLineIndex(src)}
	if err != nil {
		off := 0
		if se, ok := err.(*JSONSyntaxError); ok {
			off = se.Offset
			err = errorString(se.Msg)
		}
		loc := r.lines.loc(path, off)
		f.errorf(loc, "", "Model", "Error parsing JSON AST at line %d, column %d: %v", loc.Line, loc.Column, err)
		return f
	}
	if root.Kind() != ObjectNode {
		f.errorf(r.loc(root), "", "Model", "Expected the JSON AST to be an object; found %s", root.Kind())
		return f
	}
	r.checkProperties(root, subject{}, "metadata", "shapes", "smithy")
	v, ok := root.Get("smithy")
	switch {
	case !ok:
		f.errorf(r.loc(root), "", "Model", "Expected a `smithy` version property in the JSON AST")
		return f
	case v.Kind() != StringNode:
		f.errorf(r.loc(v), "", "Model", "Expected `smithy` to be a string; found %s", v.Kind())
		return f
	}
	switch v.Str() {
	case "1", "1.0":
		f.version = "1.0"
	case "2", "2.0":
		f.version = "2.0"
	default:
		f.errorf(r.loc(v), "", "Model", "Unsupported Smithy version number: %s", v.Str())
		return f
	}
	if md, ok := root.Get("metadata"); ok {
		if md.Kind() != ObjectNode {
			f.errorf(r.loc(md), "", "Model", "Expected `metadata` to be an object; found %s", md.Kind())
		} else {
			for i := 0; i < md.Len(); i++ {
				k, val := md.Entry(i)
				f.metadata = append(f.metadata, draftMetadata{key: k, value: val, loc: r.loc(val)})
			}
		}
	}
	if shapes, ok := root.Get("shapes"); ok {
		if shapes.Kind() != ObjectNode {
			f.errorf(r.loc(shapes), "", "Model", "Expected `shapes` to be an object; found %s", shapes.Kind())
			return f
		}
		f.shapes = make([]*draftShape, 0, shapes.Len())
		for i := 0; i < shapes.Len(); i++ {
			k, val := shapes.Entry(i)
			r.shape(k, val)
		}
	}
	return f
}

// subject is the shape or member a JSON AST value belongs to, named in
// errors: a member's id is only built for an error.
type subject struct {
	shape  ShapeID
	member string
}

func (s subject) id() ShapeID {
	if s.member == "" {
		return s.shape
	}
	return s.shape.WithMember(s.member)
}

type errorString string

func (e errorString) Error() string { return string(e) }

func (r *astReader) loc(n Node) SourceLocation {
	if n.pos == 0 {
		return SourceLocation{File: r.f.path}
	}
	off, idx := int(n.pos-1), r.lines
	l := r.line
	if l >= len(idx) || idx[l] > off {
		l = 0
	}
	for steps := 0; l+1 < len(idx) && idx[l+1] <= off; steps++ {
		if steps == 8 { // far ahead: search the rest
			l += sort.Search(len(idx)-l, func(i int) bool { return idx[l+i] > off }) - 1
			break
		}
		l++
	}
	r.line = l
	return SourceLocation{File: r.f.path, Line: int32(l + 1), Column: int32(off - idx[l] + 1)}
}

// checkProperties warns about keys of obj that are not in allowed (sorted).
func (r *astReader) checkProperties(obj Node, shape subject, allowed ...string) {
	var extra []string
	for i := 0; i < obj.Len(); i++ {
		k, _ := obj.Entry(i)
		j := sort.SearchStrings(allowed, k)
		if j == len(allowed) || allowed[j] != k {
			extra = append(extra, "`"+k+"`")
		}
	}
	if len(extra) == 0 {
		return
	}
	sort.Strings(extra)
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = "`" + a + "`"
	}
	r.f.warnf(r.loc(obj), shape.id(), "Model", "Expected an object with possible properties of %s, but found additional properties: %s",
		strings.Join(quoted, ", "), strings.Join(extra, ", "))
}

// ref reads a {"target": "id"} reference object.
func (r *astReader) ref(n Node, shape subject, prop string) draftRef {
	if n.Kind() != ObjectNode {
		r.f.errorf(r.loc(n), shape.id(), "Model", "Expected `%s` to be an object; found %s", prop, n.Kind())
		return draftRef{}
	}
	t, ok := n.Get("target")
	if !ok || t.Kind() != StringNode {
		r.f.errorf(r.loc(n), shape.id(), "Model", "Expected `%s` to have a string `target`", prop)
		return draftRef{}
	}
	return r.absRef(t, shape)
}

func (r *astReader) absRef(t Node, shape subject) draftRef {
	if _, ok := ParseShapeID(t.Str()); !ok {
		r.f.errorf(r.loc(t), shape.id(), "Model", "Invalid shape ID: %s", t.Str())
		return draftRef{}
	}
	return draftRef{name: t.Str(), loc: r.loc(t)}
}

func (r *astReader) refList(n Node, shape subject, prop string) []draftRef {
	if n.Kind() != ArrayNode {
		r.f.errorf(r.loc(n), shape.id(), "Model", "Expected `%s` to be an array; found %s", prop, n.Kind())
		return nil
	}
	out := make([]draftRef, 0, n.Len())
	for _, item := range n.Items() {
		if item.Kind() != ObjectNode {
			r.f.errorf(r.loc(item), shape.id(), "Model", "Expected object, but found %s.", item.Kind())
			continue
		}
		if ref := r.ref(item, shape, prop); ref.set() {
			out = append(out, ref)
		}
	}
	return out
}

func (r *astReader) traits(n Node, shape subject) []draftTrait {
	if n.Kind() != ObjectNode {
		r.f.errorf(r.loc(n), shape.id(), "Model", "Expected `traits` to be an object; found %s", n.Kind())
		return nil
	}
	out := make([]draftTrait, 0, n.Len())
	for i := 0; i < n.Len(); i++ {
		k, v := n.Entry(i)
		loc := r.loc(n.list[2*i])
		if _, ok := ParseShapeID(k); !ok {
			r.f.errorf(loc, shape.id(), "Model", "Invalid shape ID: %s", k)
			continue
		}
		out = append(out, draftTrait{name: draftRef{name: k, loc: loc}, value: v, loc: loc})
	}
	return out
}

var (
	astShapeProps = map[ShapeType][]string{
		ListType:      {"member", "mixins", "traits", "type"},
		SetType:       {"member", "mixins", "traits", "type"},
		MapType:       {"key", "mixins", "traits", "type", "value"},
		StructureType: {"members", "mixins", "traits", "type"},
		UnionType:     {"members", "mixins", "traits", "type"},
		EnumType:      {"members", "mixins", "traits", "type"},
		IntEnumType:   {"members", "mixins", "traits", "type"},
		OperationType: {"errors", "input", "mixins", "output", "traits", "type"},
		ServiceType:   {"errors", "mixins", "operations", "rename", "resources", "traits", "type", "version"},
		ResourceType: {"collectionOperations", "create", "delete", "identifiers", "list", "mixins", "operations",
			"properties", "put", "read", "resources", "traits", "type", "update"},
	}
	simpleShapeProps = []string{"mixins", "traits", "type"}
)

func (r *astReader) shape(key string, n Node) {
	f := r.f
	keyLoc := r.loc(n)
	id, ok := ParseShapeID(key)
	if !ok {
		f.errorf(keyLoc, "", "Model", "Invalid shape ID: %s", key)
		return
	}
	subj := subject{shape: id}
	if n.Kind() != ObjectNode {
		f.errorf(keyLoc, id, "Model", "Expected shape `%s` to be an object; found %s", key, n.Kind())
		return
	}
	tn, _ := n.Get("type")
	if tn.Str() == "apply" {
		r.checkProperties(n, subj, "traits", "type")
		if tr, ok := n.Get("traits"); ok {
			f.applies = append(f.applies, draftApply{target: draftRef{name: key, loc: keyLoc}, traits: r.traits(tr, subj)})
		}
		return
	}
	typ, ok := shapeTypes[tn.Str()]
	if !ok {
		f.errorf(keyLoc, id, "Model", "Invalid shape `type`: %s", tn.JSON())
		return
	}
	if id.Member() != "" {
		f.errorf(keyLoc, id, "Model", "Shapes of type `%s` cannot contain a member in their shape ID. Found `%s`", typ, id)
		return
	}
	props, ok := astShapeProps[typ]
	if !ok {
		props = simpleShapeProps
	}
	r.checkProperties(n, subj, props...)
	s := &draftShape{id: id, typ: typ, loc: keyLoc}
	for i := 0; i < n.Len(); i++ {
		k, v := n.Entry(i)
		switch k {
		case "traits":
			s.traits = r.traits(v, subj)
		case "mixins":
			s.mixins = r.refList(v, subj, k)
		case "members":
			r.members(s, v)
		case "member", "key", "value":
			if typ == ListType || typ == SetType || typ == MapType {
				s.members = append(s.members, r.member(s, k, v))
			}
		case "input":
			s.input = r.ref(v, subj, k)
		case "output":
			s.output = r.ref(v, subj, k)
		case "errors":
			s.errors = r.refList(v, subj, k)
		case "operations":
			s.operations = r.refList(v, subj, k)
		case "resources":
			s.resources = r.refList(v, subj, k)
		case "collectionOperations":
			s.collectionOps = r.refList(v, subj, k)
		case "create":
			s.create = r.ref(v, subj, k)
		case "put":
			s.put = r.ref(v, subj, k)
		case "read":
			s.read = r.ref(v, subj, k)
		case "update":
			s.update = r.ref(v, subj, k)
		case "delete":
			s.del = r.ref(v, subj, k)
		case "list":
			s.list = r.ref(v, subj, k)
		case "version":
			s.version = v.Str()
		case "identifiers", "properties":
			named := r.namedRefs(v, subj, k)
			if k == "identifiers" {
				s.identifiers = named
			} else {
				s.properties = named
			}
		case "rename":
			if v.Kind() != ObjectNode {
				f.errorf(r.loc(v), id, "Model", "Expected `rename` to be an object; found %s", v.Kind())
				continue
			}
			for j := 0; j < v.Len(); j++ {
				from, to := v.Entry(j)
				s.rename = append(s.rename, draftNamedRef{name: from, target: draftRef{name: to.Str(), loc: r.loc(to)}})
			}
		}
	}
	f.shapes = append(f.shapes, s)
}

func (r *astReader) namedRefs(n Node, shape subject, prop string) []draftNamedRef {
	if n.Kind() != ObjectNode {
		r.f.errorf(r.loc(n), shape.id(), "Model", "Expected `%s` to be an object; found %s", prop, n.Kind())
		return nil
	}
	out := make([]draftNamedRef, 0, n.Len())
	for i := 0; i < n.Len(); i++ {
		k, v := n.Entry(i)
		out = append(out, draftNamedRef{name: k, target: r.ref(v, shape, prop)})
	}
	return out
}

func (r *astReader) members(s *draftShape, n Node) {
	if n.Kind() != ObjectNode {
		r.f.errorf(r.loc(n), s.id, "Model", "Expected `members` to be an object; found %s", n.Kind())
		return
	}
	s.members = make([]*draftMember, 0, n.Len())
	for i := 0; i < n.Len(); i++ {
		k, v := n.Entry(i)
		s.members = append(s.members, r.member(s, k, v))
	}
}

func (r *astReader) member(s *draftShape, name string, n Node) *draftMember {
	mid := subject{shape: s.id, member: name}
	m := &draftMember{name: name, loc: r.loc(n)}
	if n.Kind() != ObjectNode {
		r.f.errorf(m.loc, mid.id(), "Model", "Expected member `%s` to be an object; found %s", name, n.Kind())
		return m
	}
	r.checkProperties(n, mid, "target", "traits")
	if t, ok := n.Get("target"); ok && t.Kind() == StringNode {
		m.target = r.absRef(t, mid)
	} else {
		r.f.errorf(m.loc, mid.id(), "Model", "Expected member `%s` to have a string `target`", name)
	}
	if tr, ok := n.Get("traits"); ok {
		m.traits = r.traits(tr, mid)
	}
	return m
}
