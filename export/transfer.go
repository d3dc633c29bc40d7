package main

/*
#include "scx.h"
*/
import "C"

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/client/s3transfer"
)

// scx_s3_transfer uploads (up != 0) the file at path to bucket/key or
// downloads the object into it, through client/s3transfer.
//
//export scx_s3_transfer
func scx_s3_transfer(ch C.uintptr_t, up C.int, bucket, key, path *C.char, partSize, threshold C.longlong, concurrency C.int, tok C.uintptr_t, hints, threads C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	schedHints(int(hints), int(threads))
	cl, ctx, ok := callTarget(ch, tok)
	if !ok {
		return codeInvalidHandle
	}
	if bucket == nil || key == nil || path == nil || partSize < 0 || threshold < 0 || concurrency < 0 {
		return codeInvalidArgument
	}
	b, k, p := C.GoString(bucket), C.GoString(key), C.GoString(path)
	opts := s3transfer.Options{PartSize: int64(partSize), Threshold: int64(threshold), Concurrency: int(concurrency)}
	var r *result
	switch {
	case !utf8.ValidString(b) || !utf8.ValidString(k):
		r = usageResult(codeInvalidUTF8, "s3 transfer: the bucket or key is not valid UTF-8")
	case b == "" || k == "" || p == "":
		r = usageResult(codeUsage, "s3 transfer: give a bucket, a key and a file (s3://%s/%s, %q)", b, k, p)
	default:
		var res any
		var err error
		if up != 0 {
			res, err = s3transfer.UploadFile(ctx, cl.c, b, k, p, opts)
		} else {
			res, err = s3transfer.DownloadFile(ctx, cl.c, b, k, p, opts)
		}
		var output []byte
		if err == nil {
			output, err = json.Marshal(res)
		}
		r = outcome(output, err)
	}
	if r == nil {
		return codeNoMem
	}
	*out = register(C.SCX_RESULT, r)
	return C.int(r.code)
}
