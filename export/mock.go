package main

/*
#include "scx.h"
*/
import "C"

import (
	"errors"
	"net"
	"unsafe"

	"github.com/smithycurl/smithycurl/internal/mock"
)

// mockH is a smithycurl_mock: a running mock server (internal/mock, the server of serve.Start) and its URL, which C
// holds until smithycurl_mock_stop.
type mockH struct {
	r   *mock.Running
	url *C.char // malloc'd
}

// scx_mock_start starts a mock of a service of model mh; file and doc are
// the fixtures (either may be NULL), maxBody 0 the default bound.
//
//export scx_mock_start
func scx_mock_start(mh C.uintptr_t, svc, file, doc *C.char, seed, maxBody C.longlong, hasOut C.int,
	out *C.uintptr_t, url **C.char) (rc C.int) {
	defer guard(&rc)
	m, ok := lookup[*modelH](mh, C.SCX_MODEL)
	if !ok {
		return codeInvalidHandle
	}
	if hasOut == 0 {
		return fail(&m.errBox, codeInvalidArgument, "out must not be NULL")
	}
	if maxBody < 0 {
		return fail(&m.errBox, codeInvalidArgument, "max_body %d is negative (0: the default, 16 MiB)", int64(maxBody))
	}
	if svc != nil {
		if _, ok := goString(svc); !ok {
			return fail(&m.errBox, codeInvalidUTF8, "the service id is not valid UTF-8")
		}
	}
	s, err := findService(m.m, svc)
	if err != nil {
		return fail(&m.errBox, codeNotFound, "%v", err)
	}
	opts := []mock.Option{mock.WithSeed(int64(seed))}
	if maxBody > 0 {
		opts = append(opts, mock.WithMaxBody(int64(maxBody)))
	}
	if file != nil {
		path, ok := goString(file)
		if !ok {
			return fail(&m.errBox, codeInvalidUTF8, "the fixtures file's path is not valid UTF-8")
		}
		opts = append(opts, mock.WithFixturesFile(path))
	}
	if doc != nil {
		text := []byte(C.GoString(doc))
		if code, msg := jsonProblem("the fixtures JSON", text); code != codeOK {
			return fail(&m.errBox, C.int(code), "%s", msg)
		}
		opts = append(opts, mock.WithFixtures(text))
	}
	r, err := mock.Start(m.m, s, opts...)
	if err != nil {
		var oe *net.OpError // no port to listen on
		if errors.As(err, &oe) {
			return fail(&m.errBox, codeTransport, "%v", err)
		}
		return fail(&m.errBox, codeUsage, "%v", err)
	}
	u, ok := cBytes([]byte(r.URL))
	if !ok {
		_ = r.Stop()
		return codeNoMem
	}
	m.set("")
	*out = register(C.SCX_MOCK, &mockH{r: r, url: u})
	*url = u
	return codeOK
}

// scx_mock_stop stops a mock and frees its URL.
//
//export scx_mock_stop
func scx_mock_stop(h C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	v, ok := unregister(h, C.SCX_MOCK)
	if !ok {
		return codeInvalidHandle
	}
	mh := v.(*mockH)
	// Stopped either way: an error of the listener's end is nobody's to handle.
	_ = mh.r.Stop()
	C.free(unsafe.Pointer(mh.url))
	return codeOK
}
