package credentials

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
)

// DefaultChain returns botocore's default credential chain: the
// environment (skipped when opts.Profile is set, as botocore skips it for
// a profile given explicitly), the profile's role (role_arn with
// source_profile or credential_source), web identity from
// AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN (skipped with opts.Profile
// too), the rest of the profile (web_identity_token_file, SSO, the
// credentials file's keys, credential_process, the config file's keys),
// the container endpoint, instance metadata. The first provider whose
// error does not wrap ErrNotFound answers; the chain then keeps using it
// (its errors are the chain's), as botocore's session keeps the
// credentials it resolved. An error before then stops the chain and the
// next Retrieve resolves again. With no credentials anywhere the error
// lists what was tried and wraps ErrNotFound. As in botocore, a profile
// named (opts.Profile, AWS_PROFILE...) that neither file has, a malformed
// file or bad instance metadata settings fail the chain before it tries
// anything. botocore's boto2 sources (AWS_CREDENTIAL_FILE, /etc/boto.cfg)
// and `aws login` profiles are not read.
func DefaultChain(opts Options) identity.Provider[identity.AWS] {
	return &chain{opts: opts, lock: make(chan struct{}, 1)}
}

type chain struct {
	opts   Options
	lock   chan struct{} // held while resolving: one resolution at a time
	chosen atomic.Pointer[identity.Provider[identity.AWS]]
}

func (c *chain) Retrieve(ctx context.Context) (identity.AWS, error) {
	if p := c.chosen.Load(); p != nil {
		return (*p).Retrieve(ctx)
	}
	select {
	case c.lock <- struct{}{}:
	case <-ctx.Done():
		return identity.AWS{}, fmt.Errorf("credential chain: %w", ctx.Err())
	}
	if p := c.chosen.Load(); p != nil {
		<-c.lock
		return (*p).Retrieve(ctx)
	}
	defer func() { <-c.lock }()
	creds, p, err := c.resolve(ctx)
	if err != nil {
		return identity.AWS{}, err
	}
	c.chosen.Store(&p)
	return creds, nil
}

// chainStep is one provider of the chain, built when reached.
type chainStep func() (identity.Provider[identity.AWS], error)

func (c *chain) resolve(ctx context.Context) (identity.AWS, identity.Provider[identity.AWS], error) {
	opts := c.opts
	cfg, err := opts.config(awsconfig.Env{})
	if err != nil {
		return identity.AWS{}, nil, fmt.Errorf("credential chain: %w", err)
	}
	opts.Config = cfg
	env := cfg.Env
	name, explicit := opts.profileName(cfg), opts.Profile != ""
	// A profile named anywhere (even "default") must exist, as botocore's
	// ProfileNotFound; the implicit default may be absent.
	named := explicit || env.Get("AWS_PROFILE") != "" || env.Get("AWS_DEFAULT_PROFILE") != ""
	if named && !cfg.HasProfile(name) {
		return identity.AWS{}, nil, fmt.Errorf("credential chain: profile %s is not in %s or %s", name, cfg.ConfigFile, cfg.CredentialsFile)
	}
	if _, err := imdsConfig(env, opts); err != nil {
		return identity.AWS{}, nil, fmt.Errorf("credential chain: instance metadata: %w", err)
	}
	fixed := func(p identity.Provider[identity.AWS]) chainStep {
		return func() (identity.Provider[identity.AWS], error) { return p, nil }
	}
	profile := func() (identity.Provider[identity.AWS], error) { return FromProfile(cfg, name, opts) }
	webIdentity := func() (identity.Provider[identity.AWS], error) { return WebIdentityFromEnv(env, opts) }
	// botocore's AssumeRole provider comes before web identity, the
	// profile's other providers after it.
	assumeRole := isAssumeRole(cfg.Profile(name))
	var steps []chainStep
	if !explicit {
		steps = append(steps, fixed(Environment(env)))
	}
	if assumeRole {
		steps = append(steps, profile)
	}
	if !explicit {
		steps = append(steps, webIdentity)
	}
	if !assumeRole {
		steps = append(steps, profile)
	}
	steps = append(steps, fixed(Container(env, opts)), fixed(InstanceMetadata(env, opts)))

	var tried []string
	for _, step := range steps {
		p, err := step()
		if err == nil {
			var creds identity.AWS
			if creds, err = p.Retrieve(ctx); err == nil {
				return creds, p, nil
			}
		}
		if !errors.Is(err, ErrNotFound) {
			return identity.AWS{}, nil, err
		}
		tried = append(tried, strings.TrimSuffix(err.Error(), ": "+ErrNotFound.Error()))
	}
	return identity.AWS{}, nil, fmt.Errorf("no AWS credentials found; tried %s: %w", strings.Join(tried, "; "), ErrNotFound)
}
