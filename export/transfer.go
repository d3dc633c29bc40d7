package main

/*
#include "scx.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/s3transfer"
)

// errProgressCancel is why a transfer stopped when its progress callback
// answered non-zero.
var errProgressCancel = errors.New("the progress callback cancelled the transfer")

// scx_s3_transfer runs a transfer of client/s3transfer (mode: SCX_XFER_*)
// of bucket/key from or into the file at path, or from the read callback
// fn (size bytes, -1 unknown) or into the write callback fn. Its
// callbacks run on the calling thread (see onCaller).
//
//export scx_s3_transfer
func scx_s3_transfer(ch C.uintptr_t, mode C.int, bucket, key, path *C.char, fn, user C.uintptr_t, size C.longlong,
	partSize, threshold C.longlong, concurrency C.int, progFn, progUser C.uintptr_t, tok C.uintptr_t, hints, threads C.int,
	out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	schedHints(int(hints), int(threads))
	cl, ctx, ok := callTarget(ch, tok)
	if !ok {
		return codeInvalidHandle
	}
	file := mode == C.SCX_XFER_UPLOAD_FILE || mode == C.SCX_XFER_DOWNLOAD_FILE
	if bucket == nil || key == nil || (file && path == nil) || (!file && fn == 0) || partSize < 0 || threshold < 0 || concurrency < 0 {
		return codeInvalidArgument
	}
	b, k := C.GoString(bucket), C.GoString(key)
	p := "-"
	if file {
		p = C.GoString(path)
	}
	var r *result
	switch {
	case !utf8.ValidString(b) || !utf8.ValidString(k):
		r = usageResult(codeInvalidUTF8, "s3 transfer: the bucket or key is not valid UTF-8")
	case b == "" || k == "" || p == "":
		r = usageResult(codeUsage, "s3 transfer: give a bucket, a key and a file (s3://%s/%s, %q)", b, k, p)
	default:
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		q := newOnCaller()
		opts := s3transfer.Options{PartSize: int64(partSize), Threshold: int64(threshold), Concurrency: int(concurrency)}
		if progFn != 0 {
			opts.Progress = func(done, total int64) {
				q.do(func() {
					if ctx.Err() != nil {
						return // cancelled: not called again
					}
					if C.scx_progress_invoke(progFn, progUser, C.longlong(done), C.longlong(total)) != 0 {
						cancel(errProgressCancel)
					}
				})
			}
		}
		var res any
		var err error
		q.run(func() {
			switch mode {
			case C.SCX_XFER_UPLOAD_FILE:
				res, err = s3transfer.UploadFile(ctx, cl.c, b, k, p, opts)
			case C.SCX_XFER_DOWNLOAD_FILE:
				res, err = s3transfer.DownloadFile(ctx, cl.c, b, k, p, opts)
			case C.SCX_XFER_UPLOAD:
				var src io.Reader = callerReader{q, &cReader{fn: fn, user: user}}
				if size >= 0 {
					src = sizedReader{src, int64(size)}
				}
				res, err = s3transfer.Upload(ctx, cl.c, b, k, src, opts)
			default:
				res, err = s3transfer.DownloadStream(ctx, cl.c, b, k, callerWriter{q, &cWriter{fn: fn, user: user}}, opts)
			}
		})
		var output []byte
		if err == nil {
			output, err = json.Marshal(res)
		}
		var ce *client.Error
		switch {
		case err != nil && ctx.Err() != nil:
			// Cancelled (the token or the progress callback), whichever part
			// or wait saw it first.
			r = newErrorResult(codeCancelled, int(client.KindCancelled), 0, 0, [numFields]string{fMessage: err.Error()})
		case errors.As(err, &ce):
			// The whole chain: which part or call failed, whether the
			// upload was aborted.
			r = errorOutcome(ce, err.Error())
		default:
			r = outcome(output, err)
		}
	}
	if r == nil {
		return codeNoMem
	}
	*out = register(C.SCX_RESULT, r)
	return C.int(r.code)
}

// onCaller runs the callbacks of a transfer on the goroutine that called
// into the library, which cgo keeps on the C caller's thread, one at a
// time, while the transfer itself runs on other goroutines: C and Python
// callers get their callbacks on their own thread.
type onCaller struct{ ch chan func() }

func newOnCaller() *onCaller { return &onCaller{ch: make(chan func())} }

// run runs work on a new goroutine and, until it returns, what it hands
// to do on this one.
func (q *onCaller) run(work func()) {
	fin := make(chan struct{})
	go func() {
		defer close(fin)
		work()
	}()
	for {
		select {
		case f := <-q.ch:
			f()
		case <-fin:
			return
		}
	}
}

// do runs f on run's goroutine and waits for it; only from work's
// goroutines, while run runs.
func (q *onCaller) do(f func()) {
	done := make(chan struct{})
	q.ch <- func() {
		defer close(done)
		f()
	}
	<-done
}

// callerReader reads r on the caller's thread.
type callerReader struct {
	q *onCaller
	r io.Reader
}

func (c callerReader) Read(p []byte) (n int, err error) {
	c.q.do(func() { n, err = c.r.Read(p) })
	return n, err
}

// sizedReader tells s3transfer the size of a stream (progress's total, the
// part size).
type sizedReader struct {
	io.Reader
	n int64
}

func (s sizedReader) Size() int64 { return s.n }

// callerWriter writes to w on the caller's thread.
type callerWriter struct {
	q *onCaller
	w io.Writer
}

func (c callerWriter) Write(p []byte) (n int, err error) {
	c.q.do(func() { n, err = c.w.Write(p) })
	return n, err
}
