package transport

/*
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime/cgo"
	"sync/atomic"
	"unsafe"

	curl "github.com/andelf/go-curl"
)

type handle struct {
	easy       *curl.CURL
	c          *C.sc_handle
	strs       []byte // scratch: URL, method and header lines, NUL-terminated
	cancelDone chan struct{}
	cancelFn   func()
	// The engine's (engine.go): ref is this handle's cgo.Handle, in
	// c.e_ref; done receives the completion of its call.
	ref  cgo.Handle
	done chan struct{}
	// busyAt is the handle's index in Curl.busy while it is in use (mu).
	busyAt int
}

// newHandle creates an easy handle with every per-handle option set.
func (t *Curl) newHandle() (*handle, error) {
	e := curl.EasyInit()
	if e == nil || e.GetHandle() == nil {
		return nil, errors.New("transport: curl_easy_init failed")
	}
	c := C.sc_new(e.GetHandle(), t.share)
	if c == nil {
		e.Cleanup()
		return nil, errors.New("transport: out of memory")
	}
	h := &handle{easy: e, c: c, cancelDone: make(chan struct{}, 1)}
	h.cancelFn = func() {
		C.sc_cancel(h.c)
		h.cancelDone <- struct{}{}
	}
	cfg := &t.cfg
	type opt struct {
		name string
		o    int
		v    any
	}
	httpVer := 4 // CURL_HTTP_VERSION_2TLS
	switch cfg.HTTPVersion {
	case HTTPVersion1:
		httpVer = 2 // CURL_HTTP_VERSION_1_1
	case HTTPVersion2PriorKnowledge:
		httpVer = 5 // CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
	}
	opts := []opt{
		{"NOSIGNAL", curl.OPT_NOSIGNAL, 1},
		{"ACCEPT_ENCODING", int(C.CURLOPT_ACCEPT_ENCODING), ""}, // every encoding libcurl was built with
		{"USERAGENT", curl.OPT_USERAGENT, cfg.UserAgent},
		{"HTTP_VERSION", curl.OPT_HTTP_VERSION, httpVer},
		{"TCP_KEEPALIVE", int(C.CURLOPT_TCP_KEEPALIVE), 1},
		{"TCP_NODELAY", int(C.CURLOPT_TCP_NODELAY), 1},
		{"FOLLOWLOCATION", curl.OPT_FOLLOWLOCATION, 0},
		// Paths are sent as the codec wrote them: "/b/../key" is S3's key
		// "../key" in bucket b, which libcurl would otherwise squash.
		{"PATH_AS_IS", int(C.CURLOPT_PATH_AS_IS), 1},
	}
	if cfg.HTTPVersion == HTTPVersion2PriorKnowledge && C.curl_version_info(C.CURLVERSION_NOW).version_num < 0x080000 {
		// libcurl < 8.0.0 fails the second request on a reused prior-
		// knowledge h2c connection ("Error in the HTTP2 framing layer",
		// curl/curl#10634, fixed in 8.0.0): one connection per call there.
		opts = append(opts, opt{"FORBID_REUSE", int(C.CURLOPT_FORBID_REUSE), 1})
	}
	if cfg.Verbose {
		opts = append(opts, opt{"VERBOSE", curl.OPT_VERBOSE, 1})
	}
	if cfg.CAFile != "" {
		opts = append(opts, opt{"CAINFO", curl.OPT_CAINFO, cfg.CAFile})
	}
	if cfg.ClientCertFile != "" {
		opts = append(opts,
			opt{"SSLCERT", curl.OPT_SSLCERT, cfg.ClientCertFile},
			opt{"SSLKEY", curl.OPT_SSLKEY, cfg.ClientKeyFile})
	}
	if cfg.InsecureSkipVerify {
		opts = append(opts, opt{"SSL_VERIFYPEER", curl.OPT_SSL_VERIFYPEER, 0}, opt{"SSL_VERIFYHOST", curl.OPT_SSL_VERIFYHOST, 0})
	}
	switch cfg.Proxy {
	case "":
	case "-":
		opts = append(opts, opt{"PROXY", curl.OPT_PROXY, ""})
	default:
		opts = append(opts, opt{"PROXY", curl.OPT_PROXY, cfg.Proxy})
	}
	if cfg.NoProxy != "" {
		opts = append(opts, opt{"NOPROXY", int(C.CURLOPT_NOPROXY), cfg.NoProxy})
	}
	for _, o := range opts {
		// go-curl copies strings into C memory it frees in Cleanup; these
		// are set once per handle, so nothing accumulates.
		if err := e.Setopt(o.o, o.v); err != nil {
			t.freeHandle(h)
			return nil, fmt.Errorf("transport: CURLOPT_%s: %w", o.name, err)
		}
	}
	liveHandles.Add(1)
	return h, nil
}

func (t *Curl) freeHandle(h *handle) {
	if h.ref != 0 {
		h.ref.Delete()
		h.ref = 0
	}
	C.sc_free(h.c)
	h.easy.Cleanup()
	h.c = nil
}

func (t *Curl) acquire() (*handle, error) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, ErrClosed
	}
	if n := len(t.idle); n > 0 {
		h := t.idle[n-1]
		t.idle[n-1] = nil
		t.idle = t.idle[:n-1]
		// Reset the cancel flag under the lock: a Close after this point
		// cancels the call.
		atomic.StoreInt32((*int32)(unsafe.Pointer(&h.c.cancel)), 0)
		t.addBusyLocked(h)
		t.mu.Unlock()
		return h, nil
	}
	t.live++
	t.mu.Unlock()
	h, err := t.newHandle()
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.live--
		t.maybeFreeShareLocked()
		return nil, err
	}
	t.addBusyLocked(h)
	if t.closed {
		C.sc_cancel(h.c)
	}
	return h, nil
}

// addBusyLocked puts h, acquired, on the busy handles (t.mu held).
func (t *Curl) addBusyLocked(h *handle) {
	h.busyAt = len(t.busy)
	t.busy = append(t.busy, h)
}

// removeBusyLocked takes h off the busy handles (t.mu held): the last one
// moves into its place. A handle not on them is left alone.
func (t *Curl) removeBusyLocked(h *handle) {
	if h.busyAt >= len(t.busy) || t.busy[h.busyAt] != h {
		return
	}
	last := len(t.busy) - 1
	moved := t.busy[last]
	t.busy[h.busyAt], moved.busyAt = moved, h.busyAt
	t.busy[last] = nil
	t.busy = t.busy[:last]
}

func (t *Curl) release(h *handle) { t.put(h, true) }

// put returns h to the idle handles, or frees it when keep is false, the
// pool is closed or full.
func (t *Curl) put(h *handle, keep bool) {
	t.mu.Lock()
	t.removeBusyLocked(h)
	if !keep || t.closed || len(t.idle) >= t.cfg.MaxIdleHandles {
		t.mu.Unlock()
		t.freeHandle(h)
		liveHandles.Add(-1)
		t.mu.Lock()
		// Counted out only now that the handle has left the share handle:
		// a count that reached 0 earlier let another release free the
		// share while this handle was still attached to it.
		t.live--
		t.maybeFreeShareLocked()
		t.mu.Unlock()
		return
	}
	t.idle = append(t.idle, h)
	t.mu.Unlock()
}

func (t *Curl) maybeFreeShareLocked() {
	if t.closed && t.live == 0 && t.share != nil {
		if C.sc_share_free(t.share) != 0 {
			shareInUse.Add(1)
		}
		t.share = nil
	}
}
