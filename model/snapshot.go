package model

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"
	"unsafe"
)

// A snapshot is a loaded model written in a compact binary form that a later
// process reads back without parsing, assembling or validating again
// (`smithycurl compile`). It holds every shape, the prelude and the bundled
// shapes included, so that it depends on nothing but its format version:
//
//	header   magic (8 bytes) | format version (u32 LE) | CRC-32 of the payload (u32 LE) | payload length (u64 LE)
//	payload  uvarint counts and string-table indexes: the string table, the
//	         number of list elements of every node, the model version,
//	         metadata and shapes
//
// The checksum detects a damaged or truncated file (it is no signature: a
// snapshot is trusted like the model files it was compiled from). It is the
// IEEE CRC-32 (version 1 had CRC-32C): Go computes both with the CPU's
// instructions, but CRC-32C first builds 16 KiB of tables, 0.4 ms of every
// process that reads a snapshot (the prelude's, the model cache's). The
// reader also checks every count, index and reference, so that a file that
// passes the checksum but is not a snapshot this version wrote is an error,
// never a crash. Nodes lose their source offsets (only the readers use them).

// snapshotMagic starts every snapshot; no model file starts with it.
const snapshotMagic = "\x93SCMODL\n"

// SnapshotVersion is the snapshot format version this package writes and
// reads. A snapshot of another version is an error asking to compile it again.
const SnapshotVersion = 2

const snapshotHeaderSize = len(snapshotMagic) + 4 + 4 + 8

