// Package client calls the operations of a Smithy service described by a
// model loaded at run time. Inputs and outputs are JSON in the document form
// (see the protocol package); requests go out through libcurl.
//
//	m, _ := model.LoadPaths(ctx, "weather.smithy")
//	c, _ := client.New(m, "example.weather#Weather", "https://weather.example.com")
//	defer c.Close()
//	out, err := c.Call(ctx, "GetForecast", []byte(`{"city": "Paris"}`))
//
// A Client is safe for concurrent use and meant to be shared.
package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/client/awscustom"
	"github.com/smithycurl/smithycurl/internal/jsonstr"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// Client calls the operations of one service. It is safe for concurrent
// use. It keeps a pool of what its calls use and drop (scratch.go): the
// outputs Call returns are always the caller's, never pooled.
type Client struct {
	model     *model.Model
	svc       *model.Service
	codec     protocol.Codec
	transport transport.Transport
	owned     *transport.Curl // closed by Close when the client made it
	// The asynchronous engine (ViaEngine, WithEngine) of an owned
	// transport, made with its configuration on first use.
	tcfg     transport.Config
	engine   atomic.Pointer[transport.Engine]
	engineMu sync.Mutex // making the engine; closed
	closed   bool
	endpoint *url.URL       // nil when every call's endpoint comes from the rules
	rules    *endpointRules // nil when the service has no rules, or the endpoint is used as is
	region   string         // the configured region (signing region fallback)
	// bucketInEndpoint: S3 through its endpoint rules, which put the bucket
	// in the endpoint (the codec leaves {Bucket} out of the path).
	bucketInEndpoint bool
	isAWS            bool // an AWS service (aws.api#service): its SDKs' retry codes apply
	quota            *retryQuota
	limiter          *rateLimiter   // the adaptive retry mode's (ratelimit.go); nil in standard mode
	awsHeaders       bool           // an AWS service: the SDKs' invocation headers (useragent.go)
	lambda           *awsconfig.Env // created in an AWS Lambda function: its environment, for X-Amzn-Trace-Id (tracehdr.go)
	opts             options
	creds            credentials
	plans            sync.Map // *model.Operation -> *callPlan
	sigKeys          sigv4.KeyCache
	skew             clockSkew                 // the services' clock against the local one (skew.go)
	express          expressSessions           // S3 Express sessions per bucket and credentials
	responder        atomic.Pointer[Responder] // answers calls instead of the service (responder.go)
	discovery        *discovery                // endpoint discovery (discovery.go); nil: none
	scratch          scratchPool               // what calls reuse (scratch.go)
}

