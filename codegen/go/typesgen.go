package gogen

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

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
	if s.HasTrait(model.TraitError) {
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
	isErr := s.HasTrait(model.TraitError)
	fields := g.fieldNames(s)
	w.doc("", name, s.Traits, defaultDoc(s, isErr))
	w.p("type %s struct {", name)
	if isErr {
		w.p("\ttyped.ErrorMeta `json:\"-\"`")
	}
	for i, mem := range s.Members {
		if (i > 0 || isErr) && mem.Traits.Has(model.TraitDocumentation) {
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
	for _, v := range s.EnumValues() {
		name, value := v.Name, v.Value.Str()
		if v.Value.Kind() != model.StringNode {
			value = v.Value.Literal()
		}
		if name == "" {
			name = value
		}
		out = append(out, enumValue{name: name, value: value, traits: v.Traits})
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
	w.p("// name and its value in the document form. Sent back, it is refused naming the")
	w.p("// member path: its value was never decoded.")
	w.p("type %s struct {", unknown)
	w.p("\tTag   string")
	w.p("\tValue typed.Document")
	w.p("}")
	w.p("")
	w.p("func (*%s) is%s() {}", unknown, name)
	w.p("")
	w.p("// MarshalJSON writes the document form of an unknown member, {\"$unknown\": [Tag, Value]}.")
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
