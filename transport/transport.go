// Package transport sends HTTP requests built by the protocol codecs and
// returns their responses. The default implementation, Curl, runs on
// libcurl (through github.com/andelf/go-curl plus a small C shim of ours
// for the hot path: callbacks, header lists, the perform loop and the
// share handle's locks): each call blocks an OS thread in libcurl. Engine
// runs many calls in flight on one libcurl multi handle and one thread;
// both prepare requests and read responses with the same code (call.go).
//
// Defaults (all finite, so that a call never hangs forever): connect
// timeout 10 s, total timeout 60 s (the ctx deadline shortens it), maximum
// response body 64 MiB, TLS peer and host verification on.
package transport

/*
#cgo pkg-config: libcurl
#cgo LDFLAGS: -lpthread
#include "shim.h"
*/
import "C"

import (
	"context"
	"errors"
	"unsafe"

	"github.com/smithycurl/smithycurl/wire"
)

// Transport sends one request and returns its full response. HTTP error
// statuses are responses, not errors; errors are *Error.
type Transport interface {
	Do(ctx context.Context, req *Request) (*wire.Response, error)
}

// ErrClosed is the cause of errors from a closed Transport.
var ErrClosed = errors.New("transport: closed")

var _ Transport = (*Curl)(nil)

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// copyC copies n bytes of C memory into buf's array when it has the room
// (Request.BodyBuffer, Request.Reuse), else into a new Go slice (never
// nil).
func copyC(p *C.char, n C.size_t, buf []byte) []byte {
	if n == 0 {
		if buf != nil {
			return buf[:0]
		}
		return []byte{}
	}
	if cap(buf) >= int(n) {
		buf = buf[:n]
		copy(buf, unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n)))
		return buf
	}
	// append, not make and copy: the new array is not zeroed first.
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))...)
}

func ctxKind(err error) Kind {
	if errors.Is(err, context.DeadlineExceeded) {
		return KindTimeout
	}
	return KindCancelled
}
