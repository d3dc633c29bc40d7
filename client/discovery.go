package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/transport"
)

// Endpoint discovery (aws.api#clientEndpointDiscovery), as botocore's
// discovery.py and aws-sdk-go-v2's endpoint-discovery do: an operation
// with aws.api#clientDiscoveredEndpoint is sent to an address the
// service's discovery operation (DescribeEndpoints) returns, through the
// client's own calls, cached per access key id (and per operation and
// its aws.api#clientEndpointDiscoveryId members when it has some) for the
// CachePeriodInMinutes of the answer; the service's discovery error
// (InvalidEndpointException) or a 421 drops the entry and sends the call
// once more to a fresh address.

// The traits of endpoint discovery.
const (
	traitEndpointDiscovery   model.ShapeID = "aws.api#clientEndpointDiscovery"
	traitDiscoveredEndpoint  model.ShapeID = "aws.api#clientDiscoveredEndpoint"
	traitEndpointDiscoveryID model.ShapeID = "aws.api#clientEndpointDiscoveryId"
)

// EndpointDiscovery says which operations discover their endpoint.
type EndpointDiscovery string

// The endpoint discovery modes (botocore's endpoint_discovery_enabled).
const (
	// EndpointDiscoveryAuto: the operations that require it (the default).
	EndpointDiscoveryAuto EndpointDiscovery = "auto"
	// EndpointDiscoveryEnabled: every operation that supports it.
	EndpointDiscoveryEnabled EndpointDiscovery = "true"
	// EndpointDiscoveryDisabled: none; an operation that requires it
	// fails (KindUsage).
	EndpointDiscoveryDisabled EndpointDiscovery = "false"
)

// WithEndpointDiscovery sets which operations of a service with
// aws.api#clientEndpointDiscovery discover their endpoint (default: the
// AWS settings' AWS_ENABLE_ENDPOINT_DISCOVERY, endpoint_discovery_enabled,
// else EndpointDiscoveryAuto). An endpoint given to New turns discovery
// off, as in botocore: the calls go there (an endpoint from the AWS
// settings does not: DescribeEndpoints goes there).
func WithEndpointDiscovery(mode EndpointDiscovery) Option {
	return optionFunc(func(o *options) { o.discovery = mode })
}

// discoveryRetryAfter is how long a failed discovery is not tried again
// while a stale or the default endpoint serves (botocore: 60 s).
const discoveryRetryAfter = time.Minute

// discovery is a client's endpoint discovery.
type discovery struct {
	op      *model.Operation // the discovery operation
	errName string           // the error that says an address is no longer valid
	mode    EndpointDiscovery
	now     func() time.Time

	mu    sync.Mutex
	cache map[string]*discovered
}

// discovered is what one cache key's discovery found.
type discovered struct {
	mu          sync.Mutex // one discovery at a time
	addrs       []discoveredAddr
	failedUntil time.Time
}

type discoveredAddr struct {
	scheme, host string
	expires      time.Time
}

// newDiscovery returns svc's endpoint discovery in mode ("" for auto), or
// nil when svc has none or explicit (an endpoint given to New) turns it
// off.
func newDiscovery(svc *model.Service, mode EndpointDiscovery, explicit bool) (*discovery, error) {
	switch mode {
	case "":
		mode = EndpointDiscoveryAuto
	case EndpointDiscoveryAuto, EndpointDiscoveryEnabled, EndpointDiscoveryDisabled:
	default:
		return nil, fmt.Errorf("endpoint discovery %q: want %q, %q or %q", mode, EndpointDiscoveryAuto, EndpointDiscoveryEnabled, EndpointDiscoveryDisabled)
	}
	t, ok := svc.Shape.Trait(traitEndpointDiscovery)
	if !ok || explicit {
		return nil, nil
	}
	opID, _ := t.Get("operation")
	op, err := svc.Operation(model.ShapeID(opID.Str()).Name())
	if err != nil {
		return nil, fmt.Errorf("%s: its discovery operation: %w", traitEndpointDiscovery, err)
	}
	d := &discovery{op: op, mode: mode, now: time.Now, cache: map[string]*discovered{}}
	if e, ok := t.Get("error"); ok {
		d.errName = model.ShapeID(e.Str()).Name()
	}
	return d, nil
}

