package client

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/internal/jsonstr"
	"github.com/smithycurl/smithycurl/internal/lru"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// endpointOptions are the settings the endpoint rules read.
type endpointOptions struct {
	region    string
	fips      *bool
	dualStack *bool
	params    map[string]any // by parameter name
	builtIns  map[string]any // by built-in name
}

// WithRegion sets the AWS region (the AWS::Region built-in of the
// service's endpoint rules, and the SigV4 signing region unless the rules
// or the credentials say otherwise). Without it, an AWS service takes the
// region of its AWS settings: AWS_REGION, AWS_DEFAULT_REGION, then the
// profile's region (see awsconfig.Config.Settings); other services have
// none. With a region, New's endpoint may be "": the service's
// smithy.rules#endpointRuleSet resolves it for every call.
func WithRegion(region string) Option {
	return optionFunc(func(o *options) { o.endpoint.region = region })
}

// WithFIPS asks the endpoint rules for a FIPS endpoint (AWS::UseFIPS).
// Without it, an AWS service with no endpoint given takes
// AWS_USE_FIPS_ENDPOINT or the profile's use_fips_endpoint.
func WithFIPS(on bool) Option {
	return optionFunc(func(o *options) { o.endpoint.fips = &on })
}

// WithDualStack asks the endpoint rules for a dual-stack (IPv4 and IPv6)
// endpoint (AWS::UseDualStack). Without it, an AWS service with no
// endpoint given takes AWS_USE_DUALSTACK_ENDPOINT or the profile's
// use_dualstack_endpoint.
func WithDualStack(on bool) Option {
	return optionFunc(func(o *options) { o.endpoint.dualStack = &on })
}

// WithEndpointParams sets endpoint rule-set parameters by name (the
// service's clientContextParams, or any parameter such as ForcePathStyle
// or AccountId): values are string, bool or []string ("true" and "false"
// for a boolean parameter too). An unknown name or a value of the wrong
// type makes New fail.
func WithEndpointParams(params map[string]any) Option {
	return optionFunc(func(o *options) {
		if o.endpoint.params == nil {
			o.endpoint.params = map[string]any{}
		}
		for k, v := range params {
			o.endpoint.params[k] = v
		}
	})
}

// WithBuiltIn sets an endpoint rules built-in by its name
// ("AWS::S3::ForcePathStyle", "AWS::Auth::AccountId", ...); a built-in the
// service's rules do not use is ignored.
func WithBuiltIn(name string, value any) Option {
	return optionFunc(func(o *options) {
		if o.endpoint.builtIns == nil {
			o.endpoint.builtIns = map[string]any{}
		}
		o.endpoint.builtIns[name] = value
	})
}

// endpointCacheSize bounds a client's resolved endpoints, least recently
// used first out (the AWS SDKs for Java keep 100 per client).
const endpointCacheSize = 100

// endpointRules is what a client keeps to resolve endpoints per call.
type endpointRules struct {
	svc  *endpoints.Service
	base *endpoints.Params // built-ins and client parameters
	// cache holds the rules' outcomes by the complete set of parameter
	// values (Params.AppendKey): the rules are a pure function of them, so
	// a call whose region, bucket, flags and context parameters were seen
	// before skips the rules engine. Entries are never handed out: each
	// use gets its copy; endpointCacheSize entries at most.
	cache lru.Cache[string, *endpointOutcome]
	evals atomic.Int64 // rule evaluations (tests count them)
}

// endpointOutcome is the rules' answer for one set of parameter values:
// the endpoint and what a call makes of it, or the rules' error.
type endpointOutcome struct {
	ep  *endpoints.Endpoint
	r   *resolved
	err error
}

