package main

/*
#include "scx.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/jsonstr"
)

// result is a call's outcome. Its strings live in one C buffer: the output
// JSON (success), or the error's fields one after another, each followed by
// a NUL (failure).
type result struct {
	code, kind, status, attempts int
	buf                          unsafe.Pointer // C memory, freed by free
	outLen                       int
	off, len                     [numFields]int // error fields in buf
}

const (
	fShape = iota
	fMessage
	fMembers
	fCode
	fRequestID
	numFields
)

func (r *result) free() {
	C.free(r.buf)
	r.buf = nil
}

// newResult builds the result of a failed call; nil when out of memory.
func newErrorResult(code, kind, status, attempts int, fields [numFields]string) *result {
	r := &result{code: code, kind: kind, status: status, attempts: attempts}
	size := 0
	for _, f := range fields {
		size += len(f) + 1
	}
	p := C.scx_alloc(C.size_t(size))
	if p == nil {
		return nil
	}
	dst := unsafe.Slice((*byte)(p), size)
	at := 0
	for i, f := range fields {
		r.off[i], r.len[i] = at, len(f)
		at += copy(dst[at:], f)
		dst[at] = 0
		at++
	}
	r.buf = p
	return r
}

//export scx_call
func scx_call(ch C.uintptr_t, op *C.char, in *C.char, n C.size_t, tok C.uintptr_t, hints, threads C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	schedHints(int(hints), int(threads))
	cl, ok := lookup[*clientH](ch, C.SCX_CLIENT)
	if !ok {
		return codeInvalidHandle
	}
	ctx := context.Background()
	if tok != 0 {
		t, ok := lookup[*cancelH](tok, C.SCX_CANCEL)
		if !ok {
			return codeInvalidHandle
		}
		ctx = t.ctx
	}
	if op == nil || (in == nil && n > 0) {
		return codeInvalidArgument
	}
	r := call(ctx, cl.c, C.GoString(op), unsafe.Slice((*byte)(unsafe.Pointer(in)), int(n)))
	if r == nil {
		return codeNoMem
	}
	*out = register(C.SCX_RESULT, r)
	return C.int(r.code)
}

// call runs one call. input is C memory, read during the call only.
func call(ctx context.Context, c *client.Client, op string, input []byte) *result {
	if r := checkCall(c, op, input); r != nil {
		return r
	}
	output, err := c.Call(ctx, op, input)
	if err == nil {
		if len(output) == 0 {
			output = []byte("{}")
		}
		p, ok := cBytes(output)
		if !ok {
			return nil
		}
		// Every error field of a success is "": the NUL after the output.
		r := &result{code: codeOK, buf: unsafe.Pointer(p), outLen: len(output)}
		for i := range r.off {
			r.off[i] = len(output)
		}
		return r
	}
	return errorResult(err)
}

// usageResult is the result of a usage error found before calling.
func usageResult(code int, format string, args ...any) *result {
	return newErrorResult(code, int(client.KindUsage), 0, 0, [numFields]string{fMessage: fmt.Sprintf(format, args...)})
}

// checkCall returns the result of a call of op with input that cannot be
// made (the more precise codes of the C API), nil when it can.
func checkCall(c *client.Client, op string, input []byte) *result {
	usage := usageResult
	if !utf8.ValidString(op) {
		return usage(codeInvalidUTF8, "the operation name is not valid UTF-8")
	}
	if _, err := c.Service().Operation(op); err != nil {
		return usage(codeNotFound, "%v", err)
	}
	if !utf8.Valid(input) {
		return usage(codeInvalidUTF8, "%s: the input is not valid UTF-8 (at byte %d)", op, jsonstr.InvalidUTF8At(input))
	}
	if len(input) > 0 && !json.Valid(input) {
		var v any
		err := json.Unmarshal(input, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return usage(codeInvalidJSON, "%s: the input is not valid JSON: %v (at byte %d)", op, se, se.Offset)
		}
		return usage(codeInvalidJSON, "%s: the input is not valid JSON: %v", op, err)
	}
	return nil
}

// errorResult is the result of a failed call (nil when out of memory).
func errorResult(err error) *result {
	var ce *client.Error
	if !errors.As(err, &ce) {
		return usageResult(codeUsage, "%v", err)
	}
	return newErrorResult(codeOfKind(ce.Kind), int(ce.Kind), ce.Status, ce.Attempts, [numFields]string{
		fShape:     string(ce.Shape),
		fMessage:   ce.Message(),
		fMembers:   string(ce.Members),
		fCode:      ce.Code,
		fRequestID: ce.RequestID,
	})
}

//export scx_result_get
func scx_result_get(h C.uintptr_t, field C.int, s **C.char, n *C.size_t, num *C.longlong) (rc C.int) {
	defer guard(&rc)
	r, ok := lookup[*result](h, C.SCX_RESULT)
	if !ok {
		return codeInvalidHandle
	}
	str := func(i int) C.int {
		*s = (*C.char)(unsafe.Add(r.buf, r.off[i]))
		*n = C.size_t(r.len[i])
		return codeOK
	}
	switch field {
	case C.SCX_RES_CODE:
		*num = C.longlong(r.code)
	case C.SCX_RES_KIND:
		*num = C.longlong(r.kind)
	case C.SCX_RES_STATUS:
		*num = C.longlong(r.status)
	case C.SCX_RES_ATTEMPTS:
		*num = C.longlong(r.attempts)
	case C.SCX_RES_OUTPUT:
		if r.code != codeOK {
			return codeNoOutput
		}
		*s, *n = (*C.char)(r.buf), C.size_t(r.outLen)
	case C.SCX_RES_SHAPE:
		return str(fShape)
	case C.SCX_RES_MESSAGE:
		return str(fMessage)
	case C.SCX_RES_MEMBERS:
		return str(fMembers)
	case C.SCX_RES_ERROR_CODE:
		return str(fCode)
	case C.SCX_RES_REQUEST_ID:
		return str(fRequestID)
	default:
		return codeInvalidArgument
	}
	return codeOK
}