// New returns a client for service serviceID of m, sending requests to
// endpoint ("https://host:port/optional/prefix"). When the service has
// endpoint rules (smithy.rules#endpointRuleSet), endpoint may be "" with a
// region (WithRegion, or an AWS service's settings): each call's endpoint
// is then resolved from the rules; an endpoint given goes through the
// rules as their SDK::Endpoint built-in, as the AWS SDKs do, when they
// have one.
//
// A service that signs with SigV4 or has the aws.api#service trait takes
// what the options leave unset from its AWS settings (awsconfig: the
// environment, then the profile of WithProfile, AWS_PROFILE or default):
// region, endpoint URL, CA bundle, max attempts, FIPS, dual-stack and the
// checksum settings (WithRequestChecksumCalculation). A
// malformed setting makes New fail, naming where it is set.
func New(m *model.Model, serviceID model.ShapeID, endpoint string, opts ...Option) (*Client, error) {
	svc, err := m.Service(serviceID)
	if err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	o := options{retry: DefaultRetryPolicy}
	for _, opt := range opts {
		opt.apply(&o)
	}
	if o.tracer != nil {
		o.interceptors = append([]Interceptor{newTracing(o.tracer, svc.Shape)}, o.interceptors...)
	}
	explicitEndpoint := endpoint != "" // not one from the AWS settings: it turns endpoint discovery off
	if o.endpoint.region == "" {
		// The region given with the AWS credentials is the rules' region
		// too, before AWS_REGION (WithRegion comes first).
		o.endpoint.region = o.creds.awsRegion
	}
	if usesAWSSettings(svc) {
		s, err := o.awsSettings(svc)
		if err == nil {
			endpoint, err = o.applyAWSSettings(s, endpoint)
		}
		if err == nil && svc.Shape.ID == s3Service {
			o.applyS3Settings(s)
		}
		if err != nil {
			return nil, &Error{Kind: KindUsage, err: fmt.Errorf("AWS settings: %w", err)}
		}
	}
	if err := o.checksums.resolve(); err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	if comp, err := o.compression.codecOption(); err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	} else if comp != nil {
		o.codec = append(o.codec, comp)
	}
	u, rules, err := setupEndpoint(m, svc, endpoint, &o.endpoint)
	if err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	bucketInEndpoint := rules != nil && svc.Shape.ID == s3Service
	if bucketInEndpoint {
		o.codec = append(o.codec, protocol.WithBucketInEndpoint())
	}
	if o.retry.MaxAttempts < 1 {
		o.retry.MaxAttempts = 1
	}
	if err := checkRetryMode(o.retryMode); err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	awsHeaders := usesAWSSettings(svc)
	if awsHeaders {
		if err := o.setSDKUserAgent(svc); err != nil {
			return nil, &Error{Kind: KindUsage, err: err}
		}
	}
	codec, err := protocol.New(m, svc, o.codec...)
	if err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	c := &Client{model: m, svc: svc, codec: codec, endpoint: u, rules: rules, opts: o, creds: o.creds,
		region: o.endpoint.region, bucketInEndpoint: bucketInEndpoint, isAWS: svc.Shape.HasTrait(traitAWSService),
		quota: newRetryQuota(o.retry), awsHeaders: awsHeaders}
	if awsHeaders && o.awsConfig != nil {
		if _, ok := o.awsConfig.Env.Var(lambdaEnv); ok {
			c.lambda = &o.awsConfig.Env
		}
	}
	c.express.MaxEntries = expressCacheSize
	c.SetResponder(o.responder)
	if c.discovery, err = newDiscovery(svc, o.discovery, explicitEndpoint); err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	if o.retryMode == RetryAdaptive {
		c.limiter = newRateLimiter(time.Now)
	}
	if c.creds.aws == nil && c.creds.awsMissing == "" && svc.Shape.HasTrait(model.TraitSigV4) {
		if c.creds.aws, err = defaultAWSProvider(&o); err != nil {
			return nil, &Error{Kind: KindUsage, err: err}
		}
		c.creds.awsDefault = c.creds.aws != nil
	}
	if err := c.creds.clean(); err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	c.creds.cache()
	if o.engine.maxTransfers < 0 || o.engine.maxHostConnections < 0 {
		return nil, &Error{Kind: KindUsage, err: fmt.Errorf("WithEngineLimits(%d, %d): the limits must not be negative", o.engine.maxTransfers, o.engine.maxHostConnections)}
	}
	c.transport = o.custom
	if c.transport == nil {
		cfg := o.transport
		if o.trace != nil {
			cfg.Trace = c.redactingTrace(o.trace)
		}
		t, err := transport.New(cfg)
		if err != nil {
			return nil, &Error{Kind: KindTransport, err: err}
		}
		c.transport, c.owned, c.tcfg = t, t, cfg
	}
	return c, nil
}

// parseEndpoint checks an endpoint URL. Its errors never show a password
// the URL carries.
func parseEndpoint(endpoint string) (*url.URL, error) {
	shown := endpoint
	if scheme, rest, ok := strings.Cut(endpoint, "://"); ok {
		authority, _, _ := strings.Cut(rest, "/")
		if i := strings.LastIndexByte(authority, '@'); i >= 0 {
			shown = scheme + "://REDACTED@" + rest[i+1:]
		}
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("endpoint %q must be an absolute http:// or https:// URL", shown)
	}
	if u.User != nil {
		return nil, fmt.Errorf("endpoint %q must not hold a user or password: give credentials with the auth options", shown)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("endpoint %q must not have a query or fragment", shown)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("endpoint %q: port %s is not in 1..65535", shown, p)
		}
	}
	return u, nil
}