// discoveredCall is a call sent to a discovered address.
type discoveredCall struct {
	key      string
	required bool
	ids      map[string]string
}

// discoverEndpoint sends req, the request of op with input, to its
// discovered address when op discovers its endpoint: nil when it does not
// (or discovery failed for an optional one).
func (c *Client) discoverEndpoint(ctx context.Context, op *model.Operation, input []byte, req *transport.Request) (*discoveredCall, *Error) {
	d := c.discovery
	if d == nil {
		return nil, nil
	}
	t, ok := op.Shape.Trait(traitDiscoveredEndpoint)
	if !ok {
		return nil, nil
	}
	r, _ := t.Get("required")
	call := &discoveredCall{required: r.AsBool()}
	switch {
	case d.mode == EndpointDiscoveryDisabled && call.required:
		return nil, usageError(op.Shape.ID, "operation %s requires endpoint discovery, which is turned off (WithEndpointDiscovery, AWS_ENABLE_ENDPOINT_DISCOVERY, endpoint_discovery_enabled)", op.Name)
	case d.mode == EndpointDiscoveryDisabled, d.mode == EndpointDiscoveryAuto && !call.required:
		return nil, nil
	}
	var err error
	if call.ids, err = discoveryIDs(c.model, op, input); err != nil {
		return nil, usageError(op.Shape.ID, "endpoint discovery: %v", err)
	}
	call.key = c.discoveryKey(ctx, op, call.ids)
	if e := c.sendToDiscovered(ctx, op, call, req); e != nil {
		return nil, e
	}
	return call, nil
}

// sendToDiscovered points req at the address discovered for call.
func (c *Client) sendToDiscovered(ctx context.Context, op *model.Operation, call *discoveredCall, req *transport.Request) *Error {
	u, err := url.Parse(req.URL)
	if err != nil {
		return usageError(op.Shape.ID, "endpoint discovery: %v", err)
	}
	addr, err := c.discovery.address(ctx, c, op, call, u.Scheme)
	if err != nil {
		return &Error{Kind: KindUsage, Operation: op.Shape.ID, err: err}
	}
	if addr != nil {
		u.Scheme, u.Host = addr.scheme, addr.host
		req.URL = u.String()
	}
	return nil
}

// discoveryKey is the cache key of a call: the access key id of the
// client's AWS credentials (none without), then op and its discovery ids
// when it has some (botocore sends and keys Operation and Identifiers
// only then).
func (c *Client) discoveryKey(ctx context.Context, op *model.Operation, ids map[string]string) string {
	var b strings.Builder
	if c.creds.aws != nil {
		if id, err := c.creds.aws.Retrieve(ctx); err == nil {
			b.WriteString(id.AccessKeyID)
		}
	}
	if len(ids) > 0 {
		b.WriteString("\x00" + op.Name)
		keys := make([]string, 0, len(ids))
		for k := range ids {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			b.WriteString("\x00" + k + "=" + ids[k])
		}
	}
	return b.String()
}

// discoveryIDs are the values of op's top-level members with
// aws.api#clientEndpointDiscoveryId in input.
func discoveryIDs(m *model.Model, op *model.Operation, input []byte) (map[string]string, error) {
	var names map[string]bool
	for _, mem := range op.Input.Members {
		if _, ok := m.MemberTrait(mem, traitEndpointDiscoveryID); ok {
			if names == nil {
				names = map[string]bool{}
			}
			names[mem.Name()] = true
		}
	}
	if names == nil || len(input) == 0 {
		return nil, nil
	}
	ids := map[string]string{}
	var bad error
	err := protocol.Members(input, func(name string, raw []byte) bool {
		if names[name] {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				bad = fmt.Errorf("member %s: the discovery id must be a string", name)
				return false
			}
			ids[name] = s
		}
		return true
	})
	return ids, errors.Join(err, bad)
}

