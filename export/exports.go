package main

/*
#include "scx.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/describe"
	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/internal/jsonstr"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

type loaderH struct {
	errBox
	l *model.Loader
}

type modelH struct {
	errBox
	m *model.Model
}

type clientH struct {
	c      *client.Client
	ctx    context.Context // ends when the handle is freed (async.go)
	cancel context.CancelCauseFunc
	gate   *gate // runs its asynchronous calls (gate.go)
	// The context of its asynchronous calls on each queue (ctxFor).
	queuesMu sync.Mutex
	queues   map[*queueH]queueCtx
	// release drops the client's hold on its options' identity callbacks.
	release func()
}

type cancelH struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// cBytes copies b into a new C buffer with a NUL after it.
func cBytes(b []byte) (*C.char, bool) {
	p := C.scx_alloc(C.size_t(len(b) + 1))
	if p == nil {
		return nil, false
	}
	dst := unsafe.Slice((*byte)(p), len(b)+1)
	copy(dst, b)
	dst[len(b)] = 0
	return (*C.char)(p), true
}

// goString copies a C string, checking that it is UTF-8.
func goString(p *C.char) (string, bool) {
	s := C.GoString(p)
	return s, utf8.ValidString(s)
}

// copyOut gives the caller a malloc'd copy of s (freed with smithycurl_free).
func copyOut(s string, out **C.char, n *C.size_t) C.int {
	p, ok := cBytes([]byte(s))
	if !ok {
		return codeNoMem
	}
	*out = p
	if n != nil {
		*n = C.size_t(len(s))
	}
	return codeOK
}

//export scx_errmsg
func scx_errmsg(h C.uintptr_t, typ C.int, msg **C.char) (rc C.int) {
	defer guard(&rc)
	v, ok := lookup[hasErrBox](h, typ)
	if !ok {
		return codeInvalidHandle
	}
	if msg == nil {
		return codeInvalidArgument
	}
	return copyOut(v.box().get(), msg, nil)
}

//export scx_free
func scx_free(h C.uintptr_t, typ C.int) (rc C.int) {
	defer guard(&rc)
	v, ok := unregister(h, typ)
	if !ok {
		return codeInvalidHandle
	}
	switch v := v.(type) {
	case *clientH:
		v.close()
		if v.release != nil {
			v.release()
		}
	case *optionsH:
		v.ids.release()
	case *queueH:
		v.close()
	case *cancelH:
		v.cancel()
	case *result:
		v.free()
	case *streamH:
		v.close()
	case *pagerH:
		v.free()
	case *stubberH:
		v.s.Deactivate()
	}
	return codeOK
}

// ---- loaders and models ----

//export scx_loader_new
func scx_loader_new(out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	*out = register(C.SCX_LOADER, &loaderH{l: model.NewLoader()})
	return codeOK
}

//export scx_loader_add_path
func scx_loader_add_path(h C.uintptr_t, path *C.char) (rc C.int) {
	defer guard(&rc)
	ld, ok := lookup[*loaderH](h, C.SCX_LOADER)
	if !ok {
		return codeInvalidHandle
	}
	if path == nil {
		return fail(&ld.errBox, codeInvalidArgument, "path is NULL")
	}
	if err := ld.l.AddPath(C.GoString(path)); err != nil {
		switch {
		case errors.Is(err, model.ErrTooLarge):
			return fail(&ld.errBox, codeInvalidArgument, "%v", err)
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
			return fail(&ld.errBox, codeNotFound, "%v", err)
		default: // a smithy-build.json that cannot be used, or a read error
			return fail(&ld.errBox, codeLoad, "%v", err)
		}
	}
	ld.set("")
	return codeOK
}

//export scx_loader_set_cache
func scx_loader_set_cache(h C.uintptr_t, mode, dir *C.char) (rc C.int) {
	defer guard(&rc)
	ld, ok := lookup[*loaderH](h, C.SCX_LOADER)
	if !ok {
		return codeInvalidHandle
	}
	goMode := ""
	if mode != nil {
		goMode = C.GoString(mode)
	}
	m, ok := model.ParseCacheMode(goMode)
	if !ok {
		return fail(&ld.errBox, codeInvalidArgument, "model cache mode %q: want \"on\", \"memory\", \"off\" or NULL", goMode)
	}
	ld.l.SetCache(m)
	if dir != nil {
		ld.l.SetCacheDir(C.GoString(dir))
	}
	ld.set("")
	return codeOK
}

//export scx_loader_add_source
func scx_loader_add_source(h C.uintptr_t, name *C.char, src *C.char, n C.size_t) (rc C.int) {
	defer guard(&rc)
	ld, ok := lookup[*loaderH](h, C.SCX_LOADER)
	if !ok {
		return codeInvalidHandle
	}
	if name == nil || (src == nil && n > 0) {
		return fail(&ld.errBox, codeInvalidArgument, "name is NULL, or source is NULL with a length")
	}
	goName, ok := goString(name)
	if !ok {
		return fail(&ld.errBox, codeInvalidUTF8, "the source name is not valid UTF-8")
	}
	if uint64(n) > model.MaxFileBytes {
		return fail(&ld.errBox, codeInvalidArgument, "%s: the model text is %d bytes, over the limit of %d MiB", goName, uint64(n), model.MaxFileBytes>>20)
	}
	text := C.GoBytes(unsafe.Pointer(src), C.int(n))
	if !utf8.Valid(text) {
		return fail(&ld.errBox, codeInvalidUTF8, "%s: the model text is not valid UTF-8 (at byte %d)", goName, jsonstr.InvalidUTF8At(text))
	}
	ld.l.AddSource(goName, text)
	ld.set("")
	return codeOK
}

//export scx_loader_load
func scx_loader_load(h C.uintptr_t, hasOut C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	ld, ok := lookup[*loaderH](h, C.SCX_LOADER)
	if !ok {
		return codeInvalidHandle
	}
	if hasOut == 0 {
		return fail(&ld.errBox, codeInvalidArgument, "out is NULL")
	}
	m, _, err := ld.l.Load(context.Background())
	if err != nil {
		return fail(&ld.errBox, codeLoad, "%v", err)
	}
	ld.set("")
	*out = register(C.SCX_MODEL, &modelH{m: m})
	return codeOK
}

//export scx_model_json
func scx_model_json(h C.uintptr_t, which C.int, svc, op *C.char, out **C.char, n *C.size_t) (rc C.int) {
	defer guard(&rc)
	mh, ok := lookup[*modelH](h, C.SCX_MODEL)
	if !ok {
		return codeInvalidHandle
	}
	if out == nil {
		return fail(&mh.errBox, codeInvalidArgument, "json is NULL")
	}
	docs := describe.DocsRaw
	switch {
	case which&C.SCX_JSON_DOCS_NONE != 0:
		docs = describe.DocsNone
	case which&C.SCX_JSON_DOCS_PLAIN != 0:
		docs = describe.DocsPlain
	}
	var b []byte
	switch which &^ (C.SCX_JSON_DOCS_NONE | C.SCX_JSON_DOCS_PLAIN) {
	case C.SCX_JSON_SERVICES:
		b = describe.Services(mh.m, docs)
	case C.SCX_JSON_AST:
		b = mh.m.MarshalAST()
	case C.SCX_SNAPSHOT:
		b = mh.m.MarshalSnapshot()
	case C.SCX_JSON_OPERATION:
		s, err := findService(mh.m, svc)
		if err != nil {
			return fail(&mh.errBox, codeNotFound, "%v", err)
		}
		o, err := s.Operation(C.GoString(op))
		if err != nil {
			return fail(&mh.errBox, codeNotFound, "%v", err)
		}
		b = describe.OperationDocs(mh.m, s, o, docs)
	default:
		return codeInvalidArgument
	}
	p, ok := cBytes(b)
	if !ok {
		return codeNoMem
	}
	*out = p
	if n != nil {
		*n = C.size_t(len(b))
	}
	return codeOK
}

// findService returns the service id names, or the model's only service.
func findService(m *model.Model, id *C.char) (*model.Service, error) {
	if id != nil {
		return m.Service(model.ShapeID(C.GoString(id)))
	}
	ids := m.Services()
	if len(ids) != 1 {
		return nil, fmt.Errorf("the model has %d services %v: name one", len(ids), ids)
	}
	return m.Service(ids[0])
}

// ---- options and clients ----

type optionsH struct {
	errBox
	timeout, connectTimeout time.Duration
	retries                 *client.RetryPolicy
	validation              bool // constraint checks (off by default)
	noHostPrefix            bool
	maxResponse             int64
	waiterDelays            [2]time.Duration
	asyncLimits             *[2]int // WithEngineLimits: max transfers, max host connections
	headers                 [][2]string
	userAgent               string
	bearer                  string
	basic                   *[2]string
	apiKey                  string
	aws                     *client.AWSCredentials
	tls                     *client.TLSConfig
	proxy                   string
	region                  string
	endpointParams          map[string]any
	traceFn, traceUser      uintptr
	hooks                   hookOptions // interceptors, auth schemes, spans (hooks.go)
	digest                  *[2]string
	ids                     identities // the identity callbacks (identity.go)
	profile                 string
	checksums               [2]client.ChecksumWhen // request calculation, response validation ("": the settings')
	retryMode               client.RetryMode       // "": the settings'
	minCompression          *int                   // nil: the settings'
	noCompression           bool
	appID                   string
	frontEnd                [2]string                // "": c
	discovery               client.EndpointDiscovery // "": the settings'
}

//export scx_options_new
func scx_options_new(out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	*out = register(C.SCX_OPTIONS, &optionsH{})
	return codeOK
}

//export scx_options_set_int
func scx_options_set_int(h C.uintptr_t, which C.int, a, b C.longlong) (rc C.int) {
	defer guard(&rc)
	o, ok := lookup[*optionsH](h, C.SCX_OPTIONS)
	if !ok {
		return codeInvalidHandle
	}
	switch which {
	case C.SCX_OPT_TIMEOUT_MS, C.SCX_OPT_CONNECT_TIMEOUT_MS:
		if a < 0 {
			return fail(&o.errBox, codeInvalidArgument, "a timeout must not be negative (0 is the default)")
		}
		if which == C.SCX_OPT_TIMEOUT_MS {
			o.timeout = time.Duration(a) * time.Millisecond
		} else {
			o.connectTimeout = time.Duration(a) * time.Millisecond
		}
	case C.SCX_OPT_RETRIES:
		if b < 0 || b > 100 {
			return fail(&o.errBox, codeInvalidArgument, "max_attempts must be in 0..100 (0 is the default 3)")
		}
		p := client.DefaultRetryPolicy
		if a == 0 {
			p.MaxAttempts = 1
		} else if b > 0 {
			p.MaxAttempts = int(b)
		}
		o.retries = &p
	case C.SCX_OPT_VALIDATION:
		o.validation = a != 0
	case C.SCX_OPT_HOST_PREFIX:
		o.noHostPrefix = a == 0
	case C.SCX_OPT_TRACE_SPANS:
		o.hooks.spans = a != 0
	case C.SCX_OPT_MAX_RESPONSE_BYTES:
		if a < -1 {
			return fail(&o.errBox, codeInvalidArgument, "max_bytes must be -1 (unlimited), 0 (default) or positive")
		}
		o.maxResponse = int64(a)
	case C.SCX_OPT_WAITER_DELAYS:
		if a < 0 || b < 0 || (a > 0 && b > 0 && b < a) {
			return fail(&o.errBox, codeInvalidArgument, "waiter delays: want 0 (the waiter's) or positive, and min_delay_ms <= max_delay_ms")
		}
		o.waiterDelays = [2]time.Duration{time.Duration(a) * time.Millisecond, time.Duration(b) * time.Millisecond}
	case C.SCX_OPT_REQUEST_MIN_COMPRESSION_SIZE:
		if a == -1 {
			o.minCompression = nil
			break
		}
		if a < 0 || a > awsconfig.MaxMinCompressionSize {
			return fail(&o.errBox, codeInvalidArgument, "request_min_compression_size_bytes must be from 0 to %d (-1: the AWS settings')", awsconfig.MaxMinCompressionSize)
		}
		n := int(a)
		o.minCompression = &n
	case C.SCX_OPT_DISABLE_REQUEST_COMPRESSION:
		o.noCompression = a != 0
	case C.SCX_OPT_ASYNC_LIMITS:
		if a < 0 || b < 0 {
			return fail(&o.errBox, codeInvalidArgument, "async limits: want 0 (the default) or positive")
		}
		o.asyncLimits = &[2]int{int(a), int(b)}
	default:
		return codeInvalidArgument
	}
	o.set("")
	return codeOK
}

//export scx_options_set_str
func scx_options_set_str(h C.uintptr_t, which C.int, p1, p2, p3, p4 *C.char, flag C.int) (rc C.int) {
	defer guard(&rc)
	o, ok := lookup[*optionsH](h, C.SCX_OPTIONS)
	if !ok {
		return codeInvalidHandle
	}
	var s [4]string
	for i, p := range []*C.char{p1, p2, p3, p4} {
		if p != nil {
			if s[i], ok = goString(p); !ok {
				return fail(&o.errBox, codeInvalidUTF8, "argument %d is not valid UTF-8", i+1)
			}
		}
	}
	// Credentials are checked here, so that a bad one fails where it is
	// set, without its value; the client trims one trailing newline.
	credential := func(what string, v string) bool {
		if _, err := client.CheckCredential(what, v); err != nil {
			fail(&o.errBox, codeInvalidArgument, "%v", err)
			return false
		}
		return true
	}
	need := func(ps ...*C.char) bool {
		for _, p := range ps {
			if p == nil {
				return false
			}
		}
		return true
	}
	switch which {
	case C.SCX_OPT_HEADER:
		if !need(p1, p2) {
			return fail(&o.errBox, codeInvalidArgument, "header name and value must not be NULL")
		}
		if !wire.IsToken(s[0]) {
			return fail(&o.errBox, codeInvalidArgument, "invalid header name %q", s[0])
		}
		if strings.ContainsAny(s[1], "\r\n\x00") {
			return fail(&o.errBox, codeInvalidArgument, "the value of header %s contains CR or LF", s[0])
		}
		o.headers = append(o.headers, [2]string{s[0], s[1]})
	case C.SCX_OPT_USER_AGENT:
		if !need(p1) || strings.ContainsAny(s[0], "\r\n") {
			return fail(&o.errBox, codeInvalidArgument, "user agent is NULL or contains CR or LF")
		}
		o.userAgent = s[0]
	case C.SCX_OPT_BEARER_TOKEN:
		if !need(p1) {
			return fail(&o.errBox, codeInvalidArgument, "token is NULL")
		}
		if !credential("bearer token", s[0]) {
			return codeInvalidArgument
		}
		o.bearer = s[0]
	case C.SCX_OPT_BASIC_AUTH:
		if !need(p1, p2) {
			return fail(&o.errBox, codeInvalidArgument, "user and password must not be NULL")
		}
		if !credential("basic auth user", s[0]) || !credential("basic auth password", s[1]) {
			return codeInvalidArgument
		}
		o.basic = &[2]string{s[0], s[1]}
	case C.SCX_OPT_DIGEST_AUTH:
		if !need(p1, p2) {
			return fail(&o.errBox, codeInvalidArgument, "user and password must not be NULL")
		}
		if !credential("digest auth user", s[0]) || !credential("digest auth password", s[1]) {
			return codeInvalidArgument
		}
		o.digest = &[2]string{s[0], s[1]}
	case C.SCX_OPT_API_KEY:
		if !need(p1) {
			return fail(&o.errBox, codeInvalidArgument, "key is NULL")
		}
		if !credential("API key", s[0]) {
			return codeInvalidArgument
		}
		o.apiKey = s[0]
	case C.SCX_OPT_AWS_SIGV4:
		if !need(p1, p2) {
			return fail(&o.errBox, codeInvalidArgument, "access key id and secret access key must not be NULL")
		}
		if !credential("AWS access key id", s[0]) || !credential("AWS secret access key", s[1]) ||
			!credential("AWS session token", s[2]) || !credential("AWS region", s[3]) {
			return codeInvalidArgument
		}
		o.aws = &client.AWSCredentials{AccessKeyID: s[0], SecretAccessKey: s[1], SessionToken: s[2], Region: s[3]}
	case C.SCX_OPT_TLS:
		o.tls = &client.TLSConfig{CAFile: s[0], CertFile: s[1], KeyFile: s[2], InsecureSkipVerify: flag != 0}
	case C.SCX_OPT_PROXY:
		o.proxy = s[0]
	case C.SCX_OPT_REGION:
		if p1 != nil {
			if err := endpoints.CheckRegion(s[0]); err != nil {
				return fail(&o.errBox, codeInvalidArgument, "%v", err)
			}
		}
		o.region = s[0]
	case C.SCX_OPT_PROFILE:
		if strings.ContainsFunc(s[0], func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return fail(&o.errBox, codeInvalidArgument, "the profile name contains a control character")
		}
		o.profile = s[0]
	case C.SCX_OPT_REQUEST_CHECKSUM_CALCULATION, C.SCX_OPT_RESPONSE_CHECKSUM_VALIDATION:
		w := client.ChecksumWhen(s[0])
		if w != "" && w != client.ChecksumWhenSupported && w != client.ChecksumWhenRequired {
			return fail(&o.errBox, codeInvalidArgument, "want %q, %q, or NULL for the AWS settings'", client.ChecksumWhenSupported, client.ChecksumWhenRequired)
		}
		o.checksums[which-C.SCX_OPT_REQUEST_CHECKSUM_CALCULATION] = w
	case C.SCX_OPT_RETRY_MODE:
		m := client.RetryMode(s[0])
		if m != "" && m != client.RetryStandard && m != client.RetryAdaptive {
			return fail(&o.errBox, codeInvalidArgument, "retry_mode: want %q, %q, or NULL for the AWS settings'", client.RetryStandard, client.RetryAdaptive)
		}
		o.retryMode = m
	case C.SCX_OPT_APP_ID:
		o.appID = s[0] // client.New checks its length
	case C.SCX_OPT_FRONT_END:
		if !need(p1) || s[0] == "" {
			return fail(&o.errBox, codeInvalidArgument, "the front end's name must not be NULL or empty")
		}
		o.frontEnd = [2]string{s[0], s[1]}
	case C.SCX_OPT_ENDPOINT_DISCOVERY:
		switch d := client.EndpointDiscovery(s[0]); d {
		case "", client.EndpointDiscoveryAuto, client.EndpointDiscoveryEnabled, client.EndpointDiscoveryDisabled:
			o.discovery = d
		default:
			return fail(&o.errBox, codeInvalidArgument, "want %q, %q, %q, or NULL for the AWS settings'", client.EndpointDiscoveryAuto, client.EndpointDiscoveryEnabled, client.EndpointDiscoveryDisabled)
		}
	case C.SCX_OPT_ENDPOINT_PARAM:
		if !need(p1) || s[0] == "" {
			return fail(&o.errBox, codeInvalidArgument, "the endpoint parameter name must not be NULL or empty")
		}
		if o.endpointParams == nil {
			o.endpointParams = map[string]any{}
		}
		if p2 == nil {
			delete(o.endpointParams, s[0])
		} else {
			o.endpointParams[s[0]] = s[1]
		}
	default:
		return codeInvalidArgument
	}
	o.set("")
	return codeOK
}

//export scx_options_set_trace
func scx_options_set_trace(h C.uintptr_t, fn, user C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	o, ok := lookup[*optionsH](h, C.SCX_OPTIONS)
	if !ok {
		return codeInvalidHandle
	}
	o.traceFn, o.traceUser = uintptr(fn), uintptr(user)
	return codeOK
}

// clientOptions turns an options handle into client options.
func (o *optionsH) clientOptions() []client.Option {
	var opts []client.Option
	if o.timeout > 0 {
		opts = append(opts, client.WithTimeout(o.timeout))
	}
	if o.connectTimeout > 0 {
		opts = append(opts, client.WithConnectTimeout(o.connectTimeout))
	}
	if o.retries != nil {
		opts = append(opts, client.WithRetryPolicy(*o.retries))
	}
	if o.validation {
		opts = append(opts, client.WithValidation())
	}
	if o.noHostPrefix {
		opts = append(opts, client.WithoutHostPrefix())
	}
	if o.waiterDelays != [2]time.Duration{} {
		opts = append(opts, client.WithWaiterDelays(o.waiterDelays[0], o.waiterDelays[1]))
	}
	if o.asyncLimits != nil {
		opts = append(opts, client.WithEngineLimits(o.asyncLimits[0], o.asyncLimits[1]))
	}
	if o.maxResponse != 0 {
		opts = append(opts, client.WithMaxResponseBytes(o.maxResponse))
	}
	for _, hv := range o.headers {
		opts = append(opts, client.WithHeader(hv[0], hv[1]))
	}
	if o.userAgent != "" {
		opts = append(opts, client.WithUserAgent(o.userAgent))
	}
	if o.bearer != "" {
		opts = append(opts, client.WithBearerToken(o.bearer))
	}
	if o.basic != nil {
		opts = append(opts, client.WithBasicAuth(o.basic[0], o.basic[1]))
	}
	if o.apiKey != "" {
		opts = append(opts, client.WithAPIKey(o.apiKey))
	}
	if o.aws != nil {
		opts = append(opts, client.WithAWSCredentials(*o.aws))
	}
	opts = append(opts, o.ids.options()...)
	opts = append(opts, client.WithEnv(processEnv))
	if o.profile != "" {
		opts = append(opts, client.WithProfile(o.profile))
	}
	if o.discovery != "" {
		opts = append(opts, client.WithEndpointDiscovery(o.discovery))
	}
	if o.checksums[0] != "" {
		opts = append(opts, client.WithRequestChecksumCalculation(o.checksums[0]))
	}
	if o.checksums[1] != "" {
		opts = append(opts, client.WithResponseChecksumValidation(o.checksums[1]))
	}
	if o.retryMode != "" {
		opts = append(opts, client.WithRetryMode(o.retryMode))
	}
	if o.minCompression != nil {
		opts = append(opts, client.WithRequestMinCompressionSize(*o.minCompression))
	}
	if o.noCompression {
		opts = append(opts, client.WithoutRequestCompression())
	}
	if o.appID != "" {
		opts = append(opts, client.WithAppID(o.appID))
	}
	if o.frontEnd[0] != "" {
		opts = append(opts, client.WithFrontEnd(o.frontEnd[0], o.frontEnd[1]))
	} else {
		opts = append(opts, client.WithFrontEnd("c", ""))
	}
	if o.tls != nil {
		opts = append(opts, client.WithTLS(*o.tls))
	}
	if o.proxy != "" {
		opts = append(opts, client.WithProxy(o.proxy))
	}
	if o.region != "" {
		opts = append(opts, client.WithRegion(o.region))
	}
	if len(o.endpointParams) > 0 {
		opts = append(opts, client.WithEndpointParams(o.endpointParams))
	}
	if o.digest != nil {
		opts = append(opts, client.WithDigestAuth(o.digest[0], o.digest[1]))
	}
	if o.traceFn != 0 {
		opts = append(opts, client.WithTrace(traceTo(o.traceFn, o.traceUser)))
	}
	return append(opts, o.hooks.options(o.traceFn, o.traceUser)...)
}

type traceJSON struct {
	Phase   string              `json:"phase"`
	Method  string              `json:"method"`
	URL     string              `json:"url"`
	Status  int                 `json:"status,omitempty"`
	Headers map[string][]string `json:"headers,omitempty"`
	TookUS  int64               `json:"took_us,omitempty"`
	Error   string              `json:"error,omitempty"`
}

// traceTo returns a trace hook that hands each event, as JSON in C memory,
// to a C callback.
func traceTo(fn, user uintptr) func(transport.TraceEvent) {
	return func(ev transport.TraceEvent) {
		t := traceJSON{Phase: "request", Method: ev.Method, URL: ev.URL, Headers: ev.Header}
		if ev.Phase == transport.TraceResponse {
			t.Phase, t.Status, t.TookUS = "response", ev.Status, ev.Took.Microseconds()
			if ev.Err != nil {
				t.Error = ev.Err.Error()
			}
		}
		emitTrace(fn, user, t)
	}
}

// emitTrace hands v, as JSON in C memory, to a C trace callback.
func emitTrace(fn, user uintptr, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	p, ok := cBytes(b)
	if !ok {
		return
	}
	C.scx_trace_invoke(C.uintptr_t(fn), C.uintptr_t(user), p, C.size_t(len(b)))
	C.free(unsafe.Pointer(p))
}

//export scx_client_new
func scx_client_new(mh C.uintptr_t, svc, endpoint *C.char, oh C.uintptr_t, hasOut C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	m, ok := lookup[*modelH](mh, C.SCX_MODEL)
	if !ok {
		return codeInvalidHandle
	}
	var o *optionsH
	if oh != 0 {
		if o, ok = lookup[*optionsH](oh, C.SCX_OPTIONS); !ok {
			return fail(&m.errBox, codeInvalidHandle, "the options handle is invalid (freed, or of another type)")
		}
	}
	if hasOut == 0 {
		return fail(&m.errBox, codeInvalidArgument, "out must not be NULL")
	}
	s, err := findService(m.m, svc)
	if err != nil {
		return fail(&m.errBox, codeNotFound, "%v", err)
	}
	var opts []client.Option
	if o != nil {
		opts = o.clientOptions()
	}
	ep := ""
	if endpoint != nil {
		var ok bool
		if ep, ok = goString(endpoint); !ok {
			return fail(&m.errBox, codeInvalidUTF8, "the endpoint is not valid UTF-8")
		}
	}
	c, err := client.New(m.m, s.Shape.ID, ep, opts...)
	if err != nil {
		var ce *client.Error
		if errors.As(err, &ce) {
			return fail(&m.errBox, C.int(codeOfKind(ce.Kind)), "%v", ce.Message())
		}
		return fail(&m.errBox, codeUsage, "%v", err)
	}
	m.set("")
	ch := newClientH(c)
	if o != nil {
		ch.release = o.ids.acquire()
	}
	*out = register(C.SCX_CLIENT, ch)
	return codeOK
}

// ---- cancel tokens ----

//export scx_cancel_new
func scx_cancel_new(out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	ctx, cancel := context.WithCancel(context.Background())
	*out = register(C.SCX_CANCEL, &cancelH{ctx: ctx, cancel: cancel})
	return codeOK
}

//export scx_cancel
func scx_cancel(h C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	t, ok := lookup[*cancelH](h, C.SCX_CANCEL)
	if !ok {
		return codeInvalidHandle
	}
	t.cancel()
	return codeOK
}