// resolve returns the outcome of the rules for p, from the cache when the
// same values were resolved before. Only the rules' own errors
// (*endpoints.RuleError: an invalid bucket name, a missing region) are
// kept, as the pure results they are.
func (er *endpointRules) resolve(p *endpoints.Params) (*endpointOutcome, error) {
	key := string(p.AppendKey(nil))
	if o, ok := er.cache.Get(key); ok {
		return o, nil
	}
	er.evals.Add(1)
	ep, err := er.svc.RuleSet.Resolve(p)
	if err != nil {
		var re *endpoints.RuleError
		if !errors.As(err, &re) {
			return nil, err
		}
		o := &endpointOutcome{err: err}
		er.cache.Add(key, o)
		return o, nil
	}
	o := &endpointOutcome{ep: ep}
	u, err := parseEndpoint(ep.URL)
	if err != nil {
		o.err = fmt.Errorf("endpoint rules: resolved %w", err)
	} else {
		trimPath(u)
		o.r = &resolved{base: u, headers: ep.Headers, signing: sigV4Override(ep.Properties)}
		if o.r.signing.express {
			o.r.signing.bucket = p.Get("Bucket").Str()
		}
	}
	er.cache.Add(key, o)
	return o, nil
}

// endpoint returns a copy of the rules' endpoint (Properties is a
// model.Node, which has no setters, so it is shared).
func (o *endpointOutcome) endpoint() *endpoints.Endpoint {
	ep := *o.ep
	ep.Headers = cloneHeaders(ep.Headers)
	return &ep
}

// clone returns a copy of r that its call may change freely.
func (r *resolved) clone() *resolved {
	c := *r
	u := *r.base
	c.base = &u
	c.headers = cloneHeaders(r.headers)
	c.signing.regionSet = slices.Clone(r.signing.regionSet) // nil (SigV4) stays nil
	return &c
}

func cloneHeaders(h map[string][]string) map[string][]string {
	if h == nil {
		return nil
	}
	c := make(map[string][]string, len(h))
	for k, v := range h {
		c[k] = slices.Clone(v)
	}
	return c
}

