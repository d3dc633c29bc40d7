package transport

/*
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"net/textproto"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Curl is the libcurl Transport. It is safe for concurrent use. Each call
// takes an easy handle from a pool (one goroutine per handle at a time),
// so sequential calls to the same host reuse one keep-alive connection.
// DNS cache and TLS sessions are shared between the handles.
type Curl struct {
	cfg       Config
	maxBody   int64
	connectMS int64
	totalMS   int64
	defaults  []defaultHeader
	defaultAE bool // a default header is Accept-Encoding

	share   unsafe.Pointer // CURLSH*
	yield   func()         // runtime.Gosched: Do's yield to the scheduler (sc_yield_due), the Engine loop's; tests count it
	waiting atomic.Int32   // Do calls blocked in libcurl (Waiting)

	mu     sync.Mutex
	idle   []*handle
	busy   []*handle // in use; handle.busyAt is each one's index (no map: a call adds and removes one)
	live   int
	closed bool
}

type defaultHeader struct {
	name  string   // canonical
	lines []string // "Name: value"
}

// New returns a libcurl transport.
func New(cfg Config) (*Curl, error) {
	if err := globalInit(); err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout < 0 || cfg.Timeout < 0 {
		return nil, errors.New("transport: negative timeout")
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxResponseBytes == 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.MaxIdleHandles <= 0 {
		cfg.MaxIdleHandles = max(8, 4*runtime.GOMAXPROCS(0))
	}
	if (cfg.ClientCertFile == "") != (cfg.ClientKeyFile == "") {
		return nil, errors.New("transport: ClientCertFile and ClientKeyFile go together")
	}
	if err := validText(cfg.UserAgent); err != nil {
		return nil, fmt.Errorf("transport: UserAgent: %w", err)
	}
	t := &Curl{
		cfg:       cfg,
		maxBody:   cfg.MaxResponseBytes,
		connectMS: ms(cfg.ConnectTimeout),
		totalMS:   ms(cfg.Timeout),
		yield:     runtime.Gosched,
	}
	if t.maxBody < 0 {
		t.maxBody = -1
	}
	for k, vs := range cfg.DefaultHeader {
		d := defaultHeader{name: textproto.CanonicalMIMEHeaderKey(k)}
		if err := validName(d.name); err != nil {
			return nil, fmt.Errorf("transport: DefaultHeader: %w", err)
		}
		for _, v := range vs {
			if err := validText(v); err != nil {
				return nil, fmt.Errorf("transport: DefaultHeader %s: %w", d.name, err)
			}
			line := appendHeader(nil, d.name, v)
			d.lines = append(d.lines, string(line[:len(line)-1]))
		}
		t.defaults = append(t.defaults, d)
		t.defaultAE = t.defaultAE || d.name == "Accept-Encoding"
	}
	t.share = C.sc_share_new()
	if t.share == nil {
		return nil, errors.New("transport: curl_share_init failed")
	}
	// Fail early on bad options (e.g. an unsupported HTTP version).
	h, err := t.newHandle()
	if err != nil {
		C.sc_share_free(t.share)
		return nil, err
	}
	t.mu.Lock()
	t.live++
	t.idle = append(t.idle, h)
	t.mu.Unlock()
	return t, nil
}

func ms(d time.Duration) int64 {
	m := d.Milliseconds()
	if m <= 0 && d > 0 {
		m = 1
	}
	return m
}

// Close cancels calls in flight (they fail with KindCancelled and cause
// ErrClosed), frees idle handles and closes their connections. Handles in
// use are freed as their calls return. Later calls fail with ErrClosed.
func (t *Curl) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	idle := t.idle
	t.idle = nil
	for _, h := range t.busy {
		C.sc_cancel(h.c)
	}
	t.mu.Unlock()
	for _, h := range idle {
		t.freeHandle(h)
		liveHandles.Add(-1)
	}
	t.mu.Lock()
	t.live -= len(idle) // after the handles left the share handle (see release)
	t.maybeFreeShareLocked()
	t.mu.Unlock()
	return nil
}

// Stats describes the handle pool.
type Stats struct {
	Live int // easy handles alive (idle + busy)
	Idle int
	Busy int
}

// Waiting is how many calls of Do are blocked in libcurl now, each holding
// an OS thread (and, for the runtime, a P in the system-call state): what
// a client weighs against GOMAXPROCS to send a call through an Engine
// instead. Lock-free.
func (t *Curl) Waiting() int { return int(t.waiting.Load()) }

// Stats returns the pool's current counts.
func (t *Curl) Stats() Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return Stats{Live: t.live, Idle: len(t.idle), Busy: len(t.busy)}
}
