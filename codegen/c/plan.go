// Package cgen writes a typed C client of one Smithy service (smithycurl gen
// c): NAME.h with a C type per shape the service reaches and one function
// per operation, and NAME.c, which turns the types into the document-form
// JSON that smithycurl_call takes and reads the output back, with the JSON
// runtime of libsmithycurl (smithycurl_json_* in include/smithycurl.h).
//
// Mapping (documented for users in the generated header):
//
//	structure          struct T; member structures and unions by pointer
//	union              struct T { T_tag tag; union {...} u; char *unknown, *unknown_value; }
//	list / set         struct T { E *items; size_t count; }   items NULL: absent
//	map                struct T { char **keys; V *values; size_t count; }
//	enum / intEnum     C enum T (T_UNKNOWN = 0) and T_value { value; unknown }
//	                   (an IDL 1.0 string with @enum too)
//	boolean, numbers   int, int8_t..int64_t, float, double (+ has_x when optional)
//	timestamp          smithycurl_timestamp (seconds, nanos)
//	blob               smithycurl_blob (data, len)
//	string, big*, document   const char * (UTF-8; decimal text; JSON text)
package cgen

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/model"
)

// kind is how a shape is represented in C.
type kind int

const (
	kBool kind = iota
	kI8
	kI16
	kI32
	kI64
	kF32
	kF64
	kTimestamp
	kEnum
	kIntEnum
	kString
	kBigInt
	kBigDec
	kDocument
	kBlob
	kList
	kMap
	kStruct
	kUnion
	kUnit
)

// scalar kinds are held by value and need a presence flag when optional.
func (k kind) scalar() bool { return k <= kIntEnum }

// nullable kinds have a NULL of their own (a pointer, or data/items NULL).
func (k kind) charPtr() bool { return k == kString || k == kBigInt || k == kBigDec || k == kDocument }

// named kinds get a generated C type.
func (k kind) named() bool {
	return k == kEnum || k == kIntEnum || k == kList || k == kMap || k == kStruct || k == kUnion
}

func kindOf(s *model.Shape) (kind, error) {
	switch s.Type {
	case model.BooleanType:
		return kBool, nil
	case model.ByteType:
		return kI8, nil
	case model.ShortType:
		return kI16, nil
	case model.IntegerType:
		return kI32, nil
	case model.LongType:
		return kI64, nil
	case model.FloatType:
		return kF32, nil
	case model.DoubleType:
		return kF64, nil
	case model.TimestampType:
		return kTimestamp, nil
	case model.EnumType:
		return kEnum, nil
	case model.IntEnumType:
		return kIntEnum, nil
	case model.StringType:
		if s.IsEnum() {
			return kEnum, nil // an IDL 1.0 @enum string: a C enum as an IDL 2.0 enum
		}
		return kString, nil
	case model.BigIntegerType:
		return kBigInt, nil
	case model.BigDecimalType:
		return kBigDec, nil
	case model.DocumentType:
		return kDocument, nil
	case model.BlobType:
		return kBlob, nil
	case model.ListType, model.SetType:
		return kList, nil
	case model.MapType:
		return kMap, nil
	case model.StructureType:
		if s.ID == model.UnitID {
			return kUnit, nil
		}
		return kStruct, nil
	case model.UnionType:
		return kUnion, nil
	}
	return 0, fmt.Errorf("%s: shapes of type %s cannot be a value", s.ID, s.Type)
}

// typ is a named C type of the client.
type typ struct {
	shape *model.Shape
	kind  kind
	name  string // C type name, e.g. todo_todo_item
	upper string // its constants' prefix, e.g. TODO_PRIORITY

	fields []*field // structure members, union variants
	elem   *field   // list element, map value
	sparse bool

	consts   []string // enum constants, in member order (after _UNKNOWN)
	values   []string // enum string values
	numbers  []int64  // intEnum values
	unknownC string   // T_UNKNOWN
}

// field is a member of a structure or union, or the element of a list or map.
type field struct {
	mem      *model.Member
	target   *model.Shape
	kind     kind
	t        *typ   // the target's type when kind.named()
	name     string // C member name
	has      string // presence flag ("" when none)
	constant string // union variant tag constant
	required bool
	def      *model.Node // default of a scalar member without presence flag
	defTime  time.Time   // def of a timestamp, as a time
	ptr      bool        // held as T* (structures and unions; sparse scalars)
	sparse   bool        // element of a sparse list or map
}

