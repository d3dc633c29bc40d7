package main

/*
#include "scx.h"
*/
import "C"

import (
	"time"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/sigv4"
)

//export scx_presign
func scx_presign(ch C.uintptr_t, op *C.char, in *C.char, n C.size_t, expiresS, signedAt C.longlong, hints, threads C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	schedHints(int(hints), int(threads))
	cl, ctx, ok := callTarget(ch, 0)
	if !ok {
		return codeInvalidHandle
	}
	if op == nil || (in == nil && n > 0) || signedAt < 0 {
		return codeInvalidArgument
	}
	input := unsafe.Slice((*byte)(unsafe.Pointer(in)), int(n))
	name := C.GoString(op)
	r := checkCall(cl.c, name, input)
	if r == nil {
		var opts []client.CallOption
		if signedAt > 0 {
			opts = append(opts, client.WithSigningTime(time.Unix(int64(signedAt), 0)))
		}
		if max := C.longlong(sigv4.MaxExpires / time.Second); expiresS < 1 || expiresS > max {
			r = usageResult(codeUsage, "presigning %s: the expiry %d s is not between 1 and %d (7 days)", name, int64(expiresS), int64(max))
		} else {
			var output []byte
			p, err := cl.c.Presign(ctx, name, input, time.Duration(expiresS)*time.Second, opts...)
			if err == nil {
				output, err = p.MarshalJSON()
			}
			r = outcome(output, err)
		}
	}
	if r == nil {
		return codeNoMem
	}
	*out = register(C.SCX_RESULT, r)
	return C.int(r.code)
}
