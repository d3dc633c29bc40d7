package model

import "fmt"

// ShapeType is the type of a shape, spelled as in the JSON AST.
type ShapeType string

const (
	BlobType       ShapeType = "blob"
	BooleanType    ShapeType = "boolean"
	StringType     ShapeType = "string"
	ByteType       ShapeType = "byte"
	ShortType      ShapeType = "short"
	IntegerType    ShapeType = "integer"
	LongType       ShapeType = "long"
	FloatType      ShapeType = "float"
	DoubleType     ShapeType = "double"
	BigIntegerType ShapeType = "bigInteger"
	BigDecimalType ShapeType = "bigDecimal"
	TimestampType  ShapeType = "timestamp"
	DocumentType   ShapeType = "document"
	EnumType       ShapeType = "enum"
	IntEnumType    ShapeType = "intEnum"
	ListType       ShapeType = "list"
	SetType        ShapeType = "set"
	MapType        ShapeType = "map"
	StructureType  ShapeType = "structure"
	UnionType      ShapeType = "union"
	ServiceType    ShapeType = "service"
	OperationType  ShapeType = "operation"
	ResourceType   ShapeType = "resource"
	MemberType     ShapeType = "member"
)

var shapeTypes = map[string]ShapeType{}

func init() {
	for _, t := range []ShapeType{BlobType, BooleanType, StringType, ByteType, ShortType, IntegerType,
		LongType, FloatType, DoubleType, BigIntegerType, BigDecimalType, TimestampType, DocumentType,
		EnumType, IntEnumType, ListType, SetType, MapType, StructureType, UnionType, ServiceType,
		OperationType, ResourceType} {
		shapeTypes[string(t)] = t
	}
}

// IsSimple reports whether t is a simple (scalar) shape type, enums included.
func (t ShapeType) IsSimple() bool {
	switch t {
	case BlobType, BooleanType, StringType, ByteType, ShortType, IntegerType, LongType, FloatType,
		DoubleType, BigIntegerType, BigDecimalType, TimestampType, DocumentType, EnumType, IntEnumType:
		return true
	}
	return false
}

// IsNumber reports whether t is a numeric type (intEnum included).
func (t ShapeType) IsNumber() bool {
	switch t {
	case ByteType, ShortType, IntegerType, LongType, FloatType, DoubleType, BigIntegerType,
		BigDecimalType, IntEnumType:
		return true
	}
	return false
}

// HasMembers reports whether shapes of type t have members.
func (t ShapeType) HasMembers() bool {
	switch t {
	case EnumType, IntEnumType, ListType, SetType, MapType, StructureType, UnionType:
		return true
	}
	return false
}

// SourceLocation is where a definition was read: file, 1-based line and column.
type SourceLocation struct {
	File   string
	Line   int32
	Column int32
}

func (l SourceLocation) String() string {
	if l.File == "" {
		return "<unknown>"
	}
	if l.Line == 0 {
		return l.File
	}
	return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column)
}

// Trait is one trait application with its value.
type Trait struct {
	ID    ShapeID
	Value Node
}

// Traits is a list of trait applications, at most one per trait id.
type Traits []Trait

// Get returns the value of trait id.
func (ts Traits) Get(id ShapeID) (Node, bool) {
	for i := range ts {
		if ts[i].ID == id {
			return ts[i].Value, true
		}
	}
	return Node{}, false
}

// Has reports whether trait id is applied.
func (ts Traits) Has(id ShapeID) bool {
	_, ok := ts.Get(id)
	return ok
}

// Documentation returns the @documentation text, "" when none.
func (ts Traits) Documentation() string {
	v, _ := ts.Get(TraitDocumentation)
	return v.Str()
}

// Member is a member of an aggregate shape (structure, union, list, map, enum, intEnum).
type Member struct {
	ID     ShapeID // container$name
	Target ShapeID
	Traits Traits
	Loc    SourceLocation
	// Mixin is the mixin the member was inherited from ("" when declared locally).
	Mixin ShapeID
}

// Name returns the member name.
func (m *Member) Name() string { return m.ID.Member() }

// JSONName returns the member's @jsonName, else its name.
func (m *Member) JSONName() string {
	if v, ok := m.Traits.Get(TraitJSONName); ok {
		return v.Str()
	}
	return m.Name()
}

// Ref is a named reference used by resources (identifiers, properties) and service renames.
type Ref struct {
	Name   string
	Target ShapeID
}

// Rename gives a shape a new name within a service.
type Rename struct {
	ID   ShapeID
	Name string
}

// Shape is one shape of a loaded model. Shapes of a loaded model are immutable.
type Shape struct {
	ID     ShapeID
	Type   ShapeType
	Traits Traits
	// Members in declaration order, mixin members first; empty for types without members.
	Members []*Member
	Mixins  []ShapeID
	Loc     SourceLocation

	// Operation properties.
	Input, Output ShapeID
	Errors        []ShapeID // operation and service errors

	// Service properties.
	Version    string
	Operations []ShapeID // service and resource operations
	Resources  []ShapeID // service and resource child resources
	Rename     []Rename  // service: new names for shapes of its closure

	// Resource properties.
	Identifiers          []Ref
	Properties           []Ref
	Create, Put, Read    ShapeID
	Update, Delete, List ShapeID
	CollectionOperations []ShapeID

	// local holds what the shape's own definition declared, before mixins were
	// applied; nil when the shape has no mixins. The JSON AST writer uses it.
	local *Shape
	// bundled marks a shape of a bundled namespace, shared by every model
	// (bundle.go): it is neither validated again nor written to a JSON AST.
	bundled bool
}

// Member returns the member called name.
func (s *Shape) Member(name string) (*Member, bool) {
	for _, m := range s.Members {
		if m.Name() == name {
			return m, true
		}
	}
	return nil, false
}

// Trait returns the value of trait id on the shape.
func (s *Shape) Trait(id ShapeID) (Node, bool) { return s.Traits.Get(id) }

// HasTrait reports whether trait id is applied to the shape.
func (s *Shape) HasTrait(id ShapeID) bool { return s.Traits.Has(id) }
