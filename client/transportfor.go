package client

// Which transport a call takes: blocking, or the client's engine.

import (
	"runtime"

	"github.com/smithycurl/smithycurl/transport"
)

// transportFor returns the transport of a call: the engine when the call
// (ViaEngine) or the client (WithEngine) asks for it, or when as many of
// the client's calls as there are Ps (GOMAXPROCS, and at least two) are
// already under way (crowded); unless the client sends through a
// transport of the caller's (WithTransport). A crowded call takes the
// engine only when one of its transfer slots is free: it never waits in
// its queue.
//
// Each blocked call holds its P in the system-call state: with more of
// them than Ps, every call's P was taken by sysmon and handed to another
// thread, and the call waited for one when libcurl returned (issue 27:
// client.Call from 8 goroutines on 2 Ps, 1.3-1.4x the CPU of a libcurl
// loop through the engine, 2.3x blocking). Below that the blocking path
// is cheaper (no hand-off to the loop's goroutine). The C API's threads
// never get there: it keeps GOMAXPROCS above their number (export's
// sched.go), and a C thread waiting on a channel would cost more.
func (c *Client) transportFor(co callOptions) (transport.Transport, *Error) {
	if c.owned == nil {
		return c.transport, nil
	}
	asked := co.engine || c.opts.engine.all
	if !asked && !c.crowded() {
		return c.transport, nil
	}
	e, err := c.engineFor()
	switch {
	case err != nil && asked:
		return nil, err
	case err != nil || e == nil || (!asked && !e.HasSlot()):
		return c.transport, nil // nil e: closed, its calls fail as the engine's would
	}
	return e, nil
}

// engineFor returns the client's engine, made on first use; nil once the
// client is closed.
func (c *Client) engineFor() (*transport.Engine, *Error) {
	if e := c.engine.Load(); e != nil {
		return e, nil
	}
	c.engineMu.Lock()
	defer c.engineMu.Unlock()
	if e := c.engine.Load(); e != nil {
		return e, nil
	}
	if c.closed {
		return nil, nil
	}
	e, err := transport.NewEngine(c.tcfg, transport.EngineConfig{
		MaxTransfers: c.opts.engine.maxTransfers, MaxHostConnections: c.opts.engine.maxHostConnections})
	if err != nil {
		return nil, &Error{Kind: KindTransport, err: err}
	}
	c.engine.Store(e)
	return e, nil
}

// crowded says whether as many of the client's calls as there are Ps
// (and at least two) are under way in its transports: blocked in libcurl,
// or in the engine, where calls stay while that holds (see transportFor).
func (c *Client) crowded() bool {
	n := c.owned.Waiting()
	if e := c.engine.Load(); e != nil {
		n += e.Calls()
	}
	return n >= 2 && n >= runtime.GOMAXPROCS(0)
}

// MaxTransfers is the most requests the client's engine (ViaEngine,
// WithEngine) keeps on the wire at once: that of WithEngineLimits, or
// transport.DefaultMaxTransfers.
func (c *Client) MaxTransfers() int {
	if n := c.opts.engine.maxTransfers; n > 0 {
		return n
	}
	return transport.DefaultMaxTransfers
}