// plan is everything the generator decided: names, types, operations.
type plan struct {
	m       *model.Model
	svc     *model.Service
	prefix  string
	upper   string
	types   []*typ // in shape id order
	byID    map[model.ShapeID]*typ
	ops     []*opPlan
	errors  []*errPlan
	global  *scope
	errType string // prefix_error
	errNone string
	errElse string
	which   string
	// presigned is the presigned request's type; "" when the service has
	// no SigV4 (presign.go).
	presigned string
}

type opPlan struct {
	op     *model.Operation
	fn     string
	in     *typ // nil: no input
	out    *typ // nil: no output
	errors []*errPlan
	x      extras
	async  string // the asynchronous call; "" when none (async.go)
	done   string // its completion's type
	// presign is the presigner; "" when none (presign.go).
	presign string
}

type errPlan struct {
	t        *typ
	asFn     string
	constant string
}

func newPlan(m *model.Model, svc *model.Service, prefix string) (*plan, error) {
	p := &plan{m: m, svc: svc, prefix: prefix, upper: strings.ToUpper(prefix), byID: map[model.ShapeID]*typ{},
		global: newScope()}
	p.global.claim(p.upper+"_H", "")
	p.global.claim(p.upper+"_DEPRECATED", "")
	p.global.claim(prefix+"_", "_strndup", "_call", "_error_members", "_fail", "_async_ctx", "_call_async")
	p.errType = p.global.claim(prefix+"_error", "_which")
	p.which = p.errType + "_which"
	eu := strings.ToUpper(p.errType)
	p.errNone = p.global.claim(eu + "_NONE")
	p.errElse = p.global.claim(eu + "_OTHER")

	// The shapes the operations reach, in id order.
	seen := map[model.ShapeID]bool{}
	var walk func(s *model.Shape) error
	walk = func(s *model.Shape) error {
		if seen[s.ID] {
			return nil
		}
		seen[s.ID] = true
		k, err := kindOf(s)
		if err != nil {
			return err
		}
		if k.named() {
			p.byID[s.ID] = &typ{shape: s, kind: k}
		}
		if k == kEnum || k == kIntEnum {
			return nil
		}
		for _, mem := range s.Members {
			t, ok := m.Target(mem)
			if !ok {
				return fmt.Errorf("%s: target %s not found", mem.ID, mem.Target)
			}
			if err := walk(t); err != nil {
				return err
			}
		}
		return nil
	}
	for _, op := range svc.Operations {
		for _, s := range append([]*model.Shape{op.Input, op.Output}, op.Errors...) {
			if err := walk(s); err != nil {
				return nil, err
			}
		}
	}
	ids := make([]model.ShapeID, 0, len(p.byID))
	for id := range p.byID {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })

	// Operation names first (what users type most), then errors, then types.
	for _, op := range svc.Operations {
		p.ops = append(p.ops, &opPlan{op: op, fn: p.global.claim(prefix + "_" + Snake(op.Name))})
	}
	errByID := map[model.ShapeID]*errPlan{}
	var errIDs []model.ShapeID
	for _, op := range svc.Operations {
		ids := p.eventErrors(op)
		for _, e := range op.Errors {
			ids = append(ids, e.ID)
		}
		for _, id := range ids {
			if _, ok := errByID[id]; !ok {
				errByID[id] = &errPlan{}
				errIDs = append(errIDs, id)
			}
		}
	}
	sort.Slice(errIDs, func(i, j int) bool { return errIDs[i] < errIDs[j] })
	for _, id := range errIDs {
		e := errByID[id]
		e.asFn = p.global.claim(p.errType + "_as_" + Snake(id.Name()))
		e.constant = p.global.claim(eu + "_" + strings.ToUpper(Snake(id.Name())))
		p.errors = append(p.errors, e)
	}
	for _, id := range ids {
		t := p.byID[id]
		var suffixes []string
		switch t.kind {
		case kStruct, kUnion:
			suffixes = []string{"_init", "_clear", "_free", "_new", "__r", "__w", "_tag"}
		case kList, kMap:
			suffixes = []string{"_init", "_alloc", "_clear", "__r", "__w"}
		case kEnum, kIntEnum:
			suffixes = []string{"_value", "__values"}
		}
		t.name = p.global.claim(prefix+"_"+Snake(id.Name()), suffixes...)
		t.upper = strings.ToUpper(t.name)
		p.types = append(p.types, t)
	}
	for _, id := range errIDs {
		errByID[id].t = p.byID[id]
	}
	for _, op := range p.ops {
		op.in, op.out = p.byID[op.op.Input.ID], p.byID[op.op.Output.ID]
		for _, e := range op.op.Errors {
			op.errors = append(op.errors, errByID[e.ID])
		}
	}
	for _, t := range p.types {
		if err := p.fill(t); err != nil {
			return nil, err
		}
	}
	p.planExtras()
	p.planAsync()
	p.planPresign()
	return p, nil
}

