package main

/*
#include "scx.h"
*/
import "C"

import (
	"bytes"
	"context"
	"errors"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
)

// Blob payloads as bytes (smithycurl_call_payload and its _async, _queued
// forms): the input's is sent from the caller's memory, the output's
// written into C memory that the result owns or hands over.

// payloadBuffer collects an output payload in C memory as it arrives.
type payloadBuffer struct {
	p      unsafe.Pointer // malloc'd; nil before the first byte
	n, cap int
}

var errPayloadMemory = errors.New("out of memory for the output payload")

func (b *payloadBuffer) Write(data []byte) (int, error) {
	if need := b.n + len(data); need > b.cap {
		c := max(need, 2*b.cap, 64<<10)
		p := C.realloc(b.p, C.size_t(c))
		if p == nil {
			return 0, errPayloadMemory
		}
		b.p, b.cap = p, c
	}
	copy(unsafe.Slice((*byte)(b.p), b.cap)[b.n:], data)
	b.n += len(data)
	return len(data), nil
}

// free releases the bytes; nil is fine.
func (b *payloadBuffer) free() {
	if b != nil {
		C.free(b.p)
		b.p = nil
	}
}

// payloadCall is what a payload call was given besides its input JSON.
type payloadCall struct {
	in    []byte // the input payload: C memory, or a Go copy
	hasIn bool
}

// newPayloadCall reads the payload arguments of a C entry point (mode:
// SCX_PAYLOAD_*), copying the input's bytes when asked.
func newPayloadCall(mode C.int, data unsafe.Pointer, n C.size_t) *payloadCall {
	pc := &payloadCall{hasIn: mode&C.SCX_PAYLOAD_IN != 0}
	if pc.hasIn {
		pc.in = unsafe.Slice((*byte)(data), int(n))
		if mode&C.SCX_PAYLOAD_COPY != 0 {
			pc.in = bytes.Clone(pc.in)
		}
	}
	return pc
}

// callPayload runs one call with its blob payloads as bytes: the input's
// is pc.in, the request body as it is (WithPayload: no copy, resent on a
// retry); the output's goes into a payloadBuffer the result keeps
// (success) or frees: a @streaming one written there as libcurl delivers
// it (WithBodyWriter, the one copy), another copied there once from the
// response (WithPayloadOutput).
func callPayload(ctx context.Context, c *client.Client, op string, input []byte, pc *payloadCall, opts ...client.CallOption) *result {
	if r := checkCall(c, op, input); r != nil {
		return r
	}
	_, streamOut, err := c.StreamingPayloads(op)
	if err != nil {
		return usageResult(codeNotFound, "%v", err)
	}
	_, blobOut, _ := c.BlobPayloads(op)
	if pc.hasIn {
		opts = append(opts, client.WithPayload(pc.in))
	}
	var buf *payloadBuffer
	var held []byte
	switch {
	case streamOut != "":
		buf = &payloadBuffer{}
		opts = append(opts, client.WithBodyWriter(buf))
	case blobOut != "":
		buf = &payloadBuffer{}
		opts = append(opts, client.WithPayloadOutput(&held))
	}
	output, err := c.Call(ctx, op, input, opts...)
	r := outcome(output, err)
	if r == nil || r.code != codeOK || buf == nil {
		buf.free()
		return r
	}
	if _, err := buf.Write(held); err != nil {
		buf.free()
		r.free()
		return nil
	}
	if buf.p == nil { // an empty payload: not NULL, which says "none"
		if buf.p = C.scx_alloc(0); buf.p == nil {
			r.free()
			return nil
		}
	}
	r.payload = buf
	return r
}

//export scx_call_payload
func scx_call_payload(ch C.uintptr_t, op *C.char, in *C.char, n C.size_t, mode C.int, data unsafe.Pointer, dataLen C.size_t,
	tok C.uintptr_t, hints, threads C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	cl, ctx, name, input, rc := startCall(ch, tok, op, in, n, hints, threads)
	if rc != codeOK {
		return rc
	}
	return finishCall(callPayload(ctx, cl.c, name, input, newPayloadCall(mode, data, dataLen)), out)
}

// scx_result_payload gives the output payload of result h (NULL, 0 when
// none); take hands it over to the caller.
//
//export scx_result_payload
func scx_result_payload(h C.uintptr_t, take C.int, data *unsafe.Pointer, n *C.size_t) (rc C.int) {
	defer guard(&rc)
	r, ok := lookup[*result](h, C.SCX_RESULT)
	if !ok {
		return codeInvalidHandle
	}
	if r.code != codeOK {
		return codeNoOutput
	}
	*data, *n = nil, 0
	if b := r.payload; b != nil {
		*data, *n = b.p, C.size_t(b.n)
		if take != 0 {
			r.payload = nil
		}
	}
	return codeOK
}