// Close releases the client's connections. Calls in flight or waiting
// for the engine are cancelled: each fails once with KindCancelled
// (errors.Is transport.ErrClosed).
func (c *Client) Close() error {
	c.engineMu.Lock()
	c.closed = true
	e := c.engine.Load()
	c.engineMu.Unlock()
	var err error
	if e != nil {
		err = e.Close()
	}
	if c.owned != nil {
		err = errors.Join(err, c.owned.Close())
	}
	return err
}

// Service returns the service the client calls.
func (c *Client) Service() *model.Service { return c.svc }

// Call sends operation (its name or shape id) with input, JSON in the
// document form (nil or empty for none), and returns the output JSON. Every
// error is an *Error. opts change this call only (WithCallTimeout,
// WithCallHeader, and WithBodyReader and WithBodyWriter for streaming blob
// payloads).
//
// Checksums (aws.protocols#httpChecksum), as the AWS SDKs since 2025: the
// request carries a checksum of its body (x-amz-checksum-crc32, or the
// algorithm the input chooses) whenever the operation supports one, or
// only when it requires one (WithRequestChecksumCalculation); a checksum or
// Content-MD5 the input gives is sent as given. The checksum a service
// sends with a successful response is checked against its body (a
// streamed one once it has all been written, before Call returns)
// whenever the operation can ask for one, or only when the input sets its
// validation mode member to ENABLED (WithResponseChecksumValidation): a
// mismatch is a KindDecode error.
func (c *Client) Call(ctx context.Context, operation string, input []byte, opts ...CallOption) ([]byte, error) {
	start := time.Now()
	callerDL, _ := ctx.Deadline()
	ctx, co, cancel := applyCallOptions(ctx, opts)
	defer cancel()
	if !co.since.IsZero() {
		budget := c.timeoutOf(co)
		if waited := time.Since(co.since); waited >= budget {
			e := &Error{Kind: KindTimeout, err: fmt.Errorf("the call waited %s to start, past its timeout (%s); nothing was sent",
				waited.Round(time.Millisecond), budget)}
			if op, err := c.svc.Operation(operation); err == nil {
				e.Operation = op.Shape.ID
			}
			return nil, e
		}
		ctx, cancel = context.WithDeadline(ctx, co.since.Add(budget))
		defer cancel()
	}
	hooks := c.hooksFor(co)
	out, e := c.call(ctx, operation, input, co, hooks)
	if hooks != nil {
		out, e = hooks.complete(ctx, false, out, e)
	}
	if e != nil {
		return nil, c.deadlineError(e, co, start, callerDL)
	}
	return out, nil
}

