package credentials

import (
	"fmt"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
)

// WebIdentityFromEnv returns the provider of AWS_WEB_IDENTITY_TOKEN_FILE,
// AWS_ROLE_ARN and AWS_ROLE_SESSION_NAME (IRSA, EKS pod identity's web
// identity form): STS AssumeRoleWithWebIdentity, unsigned. As botocore
// does, a role ARN or session name the environment lacks is taken from
// the profile (opts.Profile, else the configuration's); a profile's own
// web_identity_token_file is FromProfile's. The error wraps ErrNotFound
// when AWS_WEB_IDENTITY_TOKEN_FILE is not set; a token file without a
// role ARN is an error.
func WebIdentityFromEnv(env awsconfig.Env, opts Options) (identity.Provider[identity.AWS], error) {
	file := env.Get("AWS_WEB_IDENTITY_TOKEN_FILE")
	if file == "" {
		return nil, fmt.Errorf("assume-role-with-web-identity: AWS_WEB_IDENTITY_TOKEN_FILE is not set: %w", ErrNotFound)
	}
	cfg, err := opts.config(env)
	if err != nil {
		return nil, err
	}
	profile := opts.profileName(cfg)
	p := cfg.Profile(profile)
	get := func(v, key string) (string, string) {
		if s := env.Get(v); s != "" {
			return s, v
		}
		if s, _ := p.Get(key); s != "" {
			return s, fmt.Sprintf("profile %s (%s)", profile, p.Where(key))
		}
		return "", ""
	}
	role, _ := get("AWS_ROLE_ARN", "role_arn")
	if role == "" {
		return nil, fmt.Errorf("assume-role-with-web-identity: AWS_WEB_IDENTITY_TOKEN_FILE is set but no role ARN is (AWS_ROLE_ARN, or role_arn in profile %s)", profile)
	}
	name, _ := get("AWS_ROLE_SESSION_NAME", "role_session_name")
	if name == "" {
		name = defaultSessionName(&opts)
	}
	ep, _, err := stsEndpoint(cfg, opts.Profile, &opts)
	if err != nil {
		return nil, err
	}
	return &webIdentity{ep: ep, tokenFile: env.Path(file), roleARN: role, sessionName: name, opts: opts, where: "AWS_WEB_IDENTITY_TOKEN_FILE"}, nil
}

// profileWebIdentity is the web identity provider of a profile with
// web_identity_token_file and role_arn.
func (r *resolver) profileWebIdentity(name string, p *awsconfig.Profile) (identity.Provider[identity.AWS], error) {
	file, _ := p.Get("web_identity_token_file")
	where := r.where(name, p, "web_identity_token_file")
	role, _ := p.Get("role_arn")
	if role == "" {
		return nil, fmt.Errorf("assume-role-with-web-identity: %s: web_identity_token_file is set but role_arn is not", where)
	}
	sessionName, _ := p.Get("role_session_name")
	if sessionName == "" {
		sessionName = defaultSessionName(&r.opts)
	}
	return &webIdentity{ep: r.sts, tokenFile: r.cfg.Env.Path(file), roleARN: role,
		sessionName: sessionName, opts: r.opts, where: where}, nil
}
