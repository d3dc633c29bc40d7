package model

// The draft types are what a file reader (IDL or JSON AST) produces: shapes whose
// references are still written as in the source (relative ids allowed). The
// assembler resolves them once every file of the model has been read.

// draftRef is a shape id as written in a file: absolute, relative ("Foo",
// "Foo$bar") or empty when absent.
type draftRef struct {
	name string
	loc  SourceLocation
}

func (r draftRef) set() bool { return r.name != "" }

// draftTrait is one trait application. A trait written without a value in IDL
// (`@foo`) has annotation set and a null value; the assembler turns it into {}
// or [] from the trait's definition.
type draftTrait struct {
	name       draftRef
	value      Node
	annotation bool
	loc        SourceLocation
}

type draftMember struct {
	name   string
	target draftRef // empty when elided ($name) or for enum members
	elided bool
	traits []draftTrait
	loc    SourceLocation
}

type draftNamedRef struct {
	name   string
	target draftRef
}

type draftShape struct {
	id      ShapeID // absolute
	typ     ShapeType
	loc     SourceLocation
	traits  []draftTrait
	members []*draftMember
	mixins  []draftRef

	input, output                        draftRef
	errors, operations, resources        []draftRef
	collectionOps                        []draftRef
	create, put, read, update, del, list draftRef
	identifiers, properties              []draftNamedRef
	rename                               []draftNamedRef // name holds the written shape id, target.name the new name
	version                              string
	// forResource is the resource named by `for` in IDL 2.0 (target elision source).
	forResource draftRef
}

type draftMetadata struct {
	key   string
	value Node
	loc   SourceLocation
}

type draftApply struct {
	target draftRef
	traits []draftTrait
}

// draftUse is one `use` statement of an IDL file.
type draftUse struct {
	id  ShapeID
	loc SourceLocation
}

// draftFile is everything read from one model file.
type draftFile struct {
	path      string
	version   string // "1.0" or "2.0"
	namespace string
	uses      []draftUse
	metadata  []draftMetadata
	shapes    []*draftShape
	applies   []draftApply
	events    []Event // syntax errors and warnings found while reading
	// json is true for JSON AST files: every id in them is absolute.
	json bool
	// bundled is true for the files of bundled namespaces (bundle.go).
	bundled bool
}

func (f *draftFile) errorf(loc SourceLocation, shape ShapeID, id, format string, args ...any) {
	f.events = append(f.events, Event{Severity: SeverityError, ID: id, Shape: shape, Loc: loc, Message: sprintf(format, args...)})
}

func (f *draftFile) warnf(loc SourceLocation, shape ShapeID, id, format string, args ...any) {
	f.events = append(f.events, Event{Severity: SeverityWarning, ID: id, Shape: shape, Loc: loc, Message: sprintf(format, args...)})
}
