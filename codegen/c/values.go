package cgen

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// The C statements that write, read and free one slot. x is the slot as an
// lvalue: the value itself, or for f.ptr the pointer to it.

// wr writes the slot x; NULL pointers and absent nullable values of sparse
// elements are written as null.
func wr(f *field, x string) string {
	if f.ptr {
		return fmt.Sprintf("if (!%s) { smithycurl_json_null(w); } else { %s }", x, wrVal(f, "(*"+x+")"))
	}
	if f.sparse {
		switch f.kind {
		case kBlob:
			return fmt.Sprintf("if (!%s.data) { smithycurl_json_null(w); } else { %s }", x, wrVal(f, x))
		case kList:
			return fmt.Sprintf("if (!%s.items) { smithycurl_json_null(w); } else { %s }", x, wrVal(f, x))
		case kMap:
			return fmt.Sprintf("if (!%s.keys) { smithycurl_json_null(w); } else { %s }", x, wrVal(f, x))
		}
	}
	return wrVal(f, x)
}

func wrVal(f *field, x string) string {
	switch f.kind {
	case kBool:
		return fmt.Sprintf("smithycurl_json_bool(w, %s);", x)
	case kI8, kI16, kI32, kI64:
		return fmt.Sprintf("smithycurl_json_int(w, (long long)%s);", x)
	case kF32:
		return fmt.Sprintf("smithycurl_json_float(w, %s);", x)
	case kF64:
		return fmt.Sprintf("smithycurl_json_double(w, %s);", x)
	case kTimestamp:
		return fmt.Sprintf("smithycurl_json_timestamp(w, %s);", x)
	case kEnum:
		return fmt.Sprintf("smithycurl_json_enum(w, %s__values, %d, (int)%s.value, %s.unknown);", f.t.name, len(f.t.values), x, x)
	case kIntEnum:
		return fmt.Sprintf("smithycurl_json_int_enum(w, %s__values, %d, (int)%s.value, %s.unknown);", f.t.name, len(f.t.numbers), x, x)
	case kString:
		return fmt.Sprintf("smithycurl_json_string(w, %s);", x)
	case kBigInt, kBigDec:
		return fmt.Sprintf("smithycurl_json_number_text(w, %s);", x)
	case kDocument:
		return fmt.Sprintf("smithycurl_json_raw(w, %s);", x)
	case kBlob:
		return fmt.Sprintf("smithycurl_json_blob(w, &%s);", x)
	case kUnit:
		return "smithycurl_json_begin_object(w); smithycurl_json_end_object(w);"
	}
	return fmt.Sprintf("%s__w(w, &%s);", f.t.name, x)
}

// rd reads the next value into slot x, setting rc (or returning
// SMITHYCURL_E_NOMEM).
func rd(f *field, x string) string {
	if !f.ptr {
		return rdVal(f, x)
	}
	alloc := fmt.Sprintf("%s = calloc(1, sizeof *%s);", x, x)
	if f.kind == kStruct || f.kind == kUnion {
		alloc = fmt.Sprintf("%s = %s_new();", x, f.t.name)
	}
	return fmt.Sprintf("if (!%s) { %s if (!%s) { return SMITHYCURL_E_NOMEM; } } %s", x, alloc, x, rdVal(f, "(*"+x+")"))
}

var intRange = map[kind][3]string{
	kI8: {"INT8_MIN", "INT8_MAX", "int8_t"}, kI16: {"INT16_MIN", "INT16_MAX", "int16_t"},
	kI32: {"INT32_MIN", "INT32_MAX", "int32_t"}, kI64: {"INT64_MIN", "INT64_MAX", "int64_t"},
}

func rdVal(f *field, x string) string {
	switch f.kind {
	case kBool:
		return fmt.Sprintf("rc = smithycurl_json_read_bool(r, &%s);", x)
	case kI8, kI16, kI32, kI64:
		ir := intRange[f.kind]
		return fmt.Sprintf("{ long long t_ = 0; rc = smithycurl_json_read_int(r, %s, %s, &t_); %s = (%s)t_; }", ir[0], ir[1], x, ir[2])
	case kF32:
		return fmt.Sprintf("{ double t_ = 0; rc = smithycurl_json_read_double(r, &t_); %s = (float)t_; }", x)
	case kF64:
		return fmt.Sprintf("rc = smithycurl_json_read_double(r, &%s);", x)
	case kTimestamp:
		return fmt.Sprintf("rc = smithycurl_json_read_timestamp(r, &%s);", x)
	case kEnum:
		return fmt.Sprintf("{ int t_ = 0; rc = smithycurl_json_read_enum(r, %s__values, %d, &t_, (char **)&%s.unknown); %s.value = (%s)t_; }",
			f.t.name, len(f.t.values), x, x, f.t.name)
	case kIntEnum:
		return fmt.Sprintf("{ int t_ = 0; long long u_ = 0; rc = smithycurl_json_read_int_enum(r, %s__values, %d, &t_, &u_); %s.value = (%s)t_; %s.unknown = (int32_t)u_; }",
			f.t.name, len(f.t.numbers), x, f.t.name, x)
	case kString:
		return fmt.Sprintf("rc = smithycurl_json_read_string(r, (char **)&%s);", x)
	case kBigInt, kBigDec:
		return fmt.Sprintf("rc = smithycurl_json_read_number_text(r, (char **)&%s);", x)
	case kDocument:
		return fmt.Sprintf("rc = smithycurl_json_read_raw(r, (char **)&%s);", x)
	case kBlob:
		return fmt.Sprintf("rc = smithycurl_json_read_blob(r, &%s);", x)
	case kUnit:
		return "rc = smithycurl_json_skip(r);"
	}
	return fmt.Sprintf("rc = %s__r(r, &%s);", f.t.name, x)
}

