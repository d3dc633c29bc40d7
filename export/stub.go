package main

/*
#include "scx.h"
*/
import "C"

import (
	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/stub"
)

// stubberH is a smithycurl_stubber: a client/stub.Stubber on one client.
type stubberH struct {
	errBox
	s *stub.Stubber
	c *client.Client
}

func (h *stubberH) box() *errBox { return &h.errBox }

// fail keeps msg for smithycurl_stubber_errmsg and returns code.
func (h *stubberH) fail(code int, msg string) C.int {
	h.set(msg)
	return C.int(code)
}

//export scx_stubber_new
func scx_stubber_new(ch C.uintptr_t, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	cl, ok := lookup[*clientH](ch, C.SCX_CLIENT)
	if !ok {
		return codeInvalidHandle
	}
	s, err := stub.For(cl.c)
	if err != nil {
		return codeUsage
	}
	*out = register(C.SCX_STUBBER, &stubberH{s: s, c: cl.c})
	return codeOK
}

//export scx_stubber_activate
func scx_stubber_activate(h C.uintptr_t, on C.int) (rc C.int) {
	defer guard(&rc)
	sh, ok := lookup[*stubberH](h, C.SCX_STUBBER)
	if !ok {
		return codeInvalidHandle
	}
	if on == 0 {
		sh.s.Deactivate()
		return codeOK
	}
	if err := sh.s.Activate(); err != nil {
		return sh.fail(codeUsage, err.Error())
	}
	return codeOK
}

// scx_stubber_add queues an output (errShape NULL) or the modeled error
// errShape with doc as its members.
//
//export scx_stubber_add
func scx_stubber_add(h C.uintptr_t, op, doc, errShape *C.char, status C.int, expect *C.char) (rc C.int) {
	defer guard(&rc)
	sh, ok := lookup[*stubberH](h, C.SCX_STUBBER)
	if !ok {
		return codeInvalidHandle
	}
	if op == nil {
		return codeInvalidArgument
	}
	name, ok := goString(op)
	if !ok {
		return sh.fail(codeInvalidUTF8, "the operation name is not valid UTF-8")
	}
	if _, err := sh.c.Service().Operation(name); err != nil {
		return sh.fail(codeNotFound, err.Error())
	}
	var value []byte
	if doc != nil {
		value = []byte(C.GoString(doc))
	}
	if code, msg := jsonProblem("the stub of "+name, value); code != codeOK {
		return sh.fail(code, msg)
	}
	var opts []stub.AddOption
	if expect != nil {
		in := []byte(C.GoString(expect))
		if code, msg := jsonProblem("the expected input of "+name, in); code != codeOK {
			return sh.fail(code, msg)
		}
		opts = append(opts, stub.ExpectInput(in))
	}
	if status != 0 {
		opts = append(opts, stub.Status(int(status)))
	}
	var err error
	if errShape == nil {
		err = sh.s.Add(name, value, opts...)
	} else {
		err = sh.s.AddError(name, C.GoString(errShape), value, opts...)
	}
	if err != nil {
		return sh.fail(codeUsage, err.Error())
	}
	return codeOK
}

//export scx_stubber_pending
func scx_stubber_pending(h C.uintptr_t, count *C.size_t) (rc C.int) {
	defer guard(&rc)
	sh, ok := lookup[*stubberH](h, C.SCX_STUBBER)
	if !ok {
		return codeInvalidHandle
	}
	*count = C.size_t(sh.s.Pending())
	return codeOK
}

//export scx_stubber_done
func scx_stubber_done(h C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	sh, ok := lookup[*stubberH](h, C.SCX_STUBBER)
	if !ok {
		return codeInvalidHandle
	}
	if err := sh.s.Done(); err != nil {
		return sh.fail(codeUsage, err.Error())
	}
	return codeOK
}
