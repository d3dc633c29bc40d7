package client

import (
	"io"
	"sync"
	"time"
)

// bodyPipe carries a streamed response body from libcurl's write callback
// (the transfer goroutine) to its reader. Unlike io.Pipe, a write copies
// into a bounded buffer and returns at once unless the buffer is full, so
// a burst of small events costs one wake-up of the reader, not one per
// write. At most max bytes (plus one write) are held.
type bodyPipe struct {
	mu       sync.Mutex
	readable sync.Cond
	writable sync.Cond
	buf      []byte
	off      int   // buf[off:] is unread
	werr     error // set when the writer is done: io.EOF or why the transfer failed
	rerr     error // set when the reader is done
	max      int
	// idle, when set, runs while the pipe waits for the network: it is
	// stopped while a write is under way or waits for room, and started
	// again (for idleFor) when a write has gone in.
	idle    *time.Timer
	idleFor time.Duration
}

func newBodyPipe(max int) *bodyPipe {
	p := &bodyPipe{max: max}
	p.readable.L, p.writable.L = &p.mu, &p.mu
	return p
}

// Write appends b, waiting while the buffer is full.
func (p *bodyPipe) Write(b []byte) (int, error) {
	if p.idle != nil {
		p.idle.Stop()
		defer p.idle.Reset(p.idleFor)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.rerr == nil && len(p.buf)-p.off > 0 && len(p.buf)-p.off+len(b) > p.max {
		p.writable.Wait()
	}
	if p.rerr != nil {
		return 0, p.rerr
	}
	if p.off > 0 && p.off == len(p.buf) {
		p.buf, p.off = p.buf[:0], 0
	} else if p.off > 0 && len(p.buf)+len(b) > cap(p.buf) {
		n := copy(p.buf, p.buf[p.off:])
		p.buf, p.off = p.buf[:n], 0
	}
	p.buf = append(p.buf, b...)
	p.readable.Signal()
	return len(b), nil
}

// Read returns buffered bytes, waiting for some; after the writer is done
// and the buffer drained, its error (io.EOF for a clean end).
func (p *bodyPipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.rerr == nil && p.werr == nil && p.off == len(p.buf) {
		p.readable.Wait()
	}
	if p.rerr != nil {
		return 0, p.rerr
	}
	if p.off < len(p.buf) {
		n := copy(b, p.buf[p.off:])
		p.off += n
		p.writable.Signal()
		return n, nil
	}
	return 0, p.werr
}

// CloseWrite ends the body: err, or io.EOF when nil.
func (p *bodyPipe) CloseWrite(err error) {
	if err == nil {
		err = io.EOF
	}
	p.mu.Lock()
	if p.werr == nil {
		p.werr = err
	}
	p.readable.Broadcast()
	p.mu.Unlock()
}

// CloseRead makes pending and later writes fail with err, and reads too.
func (p *bodyPipe) CloseRead(err error) {
	p.mu.Lock()
	if p.rerr == nil {
		p.rerr = err
	}
	p.buf, p.off = nil, 0
	p.writable.Broadcast()
	p.readable.Broadcast()
	p.mu.Unlock()
}
