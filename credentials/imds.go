package credentials

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// botocore's IMDS defaults.
const (
	imdsEndpointIPv4 = "http://169.254.169.254/"
	imdsEndpointIPv6 = "http://[fd00:ec2::254]/"
	imdsTimeout      = time.Second
	imdsTokenTTL     = "21600"
	imdsRolePath     = "latest/meta-data/iam/security-credentials/"
	// imdsRefreshWindow is botocore's ec2_credential_refresh_window (its
	// advisory refresh window).
	imdsRefreshWindow = 15 * time.Minute
)

// InstanceMetadata returns the provider of an EC2 instance's role
// credentials from IMDS, as botocore's InstanceMetadataFetcher: a token
// (PUT latest/api/token), the role name, then the role's credentials,
// each request one attempt of 1 s. A token request answered 403, 404 or
// 405, timed out or failed falls back to IMDSv1 (no token) unless
// ec2_metadata_v1_disabled; a 400 is ErrNotFound. Unreachable IMDS,
// non-200 answers (redirects included), empty or garbled ones and
// credentials without their four fields are ErrNotFound, so the chain
// moves on. Settings, the environment first, then the profile (opts.Profile
// or the config's, of opts.Config or awsconfig.Load(env)):
// AWS_EC2_METADATA_DISABLED (environment only), AWS_EC2_METADATA_SERVICE_ENDPOINT
// / ec2_metadata_service_endpoint, AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE /
// ec2_metadata_service_endpoint_mode (ipv4, ipv6), AWS_IMDS_USE_IPV6 /
// imds_use_ipv6, AWS_EC2_METADATA_V1_DISABLED / ec2_metadata_v1_disabled,
// AWS_METADATA_SERVICE_TIMEOUT / metadata_service_timeout (seconds;
// opts.Timeout wins), AWS_METADATA_SERVICE_NUM_ATTEMPTS /
// metadata_service_num_attempts.
func InstanceMetadata(env awsconfig.Env, opts Options) identity.Provider[identity.AWS] {
	return &imdsProvider{env: env, opts: opts}
}

type imdsProvider struct {
	env  awsconfig.Env
	opts Options
}

// imdsSettings are the IMDS settings resolved.
type imdsSettings struct {
	disabled   bool
	base       string // ends with "/"
	v1Disabled bool
	timeout    time.Duration
	attempts   int
}

func (p *imdsProvider) Retrieve(ctx context.Context) (identity.AWS, error) {
	s, err := imdsConfig(p.env, p.opts)
	if err != nil {
		return identity.AWS{}, fmt.Errorf("instance metadata: %w", err)
	}
	return s.retrieve(ctx, &p.opts)
}

// imdsConfig resolves the settings as botocore's config store does: the
// environment, then the profile, then the default.
func imdsConfig(env awsconfig.Env, opts Options) (imdsSettings, error) {
	s := imdsSettings{base: imdsEndpointIPv4, timeout: imdsTimeout, attempts: 1}
	s.disabled = strings.EqualFold(env.Get("AWS_EC2_METADATA_DISABLED"), "true")
	cfg, err := opts.config(env)
	if err != nil {
		return s, err
	}
	name := opts.profileName(cfg)
	prof := cfg.Profile(name)
	get := func(variable, key string) (v, where string, ok bool) {
		if v, ok := env.Var(variable); ok {
			return v, variable, true
		}
		if v, ok := prof.Get(key); ok {
			return v, fmt.Sprintf("profile %s (%s) %s", name, prof.Where(key), key), true
		}
		return "", "", false
	}
	ipv6 := false
	if mode, where, ok := get("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", "ec2_metadata_service_endpoint_mode"); ok {
		switch strings.ToLower(mode) {
		case "ipv4":
		case "ipv6":
			ipv6 = true
		default:
			return s, fmt.Errorf("%s: the mode is not ipv4 or ipv6", where)
		}
	} else if v, _, ok := get("AWS_IMDS_USE_IPV6", "imds_use_ipv6"); ok {
		ipv6 = strings.EqualFold(v, "true")
	}
	if ipv6 {
		s.base = imdsEndpointIPv6
	}
	// A custom endpoint wins over the mode, as in botocore.
	if ep, where, ok := get("AWS_EC2_METADATA_SERVICE_ENDPOINT", "ec2_metadata_service_endpoint"); ok && ep != "" {
		u, err := url.Parse(ep)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || checkText(where, ep) != nil {
			return s, fmt.Errorf("%s is not an http or https URL", where)
		}
		s.base = strings.TrimSuffix(ep, "/") + "/"
	}
	if v, _, ok := get("AWS_EC2_METADATA_V1_DISABLED", "ec2_metadata_v1_disabled"); ok {
		s.v1Disabled = strings.EqualFold(v, "true")
	}
	if v, where, ok := get("AWS_METADATA_SERVICE_TIMEOUT", "metadata_service_timeout"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return s, fmt.Errorf("%s is not a whole number of seconds", where)
		}
		s.timeout = time.Duration(n) * time.Second
	}
	if opts.Timeout > 0 {
		s.timeout = opts.Timeout
	}
	if v, where, ok := get("AWS_METADATA_SERVICE_NUM_ATTEMPTS", "metadata_service_num_attempts"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 10 {
			return s, fmt.Errorf("%s is not a number of attempts from 1 to 10", where)
		}
		s.attempts = n
	}
	return s, nil
}