// fill decides the members, elements and constants of t.
func (p *plan) fill(t *typ) error {
	s := t.shape
	switch t.kind {
	case kEnum, kIntEnum:
		t.unknownC = p.global.claim(t.upper + "_UNKNOWN")
		for _, ev := range s.EnumValues() {
			name := ev.Name
			if name == "" {
				name = ev.Value.Str() // an unnamed IDL 1.0 value: "t2.micro" is T2_MICRO
			}
			t.consts = append(t.consts, p.global.claim(t.upper+"_"+strings.ToUpper(Snake(name))))
			if t.kind == kEnum {
				t.values = append(t.values, ev.Value.Str())
				continue
			}
			n, isInt := ev.Value.Int64()
			if !isInt {
				return fmt.Errorf("%s$%s: intEnum member without an integer value", s.ID, ev.Name)
			}
			t.numbers = append(t.numbers, n)
		}
	case kList, kMap:
		t.sparse = s.HasTrait(model.TraitSparse)
		name := "member"
		if t.kind == kMap {
			name = "value"
		}
		mem, ok := s.Member(name)
		if !ok {
			return fmt.Errorf("%s: no %s member", s.ID, name)
		}
		f, err := p.newField(mem)
		if err != nil {
			return err
		}
		f.sparse = t.sparse
		f.ptr = t.sparse && (f.kind.scalar() || f.kind == kStruct || f.kind == kUnion)
		if f.kind == kUnit {
			return fmt.Errorf("%s: a list or map of smithy.api#Unit cannot be represented", s.ID)
		}
		t.elem = f
	case kStruct, kUnion:
		local := newScope()
		local.claim("unused_")
		if t.kind == kUnion {
			// Variants live in `u`; tag and unknown sit beside it.
			t.unknownC = p.global.claim(t.upper + "_UNKNOWN")
		}
		for _, mem := range s.Members {
			f, err := p.newField(mem)
			if err != nil {
				return err
			}
			f.name = local.claim(safeField(Snake(mem.Name())))
			f.ptr = f.kind == kStruct || f.kind == kUnion
			if t.kind == kUnion {
				f.constant = p.global.claim(t.upper + "_" + strings.ToUpper(Snake(mem.Name())))
			} else {
				f.required = mem.Traits.Has(model.TraitRequired)
				d, hasDef := mem.Traits.Get(model.TraitDefault)
				hasDef = hasDef && !d.IsNull()
				optional := !(f.required || hasDef) || mem.Traits.Has(model.TraitClientOptional)
				if f.kind.scalar() && !optional && hasDef {
					dd := d
					f.def = &dd
					if f.kind == kTimestamp {
						tt, _, err := p.m.TimestampDefault(mem)
						if err != nil {
							return err
						}
						f.defTime = tt
					}
				}
				if f.kind.scalar() && optional {
					f.has = "+" // named below, once every member has its name
				}
			}
			t.fields = append(t.fields, f)
		}
		for _, f := range t.fields {
			if f.has != "" {
				f.has = local.claim("has_" + f.name)
			}
		}
	}
	return nil
}

func (p *plan) newField(mem *model.Member) (*field, error) {
	target, ok := p.m.Target(mem)
	if !ok {
		return nil, fmt.Errorf("%s: target %s not found", mem.ID, mem.Target)
	}
	k, err := kindOf(target)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mem.ID, err)
	}
	return &field{mem: mem, target: target, kind: k, t: p.byID[target.ID]}, nil
}

// ctype is the C type of a value of kind k (embedded, not through a pointer).
func ctype(k kind, t *typ) string {
	switch k {
	case kBool:
		return "int"
	case kI8:
		return "int8_t"
	case kI16:
		return "int16_t"
	case kI32:
		return "int32_t"
	case kI64:
		return "int64_t"
	case kF32:
		return "float"
	case kF64:
		return "double"
	case kTimestamp:
		return "smithycurl_timestamp"
	case kEnum, kIntEnum:
		return t.name + "_value"
	case kString, kBigInt, kBigDec, kDocument:
		return "const char *" // a literal can be assigned; an output's is malloc'ed and freed by _free
	case kBlob:
		return "smithycurl_blob"
	}
	return t.name
}

// decl declares a slot named name holding f ("int32_t limit", "char *title",
// "todo_pizza *pizza").
func (f *field) decl(name string) string {
	ct := ctype(f.kind, f.t)
	if f.ptr {
		ct += " *"
	}
	if strings.HasSuffix(ct, "*") {
		return ct + name
	}
	return ct + " " + name
}