// call is Call after its options: the interceptors' hooks (none when
// hooks is nil) up to the retry loop, and the loop.
func (c *Client) call(ctx context.Context, operation string, input []byte, co callOptions, hooks *hookRun) ([]byte, *Error) {
	if hooks != nil {
		op, err := c.svc.Operation(operation)
		if err != nil {
			return nil, &Error{Kind: KindUsage, err: err}
		}
		hooks.x.Operation, hooks.x.Input = op, input
		if e := hooks.run(ctx, HookReadBeforeExecution); e != nil {
			return nil, e
		}
		if e := hooks.runAll(ctx, HookModifyBeforeSerialization, HookReadBeforeSerialization); e != nil {
			return nil, e
		}
		input = hooks.x.Input
	}
	var s *scratch // nil: the call allocates its own
	if hooks == nil && c.opts.observer == nil {
		s = c.scratch.get()
	}
	op, plan, req, body, err := c.prepare(ctx, operation, input, co, false, s)
	if err != nil {
		return nil, classify("", err) // an *Error already
	}
	if hooks != nil {
		hooks.x.Request = req
		if e := hooks.runAll(ctx, HookReadAfterSerialization, HookModifyBeforeRetryLoop); e != nil {
			return nil, e
		}
	}
	tr, terr := c.transportFor(co)
	if terr != nil {
		terr.Operation = op.Shape.ID
		return nil, terr
	}
	if body.responder != nil {
		tr = responding{r: body.responder, op: op, input: input}
	}
	if s != nil && body.reusable() && keepsNoResponse(tr) {
		req.Reuse = &s.resp
	} else {
		s = nil
	}
	callStart := time.Now()
	var deadline time.Time // the whole call's time budget, set at the first retry
	lastCost := 0          // what the last retry took from the quota
	skewRetried := false   // a clock skew error was retried (once a call)
	movedRetried := false  // a discovered endpoint's move was retried (once a call)
	invocation := c.newInvocationID()
	for attempt := 1; ; attempt++ {
		if invocation != "" {
			c.sdkHeaders(req.Header, invocation, attempt)
		}
		if c.limiter != nil {
			if err := c.limiter.acquire(ctx); err != nil {
				return nil, classify(op.Shape.ID, fmt.Errorf("waiting for the adaptive retry mode's send rate: %w", err))
			}
		}
		start := time.Now()
		out, resp, e, hooked := c.attempt(ctx, tr, op, req, body, hooks, attempt)
		if c.limiter != nil {
			c.limiter.update(e != nil && c.throttled(e))
		}
		if c.opts.observer != nil {
			a := Attempt{Operation: op.Name, Number: attempt, Took: time.Since(start), Response: resp}
			if resp != nil {
				a.Status = resp.Status
			}
			if e != nil {
				a.Err = e
			}
			c.opts.observer(a)
		}
		if e == nil {
			c.quota.succeeded(lastCost)
			if s != nil {
				c.scratch.giveBack(s, out)
			}
			return out, nil
		}
		// The error may hold views of the response: it is its own now.
		req.Reuse, s = nil, nil
		var header wire.Header
		if resp != nil {
			header = resp.Header
		}
		e.Attempts = attempt
		// A signature refused for a clock far from the service's: later
		// calls sign with the offset learned, and this one is sent once
		// more, at once (the service did not act on it).
		skewed := body.auth.sigV4() != nil && c.skew.learn(e, header, time.Now()) && !skewRetried
		// The discovered endpoint moved: discover it again, send at once.
		moved := c.discovery != nil && c.discovery.moved(body.discovered, e) && !movedRetried
		if attempt >= c.opts.retry.MaxAttempts || hooked || body.responder != nil {
			return nil, e
		}
		retry, onlyIdem, wait := c.retryDecision(e, header)
		if skewed {
			retry, onlyIdem, skewRetried = true, false, true
		}
		if moved {
			if de := c.sendToDiscovered(ctx, op, body.discovered, req); de != nil {
				return nil, e
			}
			retry, onlyIdem, movedRetried = true, false, true
		}
		if !retry {
			return nil, e
		}
		if onlyIdem && !plan.idempotent && !idempotentMethod(req.Method) {
			return nil, noRetry(e, errNotIdempotent)
		}
		if err := body.rewind(req); err != nil {
			return nil, noRetry(e, err)
		}
		backoff := c.opts.retry.backoff(attempt, wait)
		if skewed || moved {
			backoff = 0
		}
		if deadline.IsZero() {
			// The timeout bounds the call, retries included: the attempts
			// after the first share what is left of it.
			deadline = callStart.Add(c.callTimeout())
			if dl, ok := ctx.Deadline(); !ok || deadline.Before(dl) {
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, deadline)
				defer cancel()
			}
		}
		// No time left for another attempt: the budget must leave it
		// more than a sliver (libcurl's timer, in whole milliseconds, may
		// end an attempt just before the call's deadline).
		if time.Until(deadline) <= backoff+min(50*time.Millisecond, c.callTimeout()/10) {
			return nil, e
		}
		cost, ok := c.quota.take(e)
		if !ok {
			return nil, noRetry(e, errQuotaSpent)
		}
		lastCost = cost
		if err := sleep(ctx, backoff); err != nil {
			return nil, e // the last real failure says more than "cancelled while waiting"
		}
	}
}

