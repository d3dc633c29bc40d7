package credentials

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
)

// FromProfile returns the provider profile name of the shared files
// describes, tried in botocore's order: role_arn without
// web_identity_token_file (AssumeRole from source_profile or
// credential_source), web_identity_token_file, SSO (sso_account_id or
// sso_role_name), static keys of the credentials file, credential_process,
// static keys of the config file. The error wraps ErrNotFound when the
// profile does not exist or gives no credentials; a profile that is
// wrong (partial keys, a source_profile cycle, a missing source) is an
// error that names the profile and file.
func FromProfile(cfg *awsconfig.Config, name string, opts Options) (identity.Provider[identity.AWS], error) {
	if cfg == nil {
		return nil, fmt.Errorf("profile %s: no shared configuration: %w", name, ErrNotFound)
	}
	p := cfg.Profile(name)
	if p == nil {
		return nil, fmt.Errorf("profile %s is not in %s or %s: %w", name, cfg.ConfigFile, cfg.CredentialsFile, ErrNotFound)
	}
	r := &resolver{cfg: cfg, opts: opts, profile: name, visited: []string{name}}
	var err error
	if r.sts, r.stsRegion, err = stsEndpoint(cfg, name, &opts); err != nil {
		return nil, err
	}
	if isAssumeRole(p) {
		return r.assumeRole(name, p)
	}
	prov, err := r.profileProviders(name, p)
	if err != nil {
		return nil, err
	}
	if prov == nil {
		return nil, fmt.Errorf("profile %s (%s, %s) has no credentials: %w", name, cfg.ConfigFile, cfg.CredentialsFile, ErrNotFound)
	}
	return prov, nil
}

// resolver follows one profile's role chain.
type resolver struct {
	cfg       *awsconfig.Config
	opts      Options
	profile   string   // the first profile, whose settings (endpoints, region) apply, as botocore's session's
	sts       target   // STS
	stsRegion string   // its signing region
	visited   []string // the profiles of the chain so far, in order
}

// isAssumeRole is botocore's test for the AssumeRole provider.
func isAssumeRole(p *awsconfig.Profile) bool {
	_, role := p.Get("role_arn")
	_, web := p.Get("web_identity_token_file")
	return role && !web
}

// hasStatic is botocore's test: either key present.
func hasStatic(p *awsconfig.Profile) bool {
	_, id := p.Get("aws_access_key_id")
	_, secret := p.Get("aws_secret_access_key")
	return id || secret
}

// where names a profile and where a key of it is set.
func (r *resolver) where(name string, p *awsconfig.Profile, key string) string {
	if w := p.Where(key); w != "" {
		return fmt.Sprintf("profile %s (%s)", name, w)
	}
	return "profile " + name
}

// profileProviders are botocore's profile providers after AssumeRole, in
// its order; nil when none applies.
func (r *resolver) profileProviders(name string, p *awsconfig.Profile) (identity.Provider[identity.AWS], error) {
	if _, ok := p.Get("web_identity_token_file"); ok {
		return r.profileWebIdentity(name, p)
	}
	_, account := p.Get("sso_account_id")
	_, role := p.Get("sso_role_name")
	if account || role {
		return r.sso(name, p)
	}
	inCreds := strings.HasPrefix(p.Where("aws_access_key_id"), r.cfg.CredentialsFile+":")
	if inCreds {
		return r.static(name, p)
	}
	if cmd, ok := p.Get("credential_process"); ok && cmd != "" {
		return Process(cmd, r.where(name, p, "credential_process"), r.opts), nil
	}
	if _, ok := p.Get("aws_access_key_id"); ok {
		return r.static(name, p)
	}
	return nil, nil
}

// static is a profile's keys; an access key id without a secret is an
// error, as in botocore.
func (r *resolver) static(name string, p *awsconfig.Profile) (identity.Provider[identity.AWS], error) {
	id, _ := p.Get("aws_access_key_id")
	secret, _ := p.Get("aws_secret_access_key")
	switch {
	case id == "":
		return nil, fmt.Errorf("%s: aws_access_key_id is empty", r.where(name, p, "aws_access_key_id"))
	case secret == "":
		return nil, fmt.Errorf("%s: aws_access_key_id is set but aws_secret_access_key is not", r.where(name, p, "aws_access_key_id"))
	}
	token, ok := p.Get("aws_session_token")
	if !ok {
		token, _ = p.Get("aws_security_token") // botocore's older name
	}
	method := "config-file"
	if strings.HasPrefix(p.Where("aws_access_key_id"), r.cfg.CredentialsFile+":") {
		method = "shared-credentials-file"
	}
	creds := identity.AWS{AccessKeyID: id, SecretAccessKey: secret, SessionToken: token, Source: method + ": " + r.where(name, p, "aws_access_key_id")}
	if err := checkCreds(creds); err != nil {
		return nil, fmt.Errorf("%s: %w", r.where(name, p, "aws_access_key_id"), err)
	}
	return identity.ProviderFunc[identity.AWS](func(context.Context) (identity.AWS, error) { return creds, nil }), nil
}

