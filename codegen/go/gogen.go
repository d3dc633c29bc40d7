// Package gogen writes typed Go clients for Smithy services (smithycurl
// gen go): a Go type per shape the service reaches, an error type per
// modeled error, and a Client with one method per operation that runs on
// the client package with the model embedded.
//
// Values are exchanged with the client in the document form: generated
// types carry json tags with the Smithy member names and are marshalled
// with sonic (client/typed.JSON). Go lacks a few document-form values:
// floats may be "NaN"/"Infinity"/"-Infinity" strings and unions are
// interfaces, so a structure with such members gets MarshalJSON and
// UnmarshalJSON methods that view those fields as the typed package's
// Float64/Float32 or the union's box type (same memory layout) and let
// sonic do the rest.
package gogen

import (
	"errors"
	"fmt"
	"go/token"
	"sort"
	"sync"

	"github.com/smithycurl/smithycurl/model"
)

// File is one generated file, named relative to the package directory.
type File struct {
	Name string
	Data []byte
}

const runtimePkg = "github.com/smithycurl/smithycurl/client/typed"

// Generate writes the Go package pkg for service svc of m: types.go,
// client.go and model.json (the model's JSON AST, embedded).
func Generate(m *model.Model, svc *model.Service, pkg string) ([]File, error) {
	if !token.IsIdentifier(pkg) || token.IsKeyword(pkg) || pkg == "_" {
		return nil, fmt.Errorf("package name %q is not a Go identifier", pkg)
	}
	g := newGen(m, svc)
	g.pkg = pkg
	// The three files are independent (only typesFile names constants and
	// union members, and nothing else reads those names): make them at once.
	var (
		wg              sync.WaitGroup
		types, cl, ast  []byte
		typesErr, clErr error
	)
	wg.Add(2)
	go func() { defer wg.Done(); types, typesErr = g.typesFile() }()
	go func() { defer wg.Done(); ast = m.MarshalAST() }()
	cl, clErr = g.clientFile()
	wg.Wait()
	if err := errors.Join(typesErr, clErr); err != nil {
		return nil, err
	}
	return []File{{"types.go", types}, {"client.go", cl}, {"model.json", ast}}, nil
}

type gen struct {
	m      *model.Model
	svc    *model.Service
	pkg    string
	shapes []*model.Shape // the shapes that get a Go type, sorted by id
	names  map[model.ShapeID]string
	pkgNS  namespace
	proto  model.ShapeID // the protocol the client speaks ("" when none)
}

// needsType reports whether s gets a named Go type.
func needsType(s *model.Shape) bool {
	switch s.Type {
	case model.StructureType, model.UnionType, model.EnumType, model.IntEnumType:
		return s.ID != model.UnitID
	case model.StringType:
		return s.HasTrait(model.TraitEnum)
	}
	return false
}

// collect finds every shape the operations reach.
func (g *gen) collect() {
	seen := map[model.ShapeID]bool{}
	var visit func(id model.ShapeID)
	visit = func(id model.ShapeID) {
		if seen[id] {
			return
		}
		seen[id] = true
		s, ok := g.m.Shape(id)
		if !ok {
			return
		}
		if needsType(s) {
			g.shapes = append(g.shapes, s)
		}
		switch s.Type {
		case model.StructureType, model.UnionType, model.ListType, model.SetType, model.MapType:
			for _, mem := range s.Members {
				visit(mem.Target)
			}
		}
	}
	for _, op := range g.svc.Operations {
		visit(op.Input.ID)
		visit(op.Output.ID)
		for _, e := range op.Errors {
			visit(e.ID)
		}
	}
	sort.Slice(g.shapes, func(i, j int) bool { return g.shapes[i].ID < g.shapes[j].ID })
}

// nameTypes gives each shape its Go name: the service's rename or the
// shape's name, made exported; later shapes whose names collide get a
// numeric suffix.
func (g *gen) nameTypes() {
	renamed := map[model.ShapeID]string{}
	for _, r := range g.svc.Shape.Rename {
		renamed[r.ID] = r.Name
	}
	// Shapes of the service's own namespace choose first.
	ns := g.svc.Shape.ID.Namespace()
	order := append([]*model.Shape(nil), g.shapes...)
	sort.SliceStable(order, func(i, j int) bool {
		return (order[i].ID.Namespace() == ns) && (order[j].ID.Namespace() != ns)
	})
	for _, s := range order {
		name := s.ID.Name()
		if r, ok := renamed[s.ID]; ok {
			name = r
		}
		g.names[s.ID] = g.pkgNS.take(exportedName(name))
	}
}

func (g *gen) target(mem *model.Member) *model.Shape {
	t, ok := g.m.Shape(mem.Target)
	if !ok {
		return &model.Shape{ID: mem.Target, Type: model.DocumentType}
	}
	return t
}

func isEnum(s *model.Shape) bool { return s.IsEnum() }

// Type modes: the Go type of a value, or the type sonic sees in place of
// it when marshalling (floats as typed.Float64/32) or unmarshalling (also
// unions as their box).
const (
	modePlain = iota
	modeMarshal
	modeUnmarshal
)

// goType is the Go type of a value of shape t; ptr asks for a pointer where
// the type has no nil of its own (optional members, sparse elements).
// Structures are pointers only when ptr is set.
func (g *gen) goType(t *model.Shape, ptr bool, mode int) string {
	p := func(s string) string {
		if ptr {
			return "*" + s
		}
		return s
	}
	switch t.Type {
	case model.BlobType:
		return "[]byte"
	case model.BooleanType:
		return p("bool")
	case model.StringType:
		if isEnum(t) {
			return p(g.names[t.ID])
		}
		return p("string")
	case model.ByteType:
		return p("int8")
	case model.ShortType:
		return p("int16")
	case model.IntegerType:
		return p("int32")
	case model.LongType:
		return p("int64")
	case model.FloatType:
		if mode != modePlain {
			return p("typed.Float32")
		}
		return p("float32")
	case model.DoubleType:
		if mode != modePlain {
			return p("typed.Float64")
		}
		return p("float64")
	case model.BigIntegerType:
		return "*big.Int"
	case model.BigDecimalType:
		return p("typed.Decimal")
	case model.TimestampType:
		return p("time.Time")
	case model.EnumType, model.IntEnumType:
		return p(g.names[t.ID])
	case model.ListType, model.SetType:
		mem, _ := t.Member("member")
		return "[]" + g.goType(g.target(mem), t.HasTrait(model.TraitSparse), mode)
	case model.MapType:
		mem, _ := t.Member("value")
		return "map[string]" + g.goType(g.target(mem), t.HasTrait(model.TraitSparse), mode)
	case model.StructureType:
		if t.ID == model.UnitID {
			return "struct{}"
		}
		return p(g.names[t.ID])
	case model.UnionType:
		if mode == modeUnmarshal {
			return "box" + g.names[t.ID]
		}
		return g.names[t.ID]
	}
	return "typed.Document"
}

// optional reports whether a structure member is a pointer (or nil-able)
// in Go: every member that is not @required (or is @clientOptional).
func optional(mem *model.Member) bool {
	return !mem.Traits.Has(model.TraitRequired) || mem.Traits.Has(model.TraitClientOptional)
}

// memberType is the Go type of a structure member.
func (g *gen) memberType(mem *model.Member, mode int) string {
	t := g.target(mem)
	return g.goType(t, optional(mem) || (t.Type == model.StructureType && t.ID != model.UnitID), mode)
}