// prepare encodes and authenticates the request of operation: everything
// up to sending it. eventStream allows an operation whose output is an
// event stream (CallStream).
//
// s, when not nil, holds the request and body state it fills (scratch.go).
func (c *Client) prepare(ctx context.Context, operation string, input []byte, co callOptions, eventStream bool, s *scratch) (*model.Operation, *callPlan, *transport.Request, *callBody, error) {
	extra := co.header
	op, err := c.svc.Operation(operation)
	if err != nil {
		return nil, nil, nil, nil, &Error{Kind: KindUsage, err: err}
	}
	plan := c.plan(op)
	if plan.unsupported != "" && !(eventStream && plan.eventStream) {
		return nil, nil, nil, nil, usageError(op.Shape.ID, "%s", plan.unsupported)
	}
	given := input
	var into *callBody
	if s != nil {
		into = &s.body
	}
	body, err := newCallBody(op, plan, co, into)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if r := c.responder.Load(); r != nil {
		if eventStream {
			return nil, nil, nil, nil, usageError(op.Shape.ID, "a Responder (stub) does not answer event streams")
		}
		body.responder = *r
	}
	if body.r != nil && plan.streamInRequired {
		// The reader is the required member: an empty one stands for it
		// in the document (a value the input gives comes after and wins).
		input = withEmptyMember(input, plan.streamIn)
		body.placeholder = true
	}
	if plan.custom != nil { // (its closures are made for operations that have customizations only)
		if input, err = plan.custom.CrossRegion(ctx, input, c.signingRegion(), c.crossRegionPresigner(op)); err != nil {
			return nil, nil, nil, nil, textFault(op, given, usageError(op.Shape.ID, "%v", err))
		}
		if input, err = plan.custom.Input(input); err != nil {
			return nil, nil, nil, nil, textFault(op, given, usageError(op.Shape.ID, "%v", err))
		}
	}
	body.custom, body.input = plan.custom, input
	req, base, ep, e := c.encodeRequest(ctx, op, plan, input, co.payload, extra, "", s)
	if e != nil {
		return nil, nil, nil, nil, textFault(op, given, e)
	}
	if body.responder == nil {
		if body.discovered, e = c.discoverEndpoint(ctx, op, input, req); e != nil {
			return nil, nil, nil, nil, e
		}
	}
	if err := body.attach(op, plan, req); err != nil {
		return nil, nil, nil, nil, err
	}
	if err := body.requestChecksum(op, plan.checksum, c.opts.checksums.request, input, req); err != nil {
		return nil, nil, nil, nil, err
	}
	if plan.custom != nil {
		if err := plan.custom.Request(&awscustom.Request{Request: req, Input: input, HashBody: body.hashBody(req)}); err != nil {
			return nil, nil, nil, nil, usageError(op.Shape.ID, "%v", err)
		}
	}
	if body.validate = newResponseChecksum(plan.checksum, c.opts.checksums.response, req); body.validate != nil && body.w != nil {
		rc, w := body.validate, body.w.w
		body.w.w = io.MultiWriter(w, rc)
		req.OnBodyStart = func(_ int, h wire.Header) { rc.pick(h) }
	}
	var secret string
	var auth *callAuth
	if body.responder == nil { // an answered call is not signed: stubs need no credentials
		var e *Error
		if secret, auth, e = c.authenticate(ctx, op, plan.auth, req, ep.signing); e != nil {
			return nil, nil, nil, nil, e
		}
	}
	if eventStream {
		// An event stream's one attempt (Call sets them per attempt).
		if id := c.newInvocationID(); id != "" {
			c.sdkHeaders(req.Header, id, 1)
		}
	}
	if auth != nil {
		if auth.signer != nil && (len(req.Body) > 1<<20 || req.BodyReader != nil && (req.BodySize < 0 || req.BodySize > 1<<20)) {
			// As the AWS SDKs do (unsigned): the service may refuse a
			// large upload before it is sent.
			req.Header.Set("Expect", "100-continue")
		}
		if eventStream { // Call signs each attempt (attempt)
			if e := auth.apply(ctx, op.Shape.ID, req, c.skew.now()); e != nil {
				return nil, nil, nil, nil, e
			}
		}
		body.auth = auth
	}
	// Errors and traces show the URL without secrets: the path template when
	// a @sensitive member is in the URL, and no API key.
	shown := req.URL
	if plan.sensitiveURL != "" {
		shown = base.Scheme + "://" + base.Host + base.EscapedPath() + plan.sensitiveURL
	}
	if secret != "" {
		shown = strings.ReplaceAll(shown, secret, "REDACTED")
	}
	if shown != req.URL {
		req.DisplayURL = shown
	}
	return op, plan, req, body, nil
}

