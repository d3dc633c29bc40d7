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
	"io"
	"strings"
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
	mayHaveReached               bool
	buf                          unsafe.Pointer // C memory, freed by free
	outLen                       int
	off, len                     [numFields]int // error fields in buf
	payload                      *payloadBuffer // the output payload as bytes (payload.go); nil when none
	// The C buffers a call's output may be decoded into (outputBuffer),
	// until the call returns (takeOutput).
	outBufs [2]unsafe.Pointer
	nOut    int
	moreOut []unsafe.Pointer
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
	r.payload.free()
	r.payload = nil
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

// callTarget looks up the client of a call and the context of its cancel
// token (tok 0: none); ok is false when either handle is invalid.
func callTarget(ch, tok C.uintptr_t) (*clientH, context.Context, bool) {
	cl, ok := lookup[*clientH](ch, C.SCX_CLIENT)
	if !ok {
		return nil, nil, false
	}
	if tok == 0 {
		return cl, context.Background(), true
	}
	t, ok := lookup[*cancelH](tok, C.SCX_CANCEL)
	if !ok {
		return nil, nil, false
	}
	return cl, t.ctx, true
}

// startCall checks the arguments every synchronous call takes (after the
// scheduling hints): the client and its context, the operation's name and
// the input (C memory, read during the call only); rc is not codeOK when
// they are wrong.
func startCall(ch, tok C.uintptr_t, op, in *C.char, n C.size_t, hints, threads C.int) (cl *clientH, ctx context.Context, name string, input []byte, rc C.int) {
	schedHints(int(hints), int(threads))
	cl, ctx, ok := callTarget(ch, tok)
	if !ok {
		return nil, nil, "", nil, codeInvalidHandle
	}
	if op == nil || (in == nil && n > 0) {
		return nil, nil, "", nil, codeInvalidArgument
	}
	return cl, ctx, C.GoString(op), unsafe.Slice((*byte)(unsafe.Pointer(in)), int(n)), codeOK
}

// finishCall gives the caller the result handle of r (nil: out of memory)
// and returns its code.
func finishCall(r *result, out *C.uintptr_t) C.int {
	if r == nil {
		return codeNoMem
	}
	*out = register(C.SCX_RESULT, r)
	return C.int(r.code)
}

//export scx_call
func scx_call(ch C.uintptr_t, op *C.char, in *C.char, n C.size_t, tok C.uintptr_t, hints, threads C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	cl, ctx, name, input, rc := startCall(ch, tok, op, in, n, hints, threads)
	if rc != codeOK {
		return rc
	}
	return finishCall(call(ctx, cl.c, name, input), out)
}

//export scx_call_stream
func scx_call_stream(ch C.uintptr_t, op *C.char, in *C.char, n C.size_t, readFn, rewindFn, readUser C.uintptr_t, size C.longlong,
	writeFn, writeUser C.uintptr_t, tok C.uintptr_t, hints, threads C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	cl, ctx, name, input, rc := startCall(ch, tok, op, in, n, hints, threads)
	if rc != codeOK {
		return rc
	}
	var opts []client.CallOption
	if readFn != 0 {
		var r io.Reader = &cReader{fn: readFn, user: readUser}
		if rewindFn != 0 {
			r = &cRewinder{cReader: r.(*cReader), rewind: rewindFn}
		}
		opts = append(opts, client.WithBodyReader(r, int64(size)))
	}
	if writeFn != 0 {
		opts = append(opts, client.WithBodyWriter(&cWriter{fn: writeFn, user: writeUser}))
	}
	return finishCall(call(ctx, cl.c, name, input, opts...), out)
}

// cReader reads a request body from a smithycurl_read_fn.
type cReader struct {
	fn, user C.uintptr_t
	done     bool
	failed   bool // the callback failed: the call is over, never retried
}

var errReadCallback = errors.New("the read callback failed")

func (r *cReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	n := C.scx_read_invoke(r.fn, r.user, (*C.char)(unsafe.Pointer(unsafe.SliceData(p))), C.size_t(len(p)))
	switch {
	case n == 0:
		r.done = true
		return 0, io.EOF
	case n < 0 || int64(n) > int64(len(p)):
		r.failed = true
		return 0, errReadCallback
	}
	return int(n), nil
}