// checksum is the checksum of snapshots and of the model cache's entries.
func checksum(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// IsSnapshot reports whether data starts like a model snapshot.
func IsSnapshot(data []byte) bool { return strings.HasPrefix(string(data), snapshotMagic) }

var snapshotTypes = [...]ShapeType{BlobType, BooleanType, StringType, ByteType, ShortType, IntegerType,
	LongType, FloatType, DoubleType, BigIntegerType, BigDecimalType, TimestampType, DocumentType,
	EnumType, IntEnumType, ListType, SetType, MapType, StructureType, UnionType, ServiceType,
	OperationType, ResourceType}

const (
	snapBundled = 1 << iota
	snapLocal
)

// MarshalSnapshot writes the model as a snapshot (see UnmarshalSnapshot).
func (m *Model) MarshalSnapshot() []byte {
	w := snapWriter{index: map[string]uint64{}}
	w.str(m.version)
	w.node(m.metadata)
	ids := m.ShapeIDs()
	w.uvarint(uint64(len(ids)))
	for _, id := range ids {
		w.shape(m.shapes[id], true)
	}
	// The payload: strings, the node element count, then the body.
	p := binary.AppendUvarint(nil, uint64(len(w.strs)))
	for _, s := range w.strs {
		p = binary.AppendUvarint(p, uint64(len(s)))
		p = append(p, s...)
	}
	for _, n := range []uint64{w.nodes, w.traits, w.members, w.ids} {
		p = binary.AppendUvarint(p, n)
	}
	p = append(p, w.body...)
	out := make([]byte, 0, snapshotHeaderSize+len(p))
	out = append(out, snapshotMagic...)
	out = binary.LittleEndian.AppendUint32(out, SnapshotVersion)
	out = binary.LittleEndian.AppendUint32(out, checksum(p))
	out = binary.LittleEndian.AppendUint64(out, uint64(len(p)))
	return append(out, p...)
}

type snapWriter struct {
	body  []byte
	strs  []string
	index map[string]uint64
	// The number of node list elements, traits, members and shape ids in
	// lists, for the reader's one allocation of each.
	nodes, traits, members, ids uint64
}

func (w *snapWriter) uvarint(v uint64) { w.body = binary.AppendUvarint(w.body, v) }

func (w *snapWriter) str(s string) {
	i, ok := w.index[s]
	if !ok {
		i = uint64(len(w.strs))
		w.index[s] = i
		w.strs = append(w.strs, s)
	}
	w.uvarint(i)
}

func (w *snapWriter) idList(ids []ShapeID) {
	w.uvarint(uint64(len(ids)))
	w.ids += uint64(len(ids))
	for _, id := range ids {
		w.str(string(id))
	}
}

func (w *snapWriter) node(n Node) {
	w.body = append(w.body, byte(n.kind))
	switch n.kind {
	case BoolNode:
		if n.s == "true" {
			w.body = append(w.body, 1)
		} else {
			w.body = append(w.body, 0)
		}
	case NumberNode, StringNode:
		w.str(n.s)
	case ArrayNode, ObjectNode:
		w.uvarint(uint64(len(n.list)))
		w.nodes += uint64(len(n.list))
		for _, item := range n.list {
			w.node(item)
		}
	}
}

func (w *snapWriter) traitList(ts Traits) {
	w.uvarint(uint64(len(ts)))
	w.traits += uint64(len(ts))
	for _, t := range ts {
		w.str(string(t.ID))
		w.node(t.Value)
	}
}

func (w *snapWriter) loc(l SourceLocation) {
	w.str(l.File)
	w.uvarint(uint64(uint32(l.Line)))
	w.uvarint(uint64(uint32(l.Column)))
}

func (w *snapWriter) refs(rs []Ref) {
	w.uvarint(uint64(len(rs)))
	for _, r := range rs {
		w.str(r.Name)
		w.str(string(r.Target))
	}
}

func (w *snapWriter) shape(s *Shape, withLocal bool) {
	w.str(string(s.ID))
	t := 0
	for t < len(snapshotTypes) && snapshotTypes[t] != s.Type {
		t++
	}
	flags := byte(0)
	if s.bundled {
		flags |= snapBundled
	}
	if s.local != nil && withLocal {
		flags |= snapLocal
	}
	w.body = append(w.body, byte(t), flags)
	w.loc(s.Loc)
	w.traitList(s.Traits)
	w.uvarint(uint64(len(s.Members)))
	w.members += uint64(len(s.Members))
	for _, m := range s.Members {
		w.str(string(m.ID))
		w.str(string(m.Target))
		w.traitList(m.Traits)
		w.loc(m.Loc)
		w.str(string(m.Mixin))
	}
	w.idList(s.Mixins)
	w.str(string(s.Input))
	w.str(string(s.Output))
	w.idList(s.Errors)
	w.str(s.Version)
	w.idList(s.Operations)
	w.idList(s.Resources)
	w.uvarint(uint64(len(s.Rename)))
	for _, r := range s.Rename {
		w.str(string(r.ID))
		w.str(r.Name)
	}
	w.refs(s.Identifiers)
	w.refs(s.Properties)
	for _, id := range []ShapeID{s.Create, s.Put, s.Read, s.Update, s.Delete, s.List} {
		w.str(string(id))
	}
	w.idList(s.CollectionOperations)
	if flags&snapLocal != 0 {
		w.shape(s.local, false)
	}
}

// SnapshotError is the error of a snapshot that cannot be read: damaged,
// truncated, of another format version, or not a snapshot at all.
type SnapshotError struct {
	Name string // the file or source name
	Msg  string
}

func (e *SnapshotError) Error() string {
	return fmt.Sprintf("model snapshot %s: %s", e.Name, e.Msg)
}

// UnmarshalSnapshot reads a model written by MarshalSnapshot; name is the
// file name errors show. The model's strings point into data, which the
// caller must never change afterwards. A snapshot that cannot be read gives
// a *SnapshotError naming it, never a panic.
func UnmarshalSnapshot(name string, data []byte) (*Model, error) {
	return unmarshalSnapshot(name, unsafe.String(unsafe.SliceData(data), len(data)))
}

func unmarshalSnapshot(name, data string) (*Model, error) {
	return unmarshalSnapshotOver(name, data, nil)
}

// unmarshalSnapshotOver reads a snapshot whose shapes may refer to the
// shapes of base (the prelude, for a bundled namespace's snapshot); without
// base the snapshot must hold every shape it refers to.
func unmarshalSnapshotOver(name, data string, base map[ShapeID]*Shape) (*Model, error) {
	fail := func(format string, args ...any) (*Model, error) {
		return nil, &SnapshotError{Name: name, Msg: sprintf(format, args...)}
	}
	if !strings.HasPrefix(data, snapshotMagic) {
		return fail("not a smithycurl model snapshot")
	}
	if len(data) < snapshotHeaderSize {
		return fail("truncated header (%d bytes): the file is damaged; compile the model again with `smithycurl compile`", len(data))
	}
	h := data[len(snapshotMagic):]
	version := binary.LittleEndian.Uint32([]byte(h[0:4]))
	sum := binary.LittleEndian.Uint32([]byte(h[4:8]))
	size := binary.LittleEndian.Uint64([]byte(h[8:16]))
	if version != SnapshotVersion {
		return fail("format version %d, but this smithycurl reads version %d: compile the model again with `smithycurl compile`", version, SnapshotVersion)
	}
	payload := data[snapshotHeaderSize:]
	if size != uint64(len(payload)) {
		return fail("the header gives %d bytes of data but the file holds %d: the file is truncated or damaged; compile the model again with `smithycurl compile`", size, len(payload))
	}
	if checksum(unsafe.Slice(unsafe.StringData(payload), len(payload))) != sum {
		return fail("checksum mismatch: the file is damaged; compile the model again with `smithycurl compile`")
	}
	r := snapReader{src: payload}
	m := r.model()
	if r.err != "" {
		return fail("%s at byte %d: the file is damaged or was not written by this smithycurl; compile the model again with `smithycurl compile`", r.err, snapshotHeaderSize+r.i)
	}
	if problem := checkSnapshotRefs(m, base); problem != "" {
		return fail("%s: the file is damaged or was not written by this smithycurl; compile the model again with `smithycurl compile`", problem)
	}
	return m, nil
}

// snapReader decodes a snapshot payload. The first problem is kept in err;
// after it every read returns zero values, so decoding ends quickly.
type snapReader struct {
	src  string
	i    int
	err  string
	strs []string
	// The allocations node lists, traits, members and id lists are cut from.
	nodes   []Node
	traitsA Traits
	members []Member
	memberP []*Member
	idsA    []ShapeID
	depth   int
	// localNext is set by shape when the shape's own definition follows.
	localNext bool
}

func (r *snapReader) fail(msg string) {
	if r.err == "" {
		r.err = msg
	}
	r.i = len(r.src)
}

func (r *snapReader) uvarint() uint64 {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if r.i >= len(r.src) {
			r.fail("unexpected end of data")
			return 0
		}
		c := r.src[r.i]
		r.i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.fail("invalid number")
	return 0
}

func (r *snapReader) byte() byte {
	if r.i >= len(r.src) {
		r.fail("unexpected end of data")
		return 0
	}
	c := r.src[r.i]
	r.i++
	return c
}

// count reads a number of elements that each take at least one more byte,
// so that a damaged count cannot ask for more memory than the file holds.
func (r *snapReader) count() int { return r.countOf(1) }

// countOf reads a number of elements that each take at least size bytes.
func (r *snapReader) countOf(size int) int {
	n := r.uvarint()
	if n > uint64((len(r.src)-r.i)/size) {
		r.fail("a count larger than the data")
		return 0
	}
	return int(n)
}

func (r *snapReader) str() string {
	i := r.uvarint()
	if i >= uint64(len(r.strs)) {
		r.fail("a string index out of range")
		return ""
	}
	return r.strs[i]
}

func (r *snapReader) id() ShapeID { return ShapeID(r.str()) }

func (r *snapReader) ids() []ShapeID {
	n := r.count()
	if n == 0 || n > len(r.idsA) {
		if n > 0 {
			r.fail("more shape ids than counted")
		}
		return nil
	}
	out := r.idsA[:n:n]
	r.idsA = r.idsA[n:]
	for i := range out {
		out[i] = r.id()
	}
	return out
}

func (r *snapReader) model() *Model {
	n := r.count()
	r.strs = make([]string, n)
	for i := range r.strs {
		size := r.uvarint()
		if size > uint64(len(r.src)-r.i) {
			r.fail("a string longer than the data")
			return nil
		}
		r.strs[i] = r.src[r.i : r.i+int(size)]
		r.i += int(size)
	}
	r.nodes = make([]Node, r.count())
	r.traitsA = make(Traits, r.countOf(2)) // an id and a node kind
	n = r.countOf(7)                       // id, target, trait count, location (3), mixin
	r.members, r.memberP = make([]Member, n), make([]*Member, n)
	r.idsA = make([]ShapeID, r.count())
	m := &Model{version: r.str()}
	m.metadata = r.node()
	n = r.count()
	m.shapes = make(map[ShapeID]*Shape, n)
	shapes := make([]Shape, n)
	for i := range shapes {
		s := &shapes[i]
		r.shape(s)
		if r.err != "" {
			return nil
		}
		if _, dup := m.shapes[s.ID]; dup {
			r.fail("shape " + string(s.ID) + " twice")
			return nil
		}
		m.shapes[s.ID] = s
		if r.takeLocal() {
			s.local = new(Shape)
			r.shape(s.local)
		}
	}
	if r.i != len(r.src) {
		r.fail("data after the last shape")
	}
	return m
}

// takeLocal reports whether the shape just read has its own definition
// (before mixins) next.
func (r *snapReader) takeLocal() bool {
	next := r.localNext
	r.localNext = false
	return next && r.err == ""
}

func (r *snapReader) node() Node {
	kind := NodeKind(r.byte())
	switch kind {
	case NullNode:
		return Node{}
	case BoolNode:
		switch r.byte() {
		case 0:
			return Node{kind: BoolNode}
		case 1:
			return Node{kind: BoolNode, s: "true"}
		}
		r.fail("invalid boolean")
	case NumberNode, StringNode:
		return Node{kind: kind, s: r.str()}
	case ArrayNode, ObjectNode:
		n := r.count()
		if n > len(r.nodes) || (kind == ObjectNode && n%2 != 0) {
			r.fail("invalid node list")
			return Node{}
		}
		if r.depth++; r.depth > maxJSONDepth {
			r.fail("nodes nested too deeply")
			return Node{}
		}
		list := r.nodes[:n:n]
		r.nodes = r.nodes[n:]
		for i := range list {
			list[i] = r.node()
		}
		for i := 0; i < n && kind == ObjectNode; i += 2 {
			if list[i].kind != StringNode {
				r.fail("an object key that is not a string")
			}
		}
		r.depth--
		return Node{kind: kind, list: list}
	default:
		r.fail("invalid node kind")
	}
	return Node{}
}

func (r *snapReader) traits() Traits {
	n := r.count()
	if n == 0 || n > len(r.traitsA) {
		if n > 0 {
			r.fail("more traits than counted")
		}
		return nil
	}
	ts := r.traitsA[:n:n]
	r.traitsA = r.traitsA[n:]
	for i := range ts {
		ts[i] = Trait{ID: r.id(), Value: r.node()}
	}
	return ts
}

func (r *snapReader) loc() SourceLocation {
	return SourceLocation{File: r.str(), Line: int32(uint32(r.uvarint())), Column: int32(uint32(r.uvarint()))}
}

func (r *snapReader) refs() []Ref {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]Ref, n)
	for i := range out {
		out[i] = Ref{Name: r.str(), Target: r.id()}
	}
	return out
}