// textFault is e, the error of a call refused for its input, or the
// error naming where the input's text is not Unicode when it is not: the
// codec's scan is the only check of the text (one pass over the input),
// and this failure path alone reads the text again to say where.
func textFault(op *model.Operation, input []byte, e *Error) *Error {
	if e.Kind != KindUsage && e.Kind != KindValidation {
		return e
	}
	if msg := jsonstr.CheckText(input); msg != "" {
		return usageError(op.Shape.ID, "the input is %s", msg)
	}
	return e
}

// encodeRequest encodes input as op's request to its endpoint, with the
// endpoint's headers and extra (a header the request has wins): the
// request as the codec and the endpoint rules make it, with no streamed
// body, checksum or auth yet; base is the endpoint it is sent to, ep what
// the rules said about it. payload, when not nil, is the body, the value
// of the input's blob payload (WithPayload). region, when not "", replaces
// the client's region in the rules. s, when not nil, holds the request
// returned (scratch.go).
func (c *Client) encodeRequest(ctx context.Context, op *model.Operation, plan *callPlan, input, payload []byte, extra wire.Header, region string, s *scratch) (*transport.Request, *url.URL, *resolved, *Error) {
	var wreq *wire.Request
	var err error
	if pe, ok := c.codec.(protocol.PayloadEncoder); ok && payload != nil {
		wreq, err = pe.EncodeRequestPayload(ctx, op, input, payload)
	} else {
		wreq, err = c.codec.EncodeRequest(ctx, op, input)
	}
	if err != nil {
		return nil, nil, nil, classify(op.Shape.ID, err)
	}
	base, ep := c.endpoint, (*resolved)(nil)
	if s != nil {
		s.ep = resolved{}
		ep = &s.ep
	} else {
		ep = &resolved{}
	}
	if c.rules != nil {
		if ep, err = c.resolveEndpointOf(op, input, &wreq.Input, region); err != nil {
			return nil, nil, nil, usageError(op.Shape.ID, "%v", err)
		}
		base = ep.base
	}
	prevURL := ""
	if s != nil {
		prevURL = s.url
	}
	target, err := c.url(base, wreq, prevURL)
	if err != nil {
		return nil, nil, nil, usageError(op.Shape.ID, "%v", err)
	}
	var req *transport.Request
	if s != nil {
		req, s.url = &s.req, target
	} else {
		req = new(transport.Request)
	}
	*req = transport.Request{Method: wreq.Method, URL: target, Header: wreq.Header, Body: wreq.Body,
		SecretHeaders: plan.secretHeaders, RawBody: plan.rawBody}
	if c.opts.trace != nil && c.codec.Protocol() == protocol.RPCv2CBOR {
		req.TraceBody = cborTraceBody(c.model, op)
	}
	if req.Header == nil {
		req.Header = wire.Header{}
	}
	applyEndpointHeaders(req, ep.headers)
	for name, values := range extra {
		if req.Header.Get(name) == "" {
			req.Header[name] = values
		}
	}
	return req, base, ep, nil
}