// cRewinder is a cReader with a smithycurl_rewind_fn: an io.Seeker whose
// positions count the bytes read since the call started (or the last
// rewind), and which seeks only back to 0 (where the client puts it
// before a new send).
type cRewinder struct {
	*cReader
	rewind C.uintptr_t
	pos    int64
}

func (r *cRewinder) Read(p []byte) (int, error) {
	n, err := r.cReader.Read(p)
	r.pos += int64(n)
	return n, err
}

func (r *cRewinder) Seek(offset int64, whence int) (int64, error) {
	switch {
	case whence == io.SeekCurrent && offset == 0:
		return r.pos, nil
	case whence == io.SeekStart && offset == 0:
		if r.failed { // it asked to stop: not a failure to send again
			return 0, errReadCallback
		}
		if C.scx_rewind_invoke(r.rewind, r.user) != 0 {
			return 0, errors.New("the rewind callback failed")
		}
		r.pos, r.done = 0, false
		return 0, nil
	}
	return 0, fmt.Errorf("a body read from a callback can only be rewound to its start (seek %d, %d)", offset, whence)
}

// cWriter writes a response body to a smithycurl_write_fn.
type cWriter struct{ fn, user C.uintptr_t }

func (w *cWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if C.scx_write_invoke(w.fn, w.user, (*C.char)(unsafe.Pointer(unsafe.SliceData(p))), C.size_t(len(p))) != 0 {
		return 0, errors.New("the write callback failed")
	}
	return len(p), nil
}

// call runs one call. input is C memory, read during the call only. Its
// text is the codec's to check, as it reads it (one pass over the input:
// refusedText names the fault), unless the client has interceptors, which
// are given the input before the codec and are owed valid JSON.
func call(ctx context.Context, c *client.Client, op string, input []byte, opts ...client.CallOption) *result {
	r := checkOperation(c, op)
	intercepted := c.Intercepted()
	if r == nil && intercepted {
		r = checkInput(op, input)
	}
	if r != nil {
		return r
	}
	out := &result{}  // its buffer the output's, when it is decoded into one
	if !intercepted { // interceptors may keep the output they are shown
		opts = append(opts, client.WithOutputBuffer(out.outputBuffer))
	}
	output, err := c.Call(ctx, op, input, opts...)
	p := out.takeOutput(output)
	if err != nil {
		if r := refusedText(op, input, err); r != nil {
			return r
		}
		return outcome(nil, err)
	}
	if p != nil {
		return success(out, p, output)
	}
	return outcome(output, nil)
}

// outputBuffer is C memory for an output of about size bytes, and its
// NUL (client.WithOutputBuffer: the output is decoded into it, and
// written once, where the caller reads it); nil when out of memory (the
// codec uses its own).
func (r *result) outputBuffer(size int) []byte {
	p := C.scx_alloc(C.size_t(size) + 1)
	if p == nil {
		return nil
	}
	if r.nOut < len(r.outBufs) {
		r.outBufs[r.nOut] = p
		r.nOut++
	} else {
		r.moreOut = append(r.moreOut, p)
	}
	return unsafe.Slice((*byte)(p), size)[:0]
}

// takeOutput returns the buffer of outputBuffer output was decoded into
// (nil: none) and frees the others.
func (r *result) takeOutput(output []byte) unsafe.Pointer {
	var kept unsafe.Pointer
	for _, p := range append(r.outBufs[:r.nOut], r.moreOut...) {
		if kept == nil && len(output) > 0 && unsafe.Pointer(unsafe.SliceData(output)) == p {
			kept = p
			continue
		}
		C.free(p)
	}
	r.outBufs, r.nOut, r.moreOut = [2]unsafe.Pointer{}, 0, nil
	return kept
}

// checkCall checks a call's operation and input before anything is sent;
// nil when they are fine.
func checkCall(c *client.Client, op string, input []byte) *result {
	if r := checkOperation(c, op); r != nil {
		return r
	}
	return checkInput(op, input)
}

// checkOperation checks the operation name of a call; nil when it is one
// of the client's service.
func checkOperation(c *client.Client, op string) *result {
	if !utf8.ValidString(op) {
		return usageResult(codeInvalidUTF8, "the operation name is not valid UTF-8")
	}
	if _, err := c.Service().Operation(op); err != nil {
		return usageResult(codeNotFound, "%v", err)
	}
	return nil
}

