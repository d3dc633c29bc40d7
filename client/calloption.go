package client

import (
	"context"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

// CallOption changes one call of Call (the typed clients' methods take
// them too). The client's own options stay as they are.
type CallOption interface{ applyCall(*callOptions) }

type callOptionFunc func(*callOptions)

func (f callOptionFunc) applyCall(o *callOptions) { f(o) }

type callOptions struct {
	timeout time.Duration
	header  wire.Header
}

// WithCallTimeout bounds this call, retries included, when it is shorter
// than the client's timeout (WithTimeout) or a ctx deadline.
func WithCallTimeout(d time.Duration) CallOption {
	return callOptionFunc(func(o *callOptions) { o.timeout = d })
}

// WithCallHeader adds a header to this call's request, unless the request
// sets it itself (a header bound to an input member wins).
func WithCallHeader(name, value string) CallOption {
	return callOptionFunc(func(o *callOptions) {
		if o.header == nil {
			o.header = wire.Header{}
		}
		o.header.Add(name, value)
	})
}

// applyCallOptions applies opts to ctx and returns the headers to add; the
// cancel func releases the per-call timeout.
func applyCallOptions(ctx context.Context, opts []CallOption) (context.Context, wire.Header, context.CancelFunc) {
	if len(opts) == 0 {
		return ctx, nil, func() {}
	}
	var o callOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applyCall(&o)
		}
	}
	cancel := context.CancelFunc(func() {})
	if o.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
	}
	return ctx, o.header, cancel
}
