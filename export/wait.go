package main

/*
#include "scx.h"
*/
import "C"

import (
	"context"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
)

//export scx_wait
func scx_wait(ch C.uintptr_t, name *C.char, in *C.char, n C.size_t, maxWaitMs C.longlong, tok C.uintptr_t, hints, threads C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	schedHints(int(hints), int(threads))
	cl, ctx, ok := callTarget(ch, tok)
	if !ok {
		return codeInvalidHandle
	}
	if name == nil || (in == nil && n > 0) || maxWaitMs <= 0 {
		return codeInvalidArgument
	}
	r := wait(ctx, cl.c, C.GoString(name), unsafe.Slice((*byte)(unsafe.Pointer(in)), int(n)), time.Duration(maxWaitMs)*time.Millisecond)
	if r == nil {
		return codeNoMem
	}
	*out = register(C.SCX_RESULT, r)
	return C.int(r.code)
}

// wait runs one waiter. input is C memory, read during the wait only.
func wait(ctx context.Context, c *client.Client, name string, input []byte, maxWait time.Duration) *result {
	if !utf8.ValidString(name) {
		return usageResult(codeInvalidUTF8, "the waiter name is not valid UTF-8")
	}
	if _, err := c.Waiter(name); err != nil {
		return usageResult(codeNotFound, "%v", err)
	}
	if r := checkInput(name, input); r != nil {
		return r
	}
	output, err := c.Wait(ctx, name, input, maxWait)
	return outcome(output, err)
}