// refusedText is the result of a call for what (an operation or waiter
// name) that failed with err before anything was sent, when its input's
// text was at fault (not UTF-8: codeInvalidUTF8, not JSON:
// codeInvalidJSON); nil otherwise. The codec refused the text as it read
// it; this failure path alone reads it again to name the fault and where.
func refusedText(what string, input []byte, err error) *result {
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != client.KindUsage && ce.Kind != client.KindValidation {
		return nil
	}
	return checkInput(what, input)
}

// usageResult is the result of a call refused before it started.
func usageResult(code int, format string, args ...any) *result {
	return newErrorResult(code, int(client.KindUsage), 0, 0, [numFields]string{fMessage: fmt.Sprintf(format, args...)})
}

//export scx_result_new_input_error
func scx_result_new_input_error(code C.int, op, msg *C.char, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	if code == codeOK || op == nil || msg == nil {
		return codeInvalidArgument
	}
	name := C.GoString(op)
	if i := strings.LastIndexByte(name, '#'); i >= 0 {
		name = name[i+1:]
	}
	// A map key in the path is the caller's bytes: the message stays UTF-8.
	text := strings.ToValidUTF8(C.GoString(msg), "\uFFFD")
	r := usageResult(int(code), "input for %s: %s", strings.ToValidUTF8(name, "\uFFFD"), text)
	if r == nil {
		return codeNoMem
	}
	*out = register(C.SCX_RESULT, r)
	return codeOK
}

// checkInput returns the result refusing input (UTF-8, then JSON) for what
// (an operation or waiter name), or nil when it is fine.
func checkInput(what string, input []byte) *result {
	if code, msg := jsonProblem(what+": the input", input); code != codeOK {
		return usageResult(code, "%s", msg)
	}
	return nil
}

// jsonProblem is what makes text, JSON given as what, unusable: not
// UTF-8 (codeInvalidUTF8) or not JSON (codeInvalidJSON); codeOK when
// nothing does.
func jsonProblem(what string, text []byte) (int, string) {
	if msg := jsonstr.CheckText(text); msg != "" {
		return codeInvalidUTF8, fmt.Sprintf("%s is %s", what, msg)
	}
	if len(text) > 0 && !json.Valid(text) {
		var v any
		err := json.Unmarshal(text, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return codeInvalidJSON, fmt.Sprintf("%s is not valid JSON: %v (at byte %d)", what, se, se.Offset)
		}
		return codeInvalidJSON, fmt.Sprintf("%s is not valid JSON: %v", what, err)
	}
	return codeOK, ""
}

// outcome is the result of a call (or wait, or one event of a stream)
// that returned output or err; nil when out of memory.
func outcome(output []byte, err error) *result {
	if err == nil {
		if len(output) == 0 {
			output = []byte("{}")
		}
		p, ok := cBytes(output)
		if !ok {
			return nil
		}
		return success(&result{}, unsafe.Pointer(p), output)
	}
	var ce *client.Error
	if !errors.As(err, &ce) {
		return usageResult(codeUsage, "%v", err)
	}
	return errorOutcome(ce, ce.Message())
}

// success makes r the result of output, which lies at the start of p (C
// memory of at least len(output)+1 bytes, the result's from now on).
func success(r *result, p unsafe.Pointer, output []byte) *result {
	unsafe.Slice((*byte)(p), len(output)+1)[len(output)] = 0
	// Every error field of a success is "": the NUL after the output.
	r.code, r.buf, r.outLen = codeOK, p, len(output)
	for i := range r.off {
		r.off[i] = len(output)
	}
	return r
}

// errorOutcome is the result of a call that failed with ce, message its
// message.
func errorOutcome(ce *client.Error, message string) *result {
	r := newErrorResult(codeOfKind(ce.Kind), int(ce.Kind), ce.Status, ce.Attempts, [numFields]string{
		fShape:     string(ce.Shape),
		fMessage:   message,
		fMembers:   string(ce.Members),
		fCode:      ce.Code,
		fRequestID: ce.RequestID,
	})
	if r != nil {
		r.mayHaveReached = ce.MayHaveReached()
	}
	return r
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
	case C.SCX_RES_MAY_HAVE_REACHED:
		*num = 0
		if r.mayHaveReached {
			*num = 1
		}
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