func (r *snapReader) shape(s *Shape) {
	s.ID = r.id()
	if _, ok := ParseShapeID(string(s.ID)); !ok || s.ID.Member() != "" {
		r.fail("an invalid shape id")
		return
	}
	t, flags := r.byte(), r.byte()
	if int(t) >= len(snapshotTypes) {
		r.fail("an invalid shape type")
		return
	}
	s.Type = snapshotTypes[t]
	s.bundled = flags&snapBundled != 0
	r.localNext = flags&snapLocal != 0
	s.Loc = r.loc()
	s.Traits = r.traits()
	if n := r.count(); n > len(r.members) {
		r.fail("more members than counted")
		return
	} else if n > 0 {
		members := r.members[:n:n]
		s.Members = r.memberP[:n:n]
		r.members, r.memberP = r.members[n:], r.memberP[n:]
		for i := range members {
			m := &members[i]
			m.ID = r.id()
			if len(m.ID) <= len(s.ID)+1 || m.ID[:len(s.ID)] != s.ID || m.ID[len(s.ID)] != '$' {
				r.fail("a member id that is not of its shape")
				return
			}
			m.Target = r.id()
			m.Traits = r.traits()
			m.Loc = r.loc()
			m.Mixin = r.id()
			s.Members[i] = m
		}
	}
	s.Mixins = r.ids()
	s.Input, s.Output = r.id(), r.id()
	s.Errors = r.ids()
	s.Version = r.str()
	s.Operations = r.ids()
	s.Resources = r.ids()
	if n := r.count(); n > 0 {
		s.Rename = make([]Rename, n)
		for i := range s.Rename {
			s.Rename[i] = Rename{ID: r.id(), Name: r.str()}
		}
	}
	s.Identifiers = r.refs()
	s.Properties = r.refs()
	s.Create, s.Put, s.Read = r.id(), r.id(), r.id()
	s.Update, s.Delete, s.List = r.id(), r.id(), r.id()
	s.CollectionOperations = r.ids()
}