// timeoutOf is the time budget of a call with options co.
func (c *Client) timeoutOf(co callOptions) time.Duration {
	if d := c.callTimeout(); co.timeout <= 0 || d < co.timeout {
		return d
	}
	return co.timeout
}

// callTimeout is the time budget of one call, retries included.
func (c *Client) callTimeout() time.Duration {
	if c.opts.transport.Timeout > 0 {
		return c.opts.transport.Timeout
	}
	return transport.DefaultTimeout
}

// attempt signs req as of now and sends it once, with the attempt's
// hooks (none when hooks is nil). hooked reports that a hook failed it:
// the call is not retried.
func (c *Client) attempt(ctx context.Context, tr transport.Transport, op *model.Operation, req *transport.Request, body *callBody,
	hooks *hookRun, n int) (out []byte, resp *wire.Response, e *Error, hooked bool) {
	if hooks == nil {
		if body.auth != nil {
			// Each attempt is signed as of its own time, with the
			// identity the cache holds then.
			if e := body.auth.apply(ctx, op.Shape.ID, req, c.skew.now()); e != nil {
				return nil, nil, e, false
			}
		}
		out, resp, e = c.send(ctx, tr, op, req, body, nil)
		return out, resp, e, false
	}
	hooks.x.Attempt, hooks.x.Response, hooks.x.Output, hooks.x.Err = n, nil, nil, nil
	hooks.failed = false
	e = hooks.runAll(ctx, HookReadBeforeAttempt, HookModifyBeforeSigning, HookReadBeforeSigning)
	if e == nil && body.auth != nil {
		e = body.auth.apply(ctx, op.Shape.ID, req, c.skew.now())
	}
	if e == nil {
		e = hooks.runAll(ctx, HookReadAfterSigning, HookModifyBeforeTransmit, HookReadBeforeTransmit)
	}
	if e == nil {
		out, resp, e = c.send(ctx, tr, op, req, body, hooks)
	}
	out, e = hooks.complete(ctx, true, out, e)
	return out, resp, e, hooks.failed
}

// send makes one attempt through tr, with the hooks from transmit to
// deserialization (none when hooks is nil). resp is nil when no response
// arrived. The response is checked as body says: its checksum, and the
// AWS customizations of the operation.
func (c *Client) send(ctx context.Context, tr transport.Transport, op *model.Operation, req *transport.Request, body *callBody, hooks *hookRun) ([]byte, *wire.Response, *Error) {
	resp, err := tr.Do(ctx, req)
	if err != nil {
		return nil, nil, classify(op.Shape.ID, err)
	}
	if hooks != nil {
		hooks.x.Response = resp
		if e := hooks.runAll(ctx, HookReadAfterTransmit, HookModifyBeforeDeserialization, HookReadBeforeDeserialization); e != nil {
			return nil, resp, e
		}
		out, e := c.decode(ctx, op, hooks.x.Response, body)
		hooks.x.Output, hooks.x.Err = out, nil
		if e != nil {
			hooks.x.Err = e
		}
		if he := hooks.run(ctx, HookReadAfterDeserialization); he != nil {
			return nil, resp, he
		}
		return out, resp, e
	}
	out, e := c.decode(ctx, op, resp, body)
	return out, resp, e
}