// clr frees what slot x owns ("" when nothing).
func clr(f *field, x string) string {
	if f.ptr {
		switch f.kind {
		case kStruct, kUnion:
			return fmt.Sprintf("%s_free(%s);", f.t.name, x)
		case kEnum:
			return fmt.Sprintf("if (%s) { free((void *)%s->unknown); } free(%s);", x, x, x)
		}
		return fmt.Sprintf("free(%s);", x)
	}
	switch f.kind {
	case kString, kBigInt, kBigDec, kDocument:
		return fmt.Sprintf("free((void *)%s);", x)
	case kBlob:
		return fmt.Sprintf("free(%s.data);", x)
	case kEnum:
		return fmt.Sprintf("free((void *)%s.unknown);", x)
	case kList, kMap, kStruct, kUnion:
		return fmt.Sprintf("%s_clear(&%s);", f.t.name, x)
	}
	return ""
}

// present is the C condition under which a structure member is written.
// Members with a default are left out when they hold it (absent means the
// default); required ones are always written.
func present(f *field, x string) string {
	if f.has != "" {
		return "v->" + f.has
	}
	if f.ptr || f.kind.charPtr() {
		return x
	}
	switch f.kind {
	case kBlob:
		return x + ".data"
	case kList:
		return x + ".items"
	case kMap:
		return x + ".keys"
	}
	if f.required || f.def == nil {
		return "1"
	}
	if c, ok := defaultIs(f, x, true); ok {
		return c
	}
	return "1"
}

// initDefault is the statement that sets slot x to its default ("" when
// none).
func initDefault(f *field, x string) string {
	if f.def == nil {
		return ""
	}
	s, ok := defaultIs(f, x, false)
	if !ok {
		return ""
	}
	return s
}

// defaultIs writes, for the default of f, either the condition "x differs
// from it" (differs) or the assignments that set it.
func defaultIs(f *field, x string, differs bool) (string, bool) {
	d := *f.def
	pick := func(lhs, rhs string) string {
		if differs {
			return fmt.Sprintf("%s != %s", lhs, rhs)
		}
		return fmt.Sprintf("%s = %s;", lhs, rhs)
	}
	switch f.kind {
	case kBool:
		if d.Kind() != model.BoolNode {
			return "", false
		}
		v := "0"
		if d.AsBool() {
			v = "1"
		}
		return pick(x, v), true
	case kI8, kI16, kI32, kI64:
		n, ok := d.Int64()
		if !ok {
			return "", false
		}
		lit := fmt.Sprintf("%d", n)
		if f.kind == kI64 {
			if n == -1<<63 {
				lit = "INT64_MIN"
			} else {
				lit = fmt.Sprintf("INT64_C(%d)", n)
			}
		}
		return pick(x, "("+intRange[f.kind][2]+")"+lit), true
	case kF32, kF64:
		lit := d.Literal()
		if lit == "" {
			return "", false
		}
		if !strings.ContainsAny(lit, ".eE") {
			lit += ".0"
		}
		if f.kind == kF32 {
			return pick(x, "(float)"+lit), true
		}
		return pick(x, lit), true
	case kEnum:
		for i, v := range f.t.values {
			if v == d.Str() {
				if differs {
					return fmt.Sprintf("(%s.value != %s || %s.unknown)", x, f.t.consts[i], x), true
				}
				return fmt.Sprintf("%s.value = %s;", x, f.t.consts[i]), true
			}
		}
	case kIntEnum:
		n, ok := d.Int64()
		for i, v := range f.t.numbers {
			if ok && v == n {
				return pick(x+".value", f.t.consts[i]), true
			}
		}
	case kTimestamp:
		sec, nsec := f.defTime.Unix(), f.defTime.Nanosecond()
		if differs {
			return fmt.Sprintf("(%s.seconds != %dLL || %s.nanos != %d)", x, sec, x, nsec), true
		}
		return fmt.Sprintf("%s.seconds = %dLL; %s.nanos = %d;", x, sec, x, nsec), true
	}
	return "", false
}
