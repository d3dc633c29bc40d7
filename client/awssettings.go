package client

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/model"
)

// WithProfile reads the AWS settings (and credentials) of the named
// profile of the shared config and credentials files instead of
// AWS_PROFILE's or default; it must exist.
func WithProfile(name string) Option {
	return optionFunc(func(o *options) { o.profile = name })
}

// WithAWSConfig reads the AWS settings from c instead of loading the
// shared files and environment in New: clients can share one, and tests
// give one over a temporary home folder (awsconfig.Env).
func WithAWSConfig(c *awsconfig.Config) Option {
	return optionFunc(func(o *options) { o.awsConfig = c })
}

// WithEnv reads the AWS settings and credentials from env's variables and
// home folder when WithAWSConfig is not given; the zero Env is the
// process's (os.LookupEnv). The C library passes the C environment, so that
// setenv, putenv and Python's os.environ after it loaded are seen.
func WithEnv(env awsconfig.Env) Option {
	return optionFunc(func(o *options) { o.env = env })
}

// AWSSettings returns the AWS settings New would read for svc with opts
// (of which WithProfile and WithAWSConfig count), before the other options
// override them; ok is false for a service that reads none.
func AWSSettings(svc *model.Service, opts ...Option) (s awsconfig.Settings, ok bool, err error) {
	if !usesAWSSettings(svc) {
		return s, false, nil
	}
	var o options
	for _, opt := range opts {
		opt.apply(&o)
	}
	s, err = o.awsSettings(svc)
	return s, true, err
}

// usesAWSSettings reports whether a service reads the AWS settings: it
// signs with SigV4 or is an AWS service (aws.api#service).
func usesAWSSettings(svc *model.Service) bool {
	return svc.Shape.HasTrait(model.TraitSigV4) || svc.Shape.HasTrait(traitAWSService)
}

// awsSettings resolves the AWS settings of svc for o. The configuration
// it loads stays in o.awsConfig, for the credentials to read too.
func (o *options) awsSettings(svc *model.Service) (awsconfig.Settings, error) {
	cfg := o.awsConfig
	if cfg == nil {
		var err error
		if cfg, err = awsconfig.Load(o.env); err != nil {
			return awsconfig.Settings{}, err
		}
		o.awsConfig = cfg
	}
	var sdkID string
	if t, ok := svc.Shape.Trait(traitAWSService); ok {
		id, _ := t.Get("sdkId")
		sdkID = id.Str()
	}
	return cfg.Settings(o.profile, sdkID)
}

// applyAWSSettings fills what the caller did not give from the AWS
// settings and returns the endpoint to use. Errors name where a bad value
// is set, never the value.
func (o *options) applyAWSSettings(s awsconfig.Settings, endpoint string) (string, error) {
	if o.endpoint.region == "" && s.Region.IsSet() {
		if endpoints.CheckRegion(s.Region.V) != nil {
			return "", fmt.Errorf("%s is not a valid region name (letters, digits and hyphens, dot-separated)", s.Region.Place("region"))
		}
		o.endpoint.region = s.Region.V
	}
	if endpoint == "" && s.EndpointURL.IsSet() {
		if _, err := parseEndpoint(s.EndpointURL.V); err != nil {
			return "", fmt.Errorf("%s must be an absolute http:// or https:// URL without a user, query or fragment", s.EndpointURL.Place("endpoint_url"))
		}
		endpoint = s.EndpointURL.V
	}
	// As botocore: FIPS and dual-stack settings do not apply to an endpoint
	// given or configured (the rules would refuse the pair).
	if endpoint == "" {
		if o.endpoint.fips == nil && s.UseFIPS.IsSet() {
			o.endpoint.fips = &s.UseFIPS.V
		}
		if o.endpoint.dualStack == nil && s.UseDualStack.IsSet() {
			o.endpoint.dualStack = &s.UseDualStack.V
		}
	}
	if o.custom == nil && o.transport.CAFile == "" && s.CABundle.IsSet() {
		if _, err := os.Stat(s.CABundle.V); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // without the path
			}
			return "", fmt.Errorf("%s: the CA bundle cannot be read: %v", s.CABundle.Place("ca_bundle"), err)
		}
		o.transport.CAFile = s.CABundle.V
	}
	if o.discovery == "" && s.EndpointDiscovery.IsSet() {
		o.discovery = EndpointDiscovery(s.EndpointDiscovery.V)
	}
	if o.appIDFrom == "" && s.AppID.IsSet() {
		o.appID, o.appIDFrom = s.AppID.V, s.AppID.Place("sdk_ua_app_id")
	}
	if o.retryMode == "" && s.RetryMode.IsSet() {
		o.retryMode = RetryMode(s.RetryMode.V)
	}
	if !o.retrySet && s.MaxAttempts.IsSet() {
		o.retry.MaxAttempts = s.MaxAttempts.V
	}
	if v := s.SigV4aSigningRegionSet; v.IsSet() {
		set, err := regionSet(v.V)
		if err != nil {
			return "", fmt.Errorf("%s: %v", v.Place("sigv4a_signing_region_set"), err)
		}
		o.sigv4aRegionSet = set
	}
	o.compression.fromSettings(s)
	if o.checksums.request == "" {
		o.checksums.request = ChecksumWhen(s.RequestChecksumCalculation.V)
	}
	if o.checksums.response == "" {
		o.checksums.response = ChecksumWhen(s.ResponseChecksumValidation.V)
	}
	return endpoint, nil
}

// regionSet reads a SigV4a region set: regions or patterns ("*",
// "us-*"), comma-separated, spaces around them ignored.
func regionSet(text string) ([]string, error) {
	var set []string
	for _, r := range strings.Split(text, ",") {
		r = strings.TrimSpace(r)
		if r == "" || strings.Trim(r, "abcdefghijklmnopqrstuvwxyz0123456789-*") != "" {
			return nil, errors.New("must be regions separated by commas (lower-case letters, digits, '-' and '*')")
		}
		set = append(set, r)
	}
	return set, nil
}