// decode turns resp into the output document or the call's error.
func (c *Client) decode(ctx context.Context, op *model.Operation, resp *wire.Response, body *callBody) ([]byte, *Error) {
	// A check's failure is the response's.
	checked := func(err error) error {
		if err != nil {
			return &protocol.ResponseError{Operation: op.Shape.ID, Status: resp.Status, Err: err}
		}
		return nil
	}
	var out []byte
	err := checked(body.custom.Response(resp))
	if err == nil {
		decoded := resp
		if body.payloadOut != nil && resp.Status >= 200 && resp.Status < 300 && !resp.Streamed {
			// The body is the caller's (WithPayloadOutput): the document
			// leaves it out, as for a body streamed to a writer.
			r := *resp
			r.Body, r.Streamed = nil, true
			decoded = &r
		}
		if od, ok := c.codec.(protocol.OutputDecoder); ok && body.outAlloc != nil {
			out, err = od.DecodeResponseInto(ctx, op, decoded, body.outAlloc)
		} else {
			out, err = c.codec.DecodeResponse(ctx, op, decoded)
		}
		if err == nil && body.validate != nil {
			err = checked(body.validate.check(resp))
		}
		if err == nil {
			out, err = body.custom.Output(body.input, out)
			err = checked(err)
		}
		if err == nil && decoded != resp {
			*body.payloadOut = resp.Body
			if resp.Body == nil {
				*body.payloadOut = []byte{}
			}
		}
	}
	if err != nil {
		e := classify(op.Shape.ID, err)
		e.RequestID = requestID(resp)
		if e.Status == 0 {
			e.Status = resp.Status
		}
		return nil, e
	}
	return out, nil
}

// requestID returns the request id header a service sent, if any.
func requestID(resp *wire.Response) string {
	for _, h := range []string{"X-Amzn-Requestid", "X-Amz-Request-Id", "X-Request-Id"} {
		if v := resp.Header.Get(h); v != "" {
			return v
		}
	}
	return ""
}

// url joins the endpoint (with its path prefix) and the request's path,
// and applies the endpoint trait's host prefix unless turned off (then the
// prefix and its host labels are not looked at).
func (c *Client) url(base *url.URL, r *wire.Request, prev string) (string, error) {
	host := base.Host
	if r.HostPrefix != "" && !c.opts.noHostPrefix {
		var err error
		if host, err = protocol.JoinHost(r.HostPrefix, host); err != nil {
			return "", err
		}
	}
	path := base.EscapedPath()
	if c.bucketInEndpoint && path != "" && (r.Path == "/" || strings.HasPrefix(r.Path, "/?")) {
		// The endpoint's path is the whole path (S3's bucket, path-style).
		return joined(prev, base.Scheme, "://", host, path, r.Path[1:]), nil
	}
	return joined(prev, base.Scheme, "://", host, path, r.Path), nil
}

// joined is the concatenation of parts: prev when it is that (the last
// call's URL again: no new string), else a new string.
func joined(prev string, parts ...string) string {
	rest := prev
	for _, p := range parts {
		if !strings.HasPrefix(rest, p) {
			return strings.Join(parts, "")
		}
		rest = rest[len(p):]
	}
	if rest != "" {
		return strings.Join(parts, "")
	}
	return prev
}

// s3Service is S3's service shape: its endpoint rules hold the bucket.
const s3Service model.ShapeID = "com.amazonaws.s3#AmazonS3"

// traitAWSService marks an AWS service.
const traitAWSService model.ShapeID = "aws.api#service"

// redactingTrace hides credentials from a trace hook.
func (c *Client) redactingTrace(f func(transport.TraceEvent)) func(transport.TraceEvent) {
	secretHeaders := []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Amz-Security-Token", expressToken}
	if v, ok := c.svc.Shape.Trait(model.TraitHTTPAPIKeyAuth); ok {
		if name, _ := v.Get("name"); name.Str() != "" {
			secretHeaders = append(secretHeaders, name.Str())
		}
	}
	return func(ev transport.TraceEvent) {
		for _, h := range secretHeaders {
			if ev.Header.Get(h) != "" {
				ev.Header.Set(h, "REDACTED")
			}
		}
		f(ev)
	}
}

// String describes the client without its credentials.
func (c *Client) String() string {
	if c.endpoint == nil {
		return fmt.Sprintf("client.Client{service: %s, endpoint: from the rules, region %q}", c.svc.Shape.ID, c.region)
	}
	return fmt.Sprintf("client.Client{service: %s, endpoint: %s}", c.svc.Shape.ID, c.endpoint)
}
