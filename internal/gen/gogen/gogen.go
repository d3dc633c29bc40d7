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
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/token"
	"sort"
	"strings"
	"sync"

	"github.com/smithycurl/smithycurl/model"
)

// File is one generated file, named relative to the package directory.
type File struct {
	Name string
	Data []byte
}

const (
	traitDoc        model.ShapeID = "smithy.api#documentation"
	traitDeprecated model.ShapeID = "smithy.api#deprecated"
	traitRequired   model.ShapeID = "smithy.api#required"
	traitClientOpt  model.ShapeID = "smithy.api#clientOptional"
	traitSparse     model.ShapeID = "smithy.api#sparse"
	traitError      model.ShapeID = "smithy.api#error"
	traitEnum       model.ShapeID = "smithy.api#enum"
	traitEnumValue  model.ShapeID = "smithy.api#enumValue"
	unitID          model.ShapeID = "smithy.api#Unit"
	runtimePkg                    = "github.com/smithycurl/smithycurl/client/typed"
)

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
}

// needsType reports whether s gets a named Go type.
func needsType(s *model.Shape) bool {
	switch s.Type {
	case model.StructureType, model.UnionType, model.EnumType, model.IntEnumType:
		return s.ID != unitID
	case model.StringType:
		return s.HasTrait(traitEnum)
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

func isEnum(s *model.Shape) bool {
	return s.Type == model.EnumType || s.Type == model.IntEnumType || (s.Type == model.StringType && s.HasTrait(traitEnum))
}

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
		return "[]" + g.goType(g.target(mem), t.HasTrait(traitSparse), mode)
	case model.MapType:
		mem, _ := t.Member("value")
		return "map[string]" + g.goType(g.target(mem), t.HasTrait(traitSparse), mode)
	case model.StructureType:
		if t.ID == unitID {
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
	return !mem.Traits.Has(traitRequired) || mem.Traits.Has(traitClientOpt)
}

// memberType is the Go type of a structure member.
func (g *gen) memberType(mem *model.Member, mode int) string {
	t := g.target(mem)
	return g.goType(t, optional(mem) || (t.Type == model.StructureType && t.ID != unitID), mode)
}

// typesFile writes the shapes' types.
func (g *gen) typesFile() ([]byte, error) {
	var w writer
	for _, s := range g.shapes {
		switch {
		case isEnum(s):
			g.enum(&w, s)
		case s.Type == model.UnionType:
			g.union(&w, s)
		default:
			g.structure(&w, s)
		}
	}
	return w.file(g.pkg, "types.go", nil)
}

// fieldNames gives a structure's members their Go field names.
func (g *gen) fieldNames(s *model.Shape) []string {
	ns := namespace{"MarshalJSON": true, "UnmarshalJSON": true}
	if s.HasTrait(traitError) {
		for _, r := range []string{"Error", "Unwrap", "Meta", "ErrorMeta", "ErrorString"} {
			ns[r] = true
		}
	}
	out := make([]string, len(s.Members))
	for i, mem := range s.Members {
		out[i] = ns.take(exportedName(mem.Name()))
	}
	return out
}

func (g *gen) structure(w *writer, s *model.Shape) {
	name := g.names[s.ID]
	isErr := s.HasTrait(traitError)
	fields := g.fieldNames(s)
	w.doc("", name, s.Traits, defaultDoc(s, isErr))
	w.p("type %s struct {", name)
	if isErr {
		w.p("\ttyped.ErrorMeta `json:\"-\"`")
	}
	for i, mem := range s.Members {
		if (i > 0 || isErr) && mem.Traits.Has(traitDoc) {
			w.p("")
		}
		w.doc("\t", fields[i], mem.Traits, "")
		tag := mem.Name()
		if optional(mem) {
			tag += ",omitzero"
		}
		w.p("\t%s %s `json:%q`", fields[i], g.memberType(mem, modePlain), tag)
	}
	w.p("}")
	w.p("")
	if isErr {
		w.p("// Error returns the error's shape, status and message.")
		w.p("func (e *%s) Error() string { return e.ErrorMeta.ErrorString() }", name)
		w.p("")
	}
	g.shadowMethods(w, s, name, fields)
}

// shadowMethods writes MarshalJSON and UnmarshalJSON for a structure whose
// members include floats or unions, which sonic cannot map by itself.
func (g *gen) shadowMethods(w *writer, s *model.Shape, name string, fields []string) {
	var mar, unmar []int
	for i, mem := range s.Members {
		plain := g.memberType(mem, modePlain)
		if g.memberType(mem, modeMarshal) != plain {
			mar = append(mar, i)
		}
		if g.memberType(mem, modeUnmarshal) != plain {
			unmar = append(unmar, i)
		}
	}
	if len(mar) > 0 {
		w.p("// MarshalJSON writes the document form (NaN and infinities as strings).")
		w.p("func (v %s) MarshalJSON() ([]byte, error) {", name)
		w.p("\ttype Plain_ %s", name)
		w.p("\treturn typed.JSON.Marshal(struct {")
		w.p("\t\t*Plain_")
		var vals []string
		for _, i := range mar {
			mem := s.Members[i]
			t := g.memberType(mem, modeMarshal)
			tag := mem.Name()
			if optional(mem) {
				tag += ",omitzero"
			}
			w.p("\t\t%s %s `json:%q`", fields[i], t, tag)
			vals = append(vals, fmt.Sprintf("*(*%s)(unsafe.Pointer(&v.%s))", t, fields[i]))
		}
		w.p("\t}{(*Plain_)(&v), %s})", strings.Join(vals, ", "))
		w.p("}")
		w.p("")
	}
	if len(unmar) > 0 {
		w.p("// UnmarshalJSON reads the document form.")
		w.p("func (v *%s) UnmarshalJSON(b []byte) error {", name)
		w.p("\ttype Plain_ %s", name)
		w.p("\tvar s struct {")
		w.p("\t\t*Plain_")
		for _, i := range unmar {
			mem := s.Members[i]
			w.p("\t\t%s %s `json:%q`", fields[i], g.memberType(mem, modeUnmarshal), mem.Name())
		}
		w.p("\t}")
		w.p("\ts.Plain_ = (*Plain_)(v)")
		w.p("\tif err := typed.JSON.Unmarshal(b, &s); err != nil {")
		w.p("\t\treturn err")
		w.p("\t}")
		for _, i := range unmar {
			w.p("\tv.%s = *(*%s)(unsafe.Pointer(&s.%s))", fields[i], g.memberType(s.Members[i], modePlain), fields[i])
		}
		w.p("\treturn nil")
		w.p("}")
		w.p("")
	}
}

func defaultDoc(s *model.Shape, isErr bool) string {
	if isErr {
		return fmt.Sprintf("is the modeled error %s.", s.ID)
	}
	return fmt.Sprintf("is %s.", s.ID)
}

type enumValue struct {
	name, value string
	traits      model.Traits
}

func (g *gen) enumValues(s *model.Shape) []enumValue {
	var out []enumValue
	if def, ok := s.Trait(traitEnum); ok && s.Type == model.StringType {
		for _, d := range def.Items() {
			v, _ := d.Get("value")
			n, ok := d.Get("name")
			name := n.Str()
			if !ok || name == "" {
				name = v.Str()
			}
			var ts model.Traits
			if doc, ok := d.Get("documentation"); ok {
				ts = append(ts, model.Trait{ID: traitDoc, Value: doc})
			}
			if dep, ok := d.Get("deprecated"); ok && dep.AsBool() {
				ts = append(ts, model.Trait{ID: traitDeprecated, Value: model.Object()})
			}
			out = append(out, enumValue{name: name, value: v.Str(), traits: ts})
		}
		return out
	}
	for _, mem := range s.Members {
		v, ok := mem.Traits.Get(traitEnumValue)
		value := mem.Name()
		if ok {
			if v.Kind() == model.StringNode {
				value = v.Str()
			} else {
				value = v.Literal()
			}
		}
		out = append(out, enumValue{name: mem.Name(), value: value, traits: mem.Traits})
	}
	return out
}

func (g *gen) enum(w *writer, s *model.Shape) {
	name := g.names[s.ID]
	base := "string"
	if s.Type == model.IntEnumType {
		base = "int32"
	}
	vals := g.enumValues(s)
	doc := fmt.Sprintf("is %s, an open enum: a service may send values this client does not list.", s.ID)
	w.doc("", name, s.Traits, doc)
	w.p("type %s %s", name, base)
	w.p("")
	consts := make([]string, len(vals))
	if len(vals) > 0 {
		w.p("// The values the model lists for %s.", name)
		w.p("const (")
		for i, v := range vals {
			consts[i] = g.pkgNS.take(name + enumConstName(v.name))
			w.doc("\t", consts[i], v.traits, "")
			if base == "string" {
				w.p("\t%s %s = %q", consts[i], name, v.value)
			} else {
				w.p("\t%s %s = %s", consts[i], name, v.value)
			}
		}
		w.p(")")
		w.p("")
	}
	w.p("// Values returns the values the model lists for %s, in model order.", name)
	w.p("func (%s) Values() []%s {", name, name)
	w.p("\treturn []%s{%s}", name, strings.Join(consts, ", "))
	w.p("}")
	w.p("")
}

func (g *gen) union(w *writer, s *model.Shape) {
	name := g.names[s.ID]
	w.doc("", name, s.Traits, fmt.Sprintf("is the union %s: one of the %sMember* types, or %sUnknown.", s.ID, name, name))
	w.p("type %s interface {", name)
	w.p("\tis%s()", name)
	w.p("}")
	w.p("")
	members := make([]string, len(s.Members))
	for i, mem := range s.Members {
		members[i] = g.pkgNS.take(name + "Member" + exportedName(mem.Name()))
		t := g.target(mem)
		plain := g.goType(t, false, modePlain)
		w.doc("", members[i], mem.Traits, fmt.Sprintf("is the %s member of %s.", mem.Name(), name))
		w.p("type %s struct {", members[i])
		w.p("\tValue %s", plain)
		w.p("}")
		w.p("")
		w.p("func (*%s) is%s() {}", members[i], name)
		w.p("")
		w.p("// MarshalJSON writes the union as an object with this one member.")
		w.p("func (v *%s) MarshalJSON() ([]byte, error) {", members[i])
		val := "v.Value"
		mt := g.goType(t, false, modeMarshal)
		if mt != plain {
			val = fmt.Sprintf("*(*%s)(unsafe.Pointer(&v.Value))", mt)
		}
		w.p("\treturn typed.JSON.Marshal(struct {")
		w.p("\t\tV %s `json:%q`", mt, mem.Name())
		w.p("\t}{%s})", val)
		w.p("}")
		w.p("")
	}
	unknown := g.pkgNS.take(name + "Unknown")
	w.p("// %s is a member of %s this client does not know (from a newer model): its", unknown, name)
	w.p("// name and its value in the document form.")
	w.p("type %s struct {", unknown)
	w.p("\tTag   string")
	w.p("\tValue typed.Document")
	w.p("}")
	w.p("")
	w.p("func (*%s) is%s() {}", unknown, name)
	w.p("")
	w.p("// MarshalJSON writes the union as an object with this one member.")
	w.p("func (v *%s) MarshalJSON() ([]byte, error) { return typed.MarshalUnionMember(v.Tag, v.Value) }", unknown)
	w.p("")
	w.p("// decode%s reads a %s from its document form (nil for null).", name, name)
	w.p("func decode%s(b []byte) (%s, error) {", name, name)
	w.p("\ttag, raw, err := typed.UnionMember(b)")
	w.p("\tif err != nil || tag == \"\" {")
	w.p("\t\treturn nil, err")
	w.p("\t}")
	if len(s.Members) > 0 {
		w.p("\tswitch tag {")
		for i, mem := range s.Members {
			t := g.target(mem)
			plain := g.goType(t, false, modePlain)
			ut := g.goType(t, false, modeUnmarshal)
			w.p("\tcase %q:", mem.Name())
			w.p("\t\tvar x %s", ut)
			w.p("\t\tif err := typed.JSON.Unmarshal(raw, &x); err != nil {")
			w.p("\t\t\treturn nil, fmt.Errorf(\"%s.%s: %%w\", err)", name, mem.Name())
			w.p("\t\t}")
			if ut != plain {
				w.p("\t\treturn &%s{Value: *(*%s)(unsafe.Pointer(&x))}, nil", members[i], plain)
			} else {
				w.p("\t\treturn &%s{Value: x}, nil", members[i])
			}
		}
		w.p("\t}")
	}
	w.p("\treturn &%s{Tag: tag, Value: typed.UnknownMember(raw)}, nil", unknown)
	w.p("}")
	w.p("")
	w.p("// box%s holds a %s where sonic needs a concrete type.", name, name)
	w.p("type box%s struct{ v %s }", name, name)
	w.p("")
	w.p("func (b box%s) MarshalJSON() ([]byte, error) {", name)
	w.p("\tif b.v == nil {")
	w.p("\t\treturn []byte(\"null\"), nil")
	w.p("\t}")
	w.p("\treturn typed.JSON.Marshal(b.v)")
	w.p("}")
	w.p("")
	w.p("func (b *box%s) UnmarshalJSON(d []byte) (err error) {", name)
	w.p("\tb.v, err = decode%s(d)", name)
	w.p("\treturn err")
	w.p("}")
	w.p("")
}

// OperationNames are the Go names of an operation in a generated package.
type OperationNames struct {
	Operation     string // the Smithy name
	Method        string // the Client's method
	Input, Output string // the types; "" for smithy.api#Unit (no parameter, no result)
}

// Names returns the Go names Generate gives the operations of svc, in the
// order of svc.Operations.
func Names(m *model.Model, svc *model.Service) []OperationNames {
	return newGen(m, svc).operationNames()
}

func newGen(m *model.Model, svc *model.Service) *gen {
	g := &gen{m: m, svc: svc, names: map[model.ShapeID]string{}, pkgNS: namespace{"Client": true, "New": true, "ServiceID": true}}
	g.collect()
	g.nameTypes()
	return g
}

func (g *gen) operationNames() []OperationNames {
	methods := namespace{"Close": true, "Untyped": true}
	out := make([]OperationNames, len(g.svc.Operations))
	for i, op := range g.svc.Operations {
		out[i] = OperationNames{Operation: op.Name, Method: methods.take(exportedName(op.Name))}
		if op.Input.ID != unitID {
			out[i].Input = g.names[op.Input.ID]
		}
		if op.Output.ID != unitID {
			out[i].Output = g.names[op.Output.ID]
		}
	}
	return out
}

// clientFile writes the Client, its operations and the error lookup.
func (g *gen) clientFile() ([]byte, error) {
	var w writer
	svcName := g.svc.Shape.ID
	w.p("//go:embed model.json")
	w.p("var modelJSON []byte")
	w.p("")
	w.p("// loadModel loads the embedded model once, on first use.")
	w.p("var loadModel = typed.NewModel(modelJSON)")
	w.p("")
	w.p("// ServiceID is the service this package calls.")
	w.p("const ServiceID model.ShapeID = %q", svcName)
	w.p("")
	paras := []string{fmt.Sprintf("Client calls the operations of %s. It is safe for concurrent use.", svcName)}
	if d, ok := g.svc.Shape.Trait(traitDoc); ok {
		paras = append(paras, paragraphs(d.Str())...)
	}
	w.comment("", paras...)
	w.p("type Client struct {")
	w.p("\tc *client.Client")
	w.p("}")
	w.p("")
	w.p("// New returns a client for the service at endpoint (\"https://host:port\").")
	w.p("// The options are those of the client package (auth, timeouts, retries...).")
	w.p("func New(endpoint string, options ...client.Option) (*Client, error) {")
	w.p("\tm, err := loadModel()")
	w.p("\tif err != nil {")
	w.p("\t\treturn nil, err")
	w.p("\t}")
	w.p("\tc, err := client.New(m, ServiceID, endpoint, options...)")
	w.p("\tif err != nil {")
	w.p("\t\treturn nil, err")
	w.p("\t}")
	w.p("\treturn &Client{c: c}, nil")
	w.p("}")
	w.p("")
	w.p("// Close releases the client's connections.")
	w.p("func (c *Client) Close() error { return c.c.Close() }")
	w.p("")
	w.p("// Untyped returns the client.Client the typed methods run on (Call with JSON).")
	w.p("func (c *Client) Untyped() *client.Client { return c.c }")
	w.p("")
	for i, names := range g.operationNames() {
		op := g.svc.Operations[i]
		method, in, out := names.Method, names.Input, names.Output
		w.doc("", method, op.Shape.Traits, fmt.Sprintf("calls %s.", op.Shape.ID))
		if len(op.Errors) > 0 {
			var names []string
			for _, e := range op.Errors {
				names = append(names, "*"+g.names[e.ID])
			}
			w.comment("", "", "Its modeled errors: "+strings.Join(names, ", ")+".")
		}
		params := "ctx context.Context"
		inArg := "nil"
		if in != "" {
			params += ", in *" + in
			inArg = "in"
		}
		params += ", opts ...client.CallOption"
		if out == "" {
			w.p("func (c *Client) %s(%s) error {", method, params)
			if in != "" {
				w.p("\tif in == nil {")
				w.p("\t\tin = new(%s)", in)
				w.p("\t}")
			}
			w.p("\treturn typed.Invoke(ctx, c.c, %q, %s, nil, errorFor, opts...)", op.Name, inArg)
			w.p("}")
			w.p("")
			continue
		}
		w.p("func (c *Client) %s(%s) (*%s, error) {", method, params, out)
		if in != "" {
			w.p("\tif in == nil {")
			w.p("\t\tin = new(%s)", in)
			w.p("\t}")
		}
		w.p("\tout := new(%s)", out)
		w.p("\tif err := typed.Invoke(ctx, c.c, %q, %s, out, errorFor, opts...); err != nil {", op.Name, inArg)
		w.p("\t\treturn nil, err")
		w.p("\t}")
		w.p("\treturn out, nil")
		w.p("}")
		w.p("")
	}
	w.p("// errorFor returns a new value of the error type of shape id, nil when none.")
	w.p("func errorFor(id model.ShapeID) typed.ModeledError {")
	w.p("\tswitch id {")
	for _, s := range g.shapes {
		if s.Type == model.StructureType && s.HasTrait(traitError) {
			w.p("\tcase %q:", s.ID)
			w.p("\t\treturn new(%s)", g.names[s.ID])
		}
	}
	w.p("\t}")
	w.p("\treturn nil")
	w.p("}")
	return w.file(g.pkg, "client.go", []string{"context", "_ embed", "github.com/smithycurl/smithycurl/client", "github.com/smithycurl/smithycurl/model"})
}

// importPath is the path of an import line "path" or "alias path".
func importPath(p string) string {
	if _, path, ok := strings.Cut(p, " "); ok {
		return path
	}
	return p
}

// writer builds a Go file.
type writer struct{ buf bytes.Buffer }

func (w *writer) p(format string, args ...any) {
	fmt.Fprintf(&w.buf, format, args...)
	w.buf.WriteByte('\n')
}

// doc writes name's doc comment from @documentation (else fallback) and
// @deprecated. Top-level comments start with the name.
func (w *writer) doc(indent, name string, ts model.Traits, fallback string) {
	var paras []string
	if d, ok := ts.Get(traitDoc); ok {
		paras = paragraphs(d.Str())
	}
	switch {
	case len(paras) == 0 && fallback != "":
		paras = []string{name + " " + fallback}
	case len(paras) > 0 && indent == "" && !strings.HasPrefix(paras[0], name+" "):
		paras[0] = name + ": " + paras[0]
	}
	if dep, ok := ts.Get(traitDeprecated); ok {
		msg := "deprecated by the model."
		if m, ok := dep.Get("message"); ok && m.Str() != "" {
			msg = plainText(m.Str())
		}
		if s, ok := dep.Get("since"); ok && s.Str() != "" {
			msg += " (since " + plainText(s.Str()) + ")"
		}
		paras = append(paras, "Deprecated: "+msg)
	}
	w.comment(indent, paras...)
}

// comment writes paragraphs as a comment, wrapped, a "//" line between them.
func (w *writer) comment(indent string, paras ...string) {
	for i, p := range paras {
		if i > 0 {
			w.p("%s//", indent)
		}
		for _, line := range wrap(p, 96) {
			w.p("%s// %s", indent, line)
		}
	}
}

// file adds the header and imports, and formats the source. Imports are
// added when the body uses them.
func (w *writer) file(pkg, name string, imports []string) ([]byte, error) {
	body := w.buf.String()
	var code strings.Builder // the body without its comments
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			code.WriteString(line)
			code.WriteByte('\n')
		}
	}
	uses := func(prefix string) bool { return strings.Contains(code.String(), prefix) }
	var imp []string
	imp = append(imp, imports...)
	for _, c := range []struct{ use, path string }{
		{"fmt.Errorf(", "fmt"}, {"big.Int", "math/big"}, {"time.Time", "time"}, {"unsafe.Pointer(", "unsafe"},
		{"typed.", runtimePkg},
	} {
		if uses(c.use) {
			imp = append(imp, c.path)
		}
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "// Code generated by smithycurl gen go. DO NOT EDIT.\n\n")
	if name == "client.go" {
		fmt.Fprintf(&out, "// Package %s is a typed client for a Smithy service, generated by\n// smithycurl gen go; it runs on github.com/smithycurl/smithycurl/client.\n", pkg)
	}
	fmt.Fprintf(&out, "package %s\n\nimport (\n", pkg)
	// The standard library first, then the rest, as goimports groups them.
	sort.Slice(imp, func(i, j int) bool {
		a, b := importPath(imp[i]), importPath(imp[j])
		if sa, sb := !strings.Contains(a, "."), !strings.Contains(b, "."); sa != sb {
			return sa
		}
		return a < b
	})
	for i, p := range imp {
		if i > 0 && strings.Contains(importPath(p), ".") && !strings.Contains(importPath(imp[i-1]), ".") {
			out.WriteString("\n")
		}
		if alias, path, ok := strings.Cut(p, " "); ok {
			fmt.Fprintf(&out, "\t%s %q\n", alias, path)
		} else {
			fmt.Fprintf(&out, "\t%q\n", p)
		}
	}
	out.WriteString(")\n\n")
	out.WriteString(body)
	src, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gen go: %s does not format (a bug): %w", name, err)
	}
	return src, nil
}