// assumeRole is the AssumeRole provider of profile name (which has
// role_arn), its source resolved now.
func (r *resolver) assumeRole(name string, p *awsconfig.Profile) (identity.Provider[identity.AWS], error) {
	where := r.where(name, p, "role_arn")
	roleARN, _ := p.Get("role_arn")
	srcProfile, hasSrc := p.Get("source_profile")
	credSource, hasCredSource := p.Get("credential_source")
	var src identity.Provider[identity.AWS]
	var err error
	srcName := "source_profile " + srcProfile
	switch {
	case hasSrc && hasCredSource:
		return nil, fmt.Errorf("%s: both source_profile and credential_source are set", where)
	case !hasSrc && !hasCredSource:
		return nil, fmt.Errorf("%s: role_arn needs source_profile or credential_source", where)
	case hasCredSource:
		srcName = "credential_source " + credSource
		src, err = r.credentialSource(name, p, credSource)
	default:
		src, err = r.sourceProfile(name, srcProfile)
	}
	if err != nil {
		return nil, err
	}
	// The source is cached, so a chain does not call STS once per link
	// each time.
	var clock []identity.CacheOption
	if r.opts.Now != nil {
		clock = append(clock, identity.WithClock(r.opts.Now))
	}
	a := &assumeRole{ep: r.sts, region: r.stsRegion, roleARN: roleARN, source: identity.NewCache(src, srcName, clock...),
		opts: r.opts, where: where}
	a.sessionName, _ = p.Get("role_session_name")
	if a.sessionName == "" {
		a.sessionName = defaultSessionName(&r.opts)
	}
	a.externalID, _ = p.Get("external_id")
	a.mfaSerial, _ = p.Get("mfa_serial")
	if a.mfaSerial != "" && r.opts.MFA == nil {
		return nil, fmt.Errorf("%s: mfa_serial is set (%s) but no MFA code callback was given (Options.MFA); smithycurl does not prompt", where, p.Where("mfa_serial"))
	}
	if d, ok := p.Get("duration_seconds"); ok {
		// botocore ignores a value that is not an integer.
		if n, err := strconv.Atoi(strings.TrimSpace(d)); err == nil {
			a.durationSeconds = n
		}
	}
	return a, nil
}

// sourceProfile resolves source_profile src of profile parent with
// botocore's rules: a profile already in the chain is a cycle, except a
// profile naming itself that has static keys (used for its keys); a
// source with static keys, or without role_arn, gives its credentials
// through the profile providers, else its own role is assumed.
func (r *resolver) sourceProfile(parent, src string) (identity.Provider[identity.AWS], error) {
	p := r.cfg.Profile(src)
	if p == nil {
		return nil, fmt.Errorf("profile %s: source_profile %s does not exist (%s)", parent, src, r.cfg.Profile(parent).Where("source_profile"))
	}
	for _, v := range r.visited {
		if v != src {
			continue
		}
		if src != parent || !hasStatic(p) {
			return nil, fmt.Errorf("source_profile cycle: %s -> %s (profile %s, %s)", strings.Join(r.visited, " -> "), src, parent, r.cfg.Profile(parent).Where("source_profile"))
		}
	}
	r.visited = append(r.visited, src)
	if hasStatic(p) || !isAssumeRole(p) {
		prov, err := r.profileProviders(src, p)
		if err != nil {
			return nil, err
		}
		if prov == nil {
			return nil, fmt.Errorf("profile %s: source_profile %s has no credentials", parent, src)
		}
		return prov, nil
	}
	return r.assumeRole(src, p)
}

// credentialSource is a role's credential_source provider.
func (r *resolver) credentialSource(name string, p *awsconfig.Profile, source string) (identity.Provider[identity.AWS], error) {
	env := r.cfg.Env
	switch source {
	case "Environment":
		return Environment(env), nil
	case "Ec2InstanceMetadata":
		return InstanceMetadata(env, r.opts), nil
	case "EcsContainer":
		return Container(env, r.opts), nil
	}
	return nil, fmt.Errorf("%s: credential_source %q is not one of Environment, Ec2InstanceMetadata, EcsContainer", r.where(name, p, "credential_source"), source)
}