// setupEndpoint decides how the client finds its endpoint: the rules when
// the service has them (the explicit endpoint, if any, is their
// SDK::Endpoint), else the explicit endpoint.
func setupEndpoint(m *model.Model, svc *model.Service, endpoint string, o *endpointOptions) (*url.URL, *endpointRules, error) {
	var fixed *url.URL
	if endpoint != "" {
		u, err := parseEndpoint(endpoint)
		if err != nil {
			return nil, nil, err
		}
		trimPath(u)
		fixed = u
	}
	if !endpoints.HasRules(svc.Shape) {
		if fixed == nil {
			return nil, nil, fmt.Errorf("no endpoint given, and service %s has no endpoint rules (smithy.rules#endpointRuleSet) to find one: give the endpoint URL", svc.Shape.ID)
		}
		return fixed, nil, nil
	}
	es, err := endpoints.ForService(m, svc)
	if err != nil {
		if fixed != nil {
			return fixed, nil, nil // the explicit endpoint does without the broken rules
		}
		return nil, nil, err
	}
	rs := es.RuleSet
	if fixed != nil {
		if _, ok := rs.ParamForBuiltIn("SDK::Endpoint"); !ok {
			return fixed, nil, nil
		}
	}
	p := rs.NewParams()
	setBuiltIn := func(name string, v endpoints.Value) error {
		_, err := p.SetBuiltIn(name, v)
		return err
	}
	if region := o.region; region != "" {
		if err := endpoints.CheckRegion(region); err != nil {
			return nil, nil, err
		}
		if err := setBuiltIn("AWS::Region", endpoints.String(region)); err != nil {
			return nil, nil, err
		}
	}
	if fixed != nil {
		if err := setBuiltIn("SDK::Endpoint", endpoints.String(endpoint)); err != nil {
			return nil, nil, err
		}
	}
	if o.fips != nil {
		if err := setBuiltIn("AWS::UseFIPS", endpoints.Bool(*o.fips)); err != nil {
			return nil, nil, err
		}
	}
	if o.dualStack != nil {
		if err := setBuiltIn("AWS::UseDualStack", endpoints.Bool(*o.dualStack)); err != nil {
			return nil, nil, err
		}
	}
	for _, name := range sortedKeys(o.builtIns) {
		v, err := endpointValue(o.builtIns[name])
		if err != nil {
			return nil, nil, fmt.Errorf("built-in %s: %w", name, err)
		}
		if err := setBuiltIn(name, v); err != nil {
			return nil, nil, err
		}
	}
	for _, name := range sortedKeys(o.params) {
		v, err := endpointValue(o.params[name])
		if err != nil {
			return nil, nil, fmt.Errorf("endpoint parameter %s: %w", name, err)
		}
		// "true" and "false" stand for booleans (from the command line).
		if prm, ok := rs.Param(name); ok && prm.Type == "boolean" && v.Kind() == endpoints.StringKind {
			switch v.Str() {
			case "true", "false":
				v = endpoints.Bool(v.Str() == "true")
			}
		}
		if err := p.Set(name, v); err != nil {
			return nil, nil, err
		}
	}
	if fixed == nil && !p.Get("Region").IsSet() && !p.Get("Endpoint").IsSet() {
		if _, ok := rs.ParamForBuiltIn("AWS::Region"); ok {
			return nil, nil, fmt.Errorf("service %s: give a region (WithRegion, AWS_REGION, a profile's region) or an endpoint URL", svc.Shape.ID)
		}
	}
	return fixed, &endpointRules{svc: es, base: p, cache: lru.Cache[string, *endpointOutcome]{MaxEntries: endpointCacheSize}}, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// endpointValue converts an option value to a rules value.
func endpointValue(v any) (endpoints.Value, error) {
	switch x := v.(type) {
	case string:
		return endpoints.String(x), nil
	case bool:
		return endpoints.Bool(x), nil
	case []string:
		return endpoints.StringArray(x), nil
	case nil:
		return endpoints.Null, nil
	}
	return endpoints.Null, fmt.Errorf("%T is not a string, bool or []string", v)
}

// resolved is one call's endpoint.
type resolved struct {
	base    *url.URL
	headers map[string][]string
	signing signingOverride
}

// signingOverride is what the endpoint's authSchemes say about SigV4.
type signingOverride struct {
	name, region string
	// regionSet, when set, is SigV4a's signingRegionSet: the endpoint
	// chose sigv4a.
	regionSet []string
	// unsupported names the auth schemes offered when none can be used.
	unsupported string
	// express: the endpoint chose sigv4-s3express, for this bucket (the
	// Bucket endpoint parameter).
	express bool
	bucket  string
}

// trimPath removes the trailing slashes of an endpoint's path and keeps its
// percent-encoding as written: url.URL.EscapedPath re-encodes a path it has
// no raw form of, leaving RFC 3986's reserved characters bare, so S3's
// uriEncode(Bucket) "a%2Cb" would be sent as "a,b".
func trimPath(u *url.URL) {
	raw := strings.TrimRight(u.EscapedPath(), "/")
	if p, err := url.PathUnescape(raw); err == nil {
		u.Path, u.RawPath = p, raw
		return
	}
	u.Path, u.RawPath = strings.TrimRight(u.Path, "/"), ""
}

// resolveEndpoint runs the rules for one call of op with its input, in
// region when it is not "" (else the client's).
func (c *Client) resolveEndpoint(op *model.Operation, input []byte, region string) (*resolved, error) {
	return c.resolveEndpointOf(op, input, nil, region)
}

// resolveEndpointOf is resolveEndpoint with the input's members as the
// codec split them (split; nil: split input here).
func (c *Client) resolveEndpointOf(op *model.Operation, input []byte, split *wire.Members, region string) (*resolved, error) {
	p, err := c.endpointParams(op, input, split)
	if err != nil {
		return nil, err
	}
	if region != "" {
		p = p.Clone()
		if _, err := p.SetBuiltIn("AWS::Region", endpoints.String(region)); err != nil {
			return nil, err
		}
	}
	o, err := c.rules.resolve(p)
	if err != nil {
		return nil, err
	}
	if o.err != nil {
		return nil, o.err
	}
	return o.r.clone(), nil
}

// endpointParams are the client's parameters with op's bindings applied
// to input, whose top-level members are split (as the codec split and
// checked them; nil: read from input here, unchecked).
func (c *Client) endpointParams(op *model.Operation, input []byte, split *wire.Members) (*endpoints.Params, error) {
	p := c.rules.base
	b := c.rules.svc.Operation(op)
	if !b.UsesInput() && !b.HasStatic() {
		return p, nil
	}
	p = p.Clone()
	doc := model.Null()
	if b.UsesInput() && len(bytes.TrimSpace(input)) > 0 {
		text := "{}"
		if roots, ok := b.Roots(); !ok {
			text = string(input) // a path that starts elsewhere reads it all
		} else {
			// Only the members the bindings read: an S3 PutObject's body
			// is neither copied nor parsed for its Bucket.
			var sub []byte
			add := func(name string, raw []byte) bool {
				if slices.Contains(roots, name) {
					if len(sub) == 0 {
						sub = append(sub, '{')
					} else {
						sub = append(sub, ',')
					}
					sub = jsonstr.Append(sub, name)
					sub = append(append(sub, ':'), raw...)
				}
				return true
			}
			if split != nil {
				for _, name := range roots {
					if raw := split.Get(name); raw != nil {
						add(name, raw)
					}
				}
			} else if err := protocol.Members(input, add); err != nil {
				return nil, fmt.Errorf("endpoint parameters from the input: %v", err)
			}
			if len(sub) > 0 {
				text = string(append(sub, '}'))
			}
		}
		var err error
		if doc, err = model.ParseJSONNode(text); err != nil {
			return nil, fmt.Errorf("endpoint parameters from the input: %v", err)
		}
	}
	if err := b.Apply(p, doc); err != nil {
		return nil, err
	}
	return p, nil
}

// sigV4Override reads the endpoint's authSchemes: the first one smithycurl
// signs with (sigv4, sigv4a, sigv4-s3express), its signingName and
// signingRegion, or signingRegionSet for sigv4a (the signing region when
// the set is missing).
func sigV4Override(props model.Node) signingOverride {
	schemes, ok := props.Get("authSchemes")
	if !ok {
		return signingOverride{}
	}
	var names []string
	for _, s := range schemes.Items() {
		name, _ := s.Get("name")
		names = append(names, name.Str())
		sn, _ := s.Get("signingName")
		sr, _ := s.Get("signingRegion")
		switch name.Str() {
		case "sigv4", "sigv4-s3express":
			return signingOverride{name: sn.Str(), region: sr.Str(), express: name.Str() == "sigv4-s3express"}
		case "sigv4a":
			o := signingOverride{name: sn.Str(), region: sr.Str(), regionSet: []string{}}
			set, _ := s.Get("signingRegionSet")
			for _, r := range set.Items() {
				o.regionSet = append(o.regionSet, r.Str())
			}
			return o
		}
	}
	if len(names) > 0 {
		return signingOverride{unsupported: strings.Join(names, ", ")}
	}
	return signingOverride{}
}

// applyEndpointHeaders adds the headers the rules gave.
func applyEndpointHeaders(req *transport.Request, h map[string][]string) {
	for k, vals := range h {
		req.Header.Del(k)
		for _, v := range vals {
			req.Header.Add(k, v)
		}
	}
}

// ResolveEndpoint returns the endpoint a call of operation with input
// would go to: the rules' URL, headers and properties (authSchemes), or
// the fixed endpoint of a client without rules. Errors are *Error.
func (c *Client) ResolveEndpoint(operation string, input []byte) (*endpoints.Endpoint, error) {
	op, err := c.svc.Operation(operation)
	if err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	if c.rules == nil {
		return &endpoints.Endpoint{URL: c.endpoint.String(), Properties: model.Object()}, nil
	}
	p, err := c.endpointParams(op, input, nil)
	if err != nil {
		return nil, usageError(op.Shape.ID, "%v", err)
	}
	o, err := c.rules.resolve(p)
	if err == nil && o.ep == nil {
		err = o.err
	}
	if err != nil {
		return nil, usageError(op.Shape.ID, "%v", err)
	}
	return o.endpoint(), nil // even one whose URL a call could not use
}