// errIMDSBadRequest is a token request answered 400.
var errIMDSBadRequest = errors.New("the token request was refused (400)")

func (s imdsSettings) retrieve(ctx context.Context, opts *Options) (identity.AWS, error) {
	if s.disabled {
		return identity.AWS{}, fmt.Errorf("instance metadata: AWS_EC2_METADATA_DISABLED is true: %w", ErrNotFound)
	}
	shown := strings.TrimSuffix(s.base, "/")
	fail := func(err error) (identity.AWS, error) {
		if ctx.Err() != nil {
			return identity.AWS{}, fmt.Errorf("instance metadata (%s): %w", shown, ctx.Err())
		}
		return identity.AWS{}, fmt.Errorf("instance metadata (%s): %w: %w", shown, err, ErrNotFound)
	}
	t, err := metadataTransport(false)
	if err != nil {
		return identity.AWS{}, err
	}
	defer t.Close()
	token, err := s.token(ctx, t)
	if err != nil {
		return fail(err)
	}
	if token == "" && s.v1Disabled {
		return identity.AWS{}, fmt.Errorf("instance metadata (%s): no IMDSv2 token, and IMDSv1 is disabled (ec2_metadata_v1_disabled)", shown)
	}
	body, err := s.get(ctx, t, imdsRolePath, token, false)
	if err != nil {
		return fail(fmt.Errorf("role name: %w", err))
	}
	role := string(body)
	if strings.ContainsAny(role, "/\\") || checkText("role name", role) != nil {
		return fail(errors.New("role name: the answer is not a role name"))
	}
	where := fmt.Sprintf("instance metadata (%s, role %s)", shown, role)
	body, err = s.get(ctx, t, imdsRolePath+url.PathEscape(role), token, true)
	if err != nil {
		if ctx.Err() != nil {
			return identity.AWS{}, fmt.Errorf("%s: %w", where, ctx.Err())
		}
		return identity.AWS{}, fmt.Errorf("%s: %w: %w", where, err, ErrNotFound)
	}
	c, missing, code, err := metadataCreds(body)
	switch {
	case missing != "":
		msg := fmt.Sprintf("%s: %s missing from the answer", where, missing)
		if code != "" {
			msg += " (Code " + code + ")"
		}
		return identity.AWS{}, fmt.Errorf("%s: %w", msg, ErrNotFound)
	case err != nil:
		return identity.AWS{}, fmt.Errorf("%s: %w", where, err)
	}
	c.Source = where
	c.Expires = extendExpiry(c.Expires, opts.now())
	return c, nil
}

// extendExpiry is botocore's static stability: credentials IMDS serves
// expired or about to expire (an IMDS outage) are used for 17 to 25 more
// minutes rather than refreshed at once.
func extendExpiry(exp, now time.Time) time.Time {
	offset := imdsRefreshWindow + time.Duration(120+rand.IntN(481))*time.Second
	if !now.Before(exp.Add(-offset)) {
		return now.Add(offset)
	}
	return exp
}

// token asks for an IMDSv2 token as botocore does: "" (IMDSv1) after a 403,
// 404 or 405, a timeout or the last failed attempt; an error after a 400.
func (s imdsSettings) token(ctx context.Context, t *transport.Curl) (string, error) {
	header := wire.Header{"X-Aws-Ec2-Metadata-Token-Ttl-Seconds": {imdsTokenTTL}}
	for i := 0; i < s.attempts && ctx.Err() == nil; i++ {
		resp, err := metadataCall(ctx, t, "PUT", s.base+"latest/api/token", "", header, s.timeout)
		if err != nil {
			var te *transport.Error
			if errors.As(err, &te) && te.Kind == transport.KindTimeout {
				return "", nil
			}
			continue
		}
		switch resp.Status {
		case 200:
			tok := string(resp.Body)
			if checkText("token", tok) != nil {
				return "", nil
			}
			return tok, nil
		case 403, 404, 405:
			return "", nil
		case 400:
			return "", errIMDSBadRequest
		}
	}
	return "", nil
}

// get is botocore's _get_request: attempts until a 200 with a body (and,
// for credentials, a JSON one).
func (s imdsSettings) get(ctx context.Context, t *transport.Curl, path, token string, wantJSON bool) ([]byte, error) {
	header := wire.Header{}
	if token != "" {
		header.Set("X-Aws-Ec2-Metadata-Token", token)
	}
	var last error
	for i := 0; i < s.attempts && ctx.Err() == nil; i++ {
		var body []byte
		if body, last = metadataFetch(ctx, t, "GET", s.base+path, s.base+path, header, s.timeout, wantJSON); last == nil {
			return body, nil
		}
	}
	if last == nil {
		last = ctx.Err()
	}
	return nil, last
}
