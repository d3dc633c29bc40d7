// Package credentials resolves AWS credentials the way the AWS SDKs do:
// the default chain (explicit, environment, web identity, the shared files'
// profile, container, instance metadata) and each provider on its own.
// Providers that call AWS (STS, SSO, SSO-OIDC, the container and instance
// metadata endpoints) use this module's codecs, signer and libcurl
// transport. A provider that does not apply returns an error wrapping
// ErrNotFound, and the chain moves on; any other error stops it, as
// botocore's resolver does. Messages name the provider, file, profile or
// variable, never a secret.
package credentials

import (
	"errors"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
)

// ErrNotFound is wrapped by a provider's error when it has nothing to give
// (its variables, files or endpoint are not there).
var ErrNotFound = errors.New("no credentials")

// Options tune the providers; the zero value is the SDKs' defaults.
type Options struct {
	// Config is the shared configuration (nil: awsconfig.Load of the
	// process's environment, read when first needed).
	Config *awsconfig.Config
	// Profile overrides AWS_PROFILE (an explicit profile, as --profile).
	Profile string
	// Region is the region STS and SSO are called in when a profile does
	// not say (botocore: the session's region).
	Region string
	// MFA returns the code for an MFA device (mfa_serial); nil: a profile
	// that needs one is refused with a clear message.
	MFA func(serial string) (string, error)
	// Timeout bounds each call to an endpoint (STS, SSO, container,
	// instance metadata); 0: the provider's default.
	Timeout time.Duration
	// Now is the clock (nil: time.Now), for tests of expiry.
	Now func() time.Time
}

func (o *Options) now() time.Time {
	if o != nil && o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// config is the shared configuration: Config, or else the files env names
// (awsconfig.Load), read now. The chain fills Config once per resolution,
// so its providers share one reading.
func (o *Options) config(env awsconfig.Env) (*awsconfig.Config, error) {
	if o.Config != nil {
		return o.Config, nil
	}
	return awsconfig.Load(env)
}

// profileName is the profile in use: Profile, else cfg's (AWS_PROFILE...).
func (o *Options) profileName(cfg *awsconfig.Config) string {
	if o.Profile != "" {
		return o.Profile
	}
	return cfg.ProfileName()
}