// checkSnapshotRefs checks that every reference the clients follow names a
// shape of the model, as validation made sure when the snapshot was written;
// it returns the first problem, or "".
func checkSnapshotRefs(m *Model, base map[ShapeID]*Shape) string {
	has := func(id ShapeID) bool {
		_, ok := m.shapes[id]
		_, inBase := base[id]
		return ok || inBase || id == ""
	}
	for _, s := range m.shapes {
		for _, mem := range s.Members {
			if !has(mem.Target) && !((s.Type == EnumType || s.Type == IntEnumType) && mem.Target == "") {
				return sprintf("member %s targets a shape the snapshot does not hold, %s", mem.ID, mem.Target)
			}
		}
		refs := []ShapeID{s.Input, s.Output, s.Create, s.Put, s.Read, s.Update, s.Delete, s.List}
		for _, r := range s.Identifiers {
			refs = append(refs, r.Target)
		}
		for _, r := range s.Properties {
			refs = append(refs, r.Target)
		}
		for _, list := range [][]ShapeID{refs, s.Errors, s.Operations, s.Resources, s.CollectionOperations, s.Mixins} {
			for _, id := range list {
				if !has(id) {
					return sprintf("shape %s refers to a shape the snapshot does not hold, %s", s.ID, id)
				}
			}
		}
	}
	if _, ok := m.shapes[UnitID]; !ok && base == nil {
		return "the snapshot has no prelude"
	}
	return ""
}