// address returns the address for call, discovering it when the cache
// has none alive, as botocore: a stale one while discovery fails (and is
// not retried for a minute); none for an optional call discovery failed
// for (the endpoint as resolved serves it); an error for a required one.
func (d *discovery) address(ctx context.Context, c *Client, op *model.Operation, call *discoveredCall, scheme string) (*discoveredAddr, error) {
	d.mu.Lock()
	e := d.cache[call.key]
	if e == nil {
		e = &discovered{}
		d.cache[call.key] = e
	}
	d.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	now := d.now()
	for i := range e.addrs {
		if now.Before(e.addrs[i].expires) {
			return &e.addrs[i], nil
		}
	}
	recentlyFailed := now.Before(e.failedUntil)
	err := errDiscoveryFailedRecently
	if !recentlyFailed {
		if err = d.refresh(ctx, c, op, call, e, scheme); err == nil {
			return &e.addrs[0], nil
		}
	}
	if len(e.addrs) > 0 {
		return &e.addrs[0], nil // stale, while discovery fails
	}
	if !call.required {
		return nil, nil
	}
	if recentlyFailed { // not tried yet: a required call tries
		if err = d.refresh(ctx, c, op, call, e, scheme); err == nil {
			return &e.addrs[0], nil
		}
	}
	return nil, fmt.Errorf("operation %s requires endpoint discovery, and %s failed: %w", op.Name, d.op.Name, err)
}

var errDiscoveryFailedRecently = errors.New("it failed less than a minute ago")

// refresh calls the discovery operation for call and keeps its answer in
// e (the failure time when it fails).
func (d *discovery) refresh(ctx context.Context, c *Client, op *model.Operation, call *discoveredCall, e *discovered, scheme string) error {
	input := []byte("{}")
	if len(call.ids) > 0 {
		if _, ok := d.op.Input.Member("Identifiers"); ok {
			in := map[string]any{"Identifiers": call.ids}
			if _, ok := d.op.Input.Member("Operation"); ok {
				in["Operation"] = op.Name
			}
			input, _ = json.Marshal(in)
		}
	}
	out, err := c.Call(ctx, d.op.Name, input)
	var addrs []discoveredAddr
	if err == nil {
		addrs, err = parseDiscovered(out, scheme, d.now())
	}
	if err != nil {
		e.failedUntil = d.now().Add(discoveryRetryAfter)
		return err
	}
	e.addrs, e.failedUntil = addrs, time.Time{}
	return nil
}

// parseDiscovered reads a discovery output: {"Endpoints": [{"Address":
// "host", "CachePeriodInMinutes": n}]}; an address without a scheme
// takes that of the endpoint the discovery went to.
func parseDiscovered(out []byte, scheme string, now time.Time) ([]discoveredAddr, error) {
	var doc struct {
		Endpoints []struct {
			Address              string
			CachePeriodInMinutes int64
		}
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return nil, fmt.Errorf("reading the discovered endpoints: %w", err)
	}
	var addrs []discoveredAddr
	for _, ep := range doc.Endpoints {
		a := discoveredAddr{scheme: scheme, host: ep.Address, expires: now.Add(time.Duration(ep.CachePeriodInMinutes) * time.Minute)}
		if s, rest, ok := strings.Cut(ep.Address, "://"); ok {
			a.scheme, a.host = s, rest
		}
		a.host, _, _ = strings.Cut(a.host, "/")
		if a.host == "" || (a.scheme != "http" && a.scheme != "https") {
			return nil, fmt.Errorf("discovered endpoint %q is not a host or an http(s) URL", ep.Address)
		}
		addrs = append(addrs, a)
	}
	if len(addrs) == 0 {
		return nil, errors.New("no endpoint was discovered")
	}
	return addrs, nil
}

// moved reports whether e says that call's address is no longer valid
// (the service's discovery error, or 421 Misdirected Request), and drops
// it from the cache then.
func (d *discovery) moved(call *discoveredCall, e *Error) bool {
	if call == nil || e == nil || e.Status != 421 && (d.errName == "" || e.Shape.Name() != d.errName && e.Code != d.errName) {
		return false
	}
	d.mu.Lock()
	delete(d.cache, call.key)
	d.mu.Unlock()
	return true
}
