package main

/*
#include "scx.h"
*/
import "C"

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// The return codes (codeOK, ...) are in contract.go, rendered from
// internal/contract.

// Handles are registry keys, never addresses: serial<<5 | type<<1 | 1 (four type bits).
// Serials are never reused, so a freed handle stays invalid forever, and
// the type bits catch a handle passed where another type is expected. The
// value is odd and tiny compared with any mapping, so C code that
// dereferences it by mistake faults at once instead of reading memory.
var (
	serial   atomic.Uint64
	shards   [16]shard
	handleOf = func(s uint64, typ C.int) uintptr { return uintptr(s<<5 | uint64(typ)<<1 | 1) }
)

type shard struct {
	sync.RWMutex
	m map[uintptr]any
}

func init() {
	for i := range shards {
		shards[i].m = map[uintptr]any{}
	}
}

func shardOf(h uintptr) *shard { return &shards[(h>>5)%uintptr(len(shards))] }

// register stores v and returns its new handle.
func register(typ C.int, v any) C.uintptr_t {
	h := handleOf(serial.Add(1), typ)
	s := shardOf(h)
	s.Lock()
	s.m[h] = v
	s.Unlock()
	return C.uintptr_t(h)
}

// lookup returns the value of handle h when it is live and of type typ.
func lookup[T any](h C.uintptr_t, typ C.int) (T, bool) {
	var zero T
	k := uintptr(h)
	if k&0x1f != uintptr(typ)<<1|1 {
		return zero, false
	}
	s := shardOf(k)
	s.RLock()
	v, ok := s.m[k]
	s.RUnlock()
	if !ok {
		return zero, false
	}
	t, ok := v.(T)
	return t, ok
}

// unregister removes handle h of type typ and returns its value.
func unregister(h C.uintptr_t, typ C.int) (any, bool) {
	k := uintptr(h)
	if k&0x1f != uintptr(typ)<<1|1 {
		return nil, false
	}
	s := shardOf(k)
	s.Lock()
	v, ok := s.m[k]
	delete(s.m, k)
	s.Unlock()
	return v, ok
}

// guard turns a panic into SMITHYCURL_E_INTERNAL; deferred by every export.
func guard(rc *C.int) {
	if r := recover(); r != nil {
		reportPanic(r)
		*rc = codeInternal
	}
}

// reportPanic prints a recovered panic and its stack to stderr.
func reportPanic(r any) {
	fmt.Fprintf(os.Stderr, "smithycurl: internal error (please report): %v\n%s", r, debug.Stack())
}

// errBox is the last failure message of a handle.
type errBox struct {
	mu  sync.Mutex
	msg string
}

func (b *errBox) set(msg string) {
	b.mu.Lock()
	b.msg = msg
	b.mu.Unlock()
}

func (b *errBox) get() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.msg
}

type hasErrBox interface{ box() *errBox }

func (b *errBox) box() *errBox { return b }

// fail records msg on b and returns code.
func fail(b *errBox, code C.int, format string, args ...any) C.int {
	b.set(fmt.Sprintf(format, args...))
	return code
}

// typResult is SCX_RESULT for tests (which cannot use cgo).
const typResult = C.SCX_RESULT
