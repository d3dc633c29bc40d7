package transport

/*
#include <stddef.h>
#include <stdint.h>
#include "shim.h"

static long sc_response_code(sc_handle *h) {
	long status = 0;
	curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &status);
	return status;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"io"
	"runtime/cgo"
	"unsafe"

	"github.com/smithycurl/smithycurl/wire"
)

// stream is the state of one call's streamed bodies, reached from the C
// callbacks through a cgo.Handle: libcurl's read callback pulls the
// request body from r, its write callback pushes a 2xx response body to w.
type stream struct {
	r         io.Reader
	remaining int64 // bytes of r still to send; -1 when the size is unknown
	pending   error // an error r returned with data, reported on the next read
	w         io.Writer
	written   int64
	onStart   func(int, wire.Header) // Request.OnBodyStart
	c         *C.sc_handle           // for the status and headers at the first write
	err       error                  // the first failure of r or w, set before libcurl is told
	ended     bool                   // a duplex call got an error status: the body ends here
}

// curlVersion is the version of the libcurl in use (0x075801 for 7.88.1).
func curlVersion() int { return int(C.curl_version_info(C.CURLVERSION_NOW).version_num) }

// maxZeroReads bounds the reads that return neither data nor an error.
const maxZeroReads = 100

// ErrNoDataYet is what a duplex request body (Request.BodyReader that is
// a Waker: an input event stream, sent while the response is read)
// returns from Read when it has nothing to send yet but has not ended:
// the upload pauses (CURL_READFUNC_PAUSE) until the reader calls the wake
// function, while the response keeps arriving.
var ErrNoDataYet = errors.New("transport: no request body data yet")

// Waker is a request body that may return ErrNoDataYet. Do calls
// SetWake with the function that resumes the upload before sending, and
// SetWake(nil) when the call is over: the reader calls wake (from any
// goroutine) once data or its end is there, and never after SetWake(nil)
// has returned.
type Waker interface {
	SetWake(wake func())
}

//export scGoRead
func scGoRead(ref C.uintptr_t, buf *C.char, n C.size_t) (out C.size_t) {
	s := cgo.Handle(ref).Value().(*stream)
	defer func() {
		if r := recover(); r != nil { // never across the C frames
			s.err = fmt.Errorf("reading the request body: the reader panicked: %v", r)
			out = ^C.size_t(0)
		}
	}()
	if s.ended {
		return 0
	}
	p := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))
	if s.remaining >= 0 && int64(len(p)) > s.remaining {
		p = p[:s.remaining]
	}
	if len(p) == 0 {
		return 0
	}
	for zero := 0; ; zero++ {
		err := s.pending
		k := 0
		if err == nil {
			k, err = s.r.Read(p)
		}
		s.pending = nil
		if k == 0 && errors.Is(err, ErrNoDataYet) {
			return ^C.size_t(1) // (size_t)-2: pause the upload
		}
		if k > 0 {
			k = min(k, len(p))
			if s.remaining >= 0 {
				s.remaining -= int64(k)
			}
			if err != nil && !errors.Is(err, io.EOF) {
				s.pending = err
			}
			return C.size_t(k)
		}
		switch {
		case errors.Is(err, io.EOF):
			if s.remaining > 0 {
				s.err = fmt.Errorf("reading the request body: the reader ended %d bytes before the size given", s.remaining)
				return ^C.size_t(0)
			}
			return 0
		case err != nil:
			s.err = fmt.Errorf("reading the request body: %w", err)
			return ^C.size_t(0)
		case zero >= maxZeroReads:
			s.err = fmt.Errorf("reading the request body: %w", io.ErrNoProgress)
			return ^C.size_t(0)
		}
	}
}

// start calls onStart, once.
func (s *stream) start() {
	if s.onStart != nil {
		start := s.onStart
		s.onStart = nil
		hdr, _ := parseHeader(s.c.hdr.p, s.c.hdr.len)
		start(int(C.sc_response_code(s.c)), hdr)
	}
}

// scGoStart is called at the end of the final headers of a duplex
// call: a success starts the response (onStart), an error status ends the
// request body (the server has answered).
//
//export scGoStart
func scGoStart(ref C.uintptr_t, status C.int) {
	s := cgo.Handle(ref).Value().(*stream)
	defer func() {
		if r := recover(); r != nil { // never across the C frames
			s.err = fmt.Errorf("the response's start: panicked: %v", r)
		}
	}()
	if status < 200 || status > 299 {
		s.ended = true
		return
	}
	s.start()
}

//export scGoWrite
func scGoWrite(ref C.uintptr_t, buf *C.char, n C.size_t) (out C.size_t) {
	s := cgo.Handle(ref).Value().(*stream)
	defer func() {
		if r := recover(); r != nil {
			s.err = fmt.Errorf("writing the response body: the writer panicked: %v", r)
			out = 0
		}
	}()
	s.start()
	p := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))
	k, err := s.w.Write(p)
	if k > 0 {
		s.written += int64(min(k, len(p)))
	}
	if err == nil && k < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		s.err = fmt.Errorf("writing the response body: %w", err)
		return 0
	}
	return n
}
