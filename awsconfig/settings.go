package awsconfig

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Value is one setting and where it was set: an environment variable's
// name or a file's "path:line". From is "" when nothing sets it.
type Value[T any] struct {
	V    T
	From string
}

// IsSet reports whether something sets the value.
func (v Value[T]) IsSet() bool { return v.From != "" }

// Settings are the AWS settings of a profile for one service, as botocore
// resolves them: the environment before the profile, an empty variable
// counting as unset (as aws-sdk-go-v2; botocore takes some empty variables
// as values). Options a caller gives explicitly win over all of them: that
// is the caller's part.
type Settings struct {
	Profile string // the profile read
	// Region: AWS_REGION, AWS_DEFAULT_REGION, the profile's region.
	Region Value[string]
	// EndpointURL: AWS_ENDPOINT_URL_<SERVICE>, AWS_ENDPOINT_URL, the
	// profile's services section's <service> endpoint_url, the profile's
	// endpoint_url; none when IgnoreConfiguredEndpointURLs.
	EndpointURL Value[string]
	// IgnoreConfiguredEndpointURLs: AWS_IGNORE_CONFIGURED_ENDPOINT_URLS,
	// ignore_configured_endpoint_urls.
	IgnoreConfiguredEndpointURLs Value[bool]
	// CABundle: AWS_CA_BUNDLE, ca_bundle (a PEM file's path).
	CABundle Value[string]
	// MaxAttempts: AWS_MAX_ATTEMPTS, max_attempts (sends in all, ≥ 1).
	MaxAttempts Value[int]
	// RetryMode: AWS_RETRY_MODE, retry_mode: "standard" or "adaptive";
	// "legacy" reads as "standard".
	RetryMode Value[string]
	// UseFIPS: AWS_USE_FIPS_ENDPOINT, use_fips_endpoint.
	UseFIPS Value[bool]
	// UseDualStack: AWS_USE_DUALSTACK_ENDPOINT, use_dualstack_endpoint.
	UseDualStack Value[bool]
	// SigV4aSigningRegionSet: AWS_SIGV4A_SIGNING_REGION_SET,
	// sigv4a_signing_region_set: the regions a SigV4a signature is for,
	// comma-separated ("*" for all), instead of the endpoint rules'.
	SigV4aSigningRegionSet Value[string]
	// RequestChecksumCalculation: AWS_REQUEST_CHECKSUM_CALCULATION,
	// request_checksum_calculation: "when_supported" or "when_required"
	// (read in any case, as botocore and aws-sdk-go-v2).
	RequestChecksumCalculation Value[string]
	// ResponseChecksumValidation: AWS_RESPONSE_CHECKSUM_VALIDATION,
	// response_checksum_validation: the same two values.
	ResponseChecksumValidation Value[string]
	// DisableS3ExpressSessionAuth: AWS_S3_DISABLE_EXPRESS_SESSION_AUTH,
	// s3_disable_express_session_auth: S3 directory buckets signed with
	// the caller's credentials, without CreateSession's sessions.
	DisableS3ExpressSessionAuth Value[bool]
	// DisableRequestCompression: AWS_DISABLE_REQUEST_COMPRESSION,
	// disable_request_compression: @requestCompression never applies.
	DisableRequestCompression Value[bool]
	// RequestMinCompressionSize: AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES,
	// request_min_compression_size_bytes: the smallest body
	// @requestCompression compresses, 0 to 10,485,760 bytes.
	RequestMinCompressionSize Value[int]
	// EndpointDiscovery: AWS_ENABLE_ENDPOINT_DISCOVERY,
	// endpoint_discovery_enabled: "true", "false" or "auto" (read in any
	// case, returned lower-case, as botocore).
	EndpointDiscovery Value[string]
	// AppID: AWS_SDK_UA_APP_ID, sdk_ua_app_id: the application's id,
	// appended to the User-Agent as app/<id>.
	AppID Value[string]
}

// ServiceKey is a service's name in AWS_ENDPOINT_URL_<SERVICE> (upper-cased)
// and in a services section (as is), from its sdkId (the aws.api#service
// trait): lower-cased, spaces and hyphens made underscores ("Cognito
// Identity Provider" → cognito_identity_provider), as botocore derives it
// (utils.hyphenize_service_id, then '-' → '_'). aws-sdk-go-v2 keeps the
// hyphens; botocore is followed.
func ServiceKey(sdkID string) string {
	return strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(sdkID))
}

// Settings resolves the settings of profile ("" for ProfileName) for the
// service whose sdkId is serviceID ("" for none: no service-specific
// endpoint). A profile named explicitly (here, AWS_PROFILE or
// AWS_DEFAULT_PROFILE) must exist, as botocore requires; the default one
// need not. A malformed value is an error naming where it is set, never
// showing the value.
func (c *Config) Settings(profile string, serviceID string) (Settings, error) {
	explicit := profile != "" || c.Env.Get("AWS_PROFILE") != "" || c.Env.Get("AWS_DEFAULT_PROFILE") != ""
	if profile == "" {
		profile = c.ProfileName()
	}
	p := c.Profile(profile)
	if p == nil && explicit {
		return Settings{}, fmt.Errorf("profile %q is in neither %s nor %s", profile, c.ConfigFile, c.CredentialsFile)
	}
	r := resolver{c: c, p: p}
	s := Settings{Profile: profile}
	// botocore reads AWS_DEFAULT_REGION only; AWS_REGION first is what
	// the AWS CLI v2 and aws-sdk-go-v2 do, and what this library did.
	s.Region = r.str([]string{"AWS_REGION", "AWS_DEFAULT_REGION"}, "region")
	s.CABundle = r.str([]string{"AWS_CA_BUNDLE"}, "ca_bundle")
	s.SigV4aSigningRegionSet = r.str([]string{"AWS_SIGV4A_SIGNING_REGION_SET"}, "sigv4a_signing_region_set")
	s.AppID = r.str([]string{"AWS_SDK_UA_APP_ID"}, "sdk_ua_app_id")
	var err error
	if s.IgnoreConfiguredEndpointURLs, err = r.boolean("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "ignore_configured_endpoint_urls"); err != nil {
		return Settings{}, err
	}
	if !s.IgnoreConfiguredEndpointURLs.V {
		if s.EndpointURL, err = r.endpointURL(serviceID); err != nil {
			return Settings{}, err
		}
	}
	if s.MaxAttempts, err = r.maxAttempts(); err != nil {
		return Settings{}, err
	}
	if s.RetryMode, err = r.retryMode(); err != nil {
		return Settings{}, err
	}
	if s.UseFIPS, err = r.boolean("AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint"); err != nil {
		return Settings{}, err
	}
	if s.UseDualStack, err = r.boolean("AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint"); err != nil {
		return Settings{}, err
	}
	if s.RequestChecksumCalculation, err = r.checksumWhen("AWS_REQUEST_CHECKSUM_CALCULATION", "request_checksum_calculation"); err != nil {
		return Settings{}, err
	}
	if s.ResponseChecksumValidation, err = r.checksumWhen("AWS_RESPONSE_CHECKSUM_VALIDATION", "response_checksum_validation"); err != nil {
		return Settings{}, err
	}
	if s.DisableS3ExpressSessionAuth, err = r.boolean("AWS_S3_DISABLE_EXPRESS_SESSION_AUTH", "s3_disable_express_session_auth"); err != nil {
		return Settings{}, err
	}
	if s.DisableRequestCompression, err = r.boolean("AWS_DISABLE_REQUEST_COMPRESSION", "disable_request_compression"); err != nil {
		return Settings{}, err
	}
	if s.EndpointDiscovery, err = r.oneOf("AWS_ENABLE_ENDPOINT_DISCOVERY", "endpoint_discovery_enabled", "true", "false", "auto"); err != nil {
		return Settings{}, err
	}
	if s.RequestMinCompressionSize, err = r.wholeNumber("AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES", "request_min_compression_size_bytes", 0, MaxMinCompressionSize); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// resolver looks a setting up in the environment, then the profile.
type resolver struct {
	c *Config
	p *Profile // nil: no such profile
}

// str is the first of vars set, else the profile's key.
func (r resolver) str(vars []string, key string) Value[string] {
	for _, name := range vars {
		if v := r.c.Env.Get(name); v != "" {
			return Value[string]{v, name}
		}
	}
	if v, ok := r.p.Get(key); ok && v != "" {
		return Value[string]{v, r.p.Where(key)}
	}
	return Value[string]{}
}

// Place names where the value of key is set, for messages:
// "environment variable AWS_REGION" or "/home/u/.aws/config:3: region".
func (v Value[T]) Place(key string) string {
	if !strings.Contains(v.From, ":") {
		return "environment variable " + v.From
	}
	return v.From + ": " + key
}

// boolean reads "true" or "false", in any case; another value is an
// error, as in aws-sdk-go-v2 (botocore takes anything but "true" as
// false: a misspelt "ture" would silently turn FIPS off).
func (r resolver) boolean(env, key string) (Value[bool], error) {
	v := r.str([]string{env}, key)
	if !v.IsSet() {
		return Value[bool]{}, nil
	}
	switch {
	case strings.EqualFold(v.V, "true"):
		return Value[bool]{true, v.From}, nil
	case strings.EqualFold(v.V, "false"):
		return Value[bool]{false, v.From}, nil
	}
	return Value[bool]{}, fmt.Errorf("%s must be true or false", v.Place(key))
}

// maxAttempts reads a whole number of at least 1, as botocore (int(),
// then its check of total_max_attempts).
func (r resolver) maxAttempts() (Value[int], error) {
	v := r.str([]string{"AWS_MAX_ATTEMPTS"}, "max_attempts")
	if !v.IsSet() {
		return Value[int]{}, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v.V))
	if err != nil || n < 1 {
		return Value[int]{}, fmt.Errorf("%s must be a whole number of at least 1", v.Place("max_attempts"))
	}
	return Value[int]{n, v.From}, nil
}

// MaxMinCompressionSize is the largest request_min_compression_size_bytes
// the AWS SDKs accept (10 MiB).
const MaxMinCompressionSize = 10485760

// wholeNumber reads a whole number in lo..hi.
func (r resolver) wholeNumber(env, key string, lo, hi int) (Value[int], error) {
	v := r.str([]string{env}, key)
	if !v.IsSet() {
		return Value[int]{}, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v.V))
	if err != nil || n < lo || n > hi {
		return Value[int]{}, fmt.Errorf("%s must be a whole number from %d to %d", v.Place(key), lo, hi)
	}
	return Value[int]{n, v.From}, nil
}

// oneOf reads one of values, in any case, returned lower-case.
func (r resolver) oneOf(env, key string, values ...string) (Value[string], error) {
	v := r.str([]string{env}, key)
	if !v.IsSet() {
		return v, nil
	}
	l := strings.ToLower(strings.TrimSpace(v.V))
	if !slices.Contains(values, l) {
		return Value[string]{}, fmt.Errorf("%s must be %s", v.Place(key), strings.Join(values, ", "))
	}
	return Value[string]{l, v.From}, nil
}

// retryMode reads botocore's modes, which are lower-case: legacy (read as
// standard, the one retry strategy here), standard and adaptive.
func (r resolver) retryMode() (Value[string], error) {
	v := r.str([]string{"AWS_RETRY_MODE"}, "retry_mode")
	switch v.V {
	case "":
		return Value[string]{}, nil
	case "legacy":
		return Value[string]{"standard", v.From}, nil
	case "standard", "adaptive":
		return v, nil
	}
	return Value[string]{}, fmt.Errorf("%s must be standard, adaptive or legacy", v.Place("retry_mode"))
}

// checksumWhen reads when_supported or when_required, in any case (as
// botocore lower-cases it), returned lower-case.
func (r resolver) checksumWhen(env, key string) (Value[string], error) {
	v := r.str([]string{env}, key)
	if !v.IsSet() {
		return v, nil
	}
	switch l := strings.ToLower(strings.TrimSpace(v.V)); l {
	case "when_supported", "when_required":
		return Value[string]{l, v.From}, nil
	}
	return Value[string]{}, fmt.Errorf("%s must be when_supported or when_required", v.Place(key))
}

// endpointURL follows botocore's ConfiguredEndpointProvider: the
// service's variable, AWS_ENDPOINT_URL, the services section's entry for
// the service, the profile's endpoint_url. A profile naming a services
// section that does not exist is an error once that section is read.
func (r resolver) endpointURL(serviceID string) (Value[string], error) {
	key := ServiceKey(serviceID)
	vars := []string{"AWS_ENDPOINT_URL"}
	if key != "" {
		vars = append([]string{"AWS_ENDPOINT_URL_" + strings.ToUpper(key)}, vars...)
	}
	for _, name := range vars {
		if v := r.c.Env.Get(name); v != "" {
			return Value[string]{v, name}, nil
		}
	}
	if name, ok := r.p.Get("services"); ok && key != "" {
		sec := r.c.Services(name)
		if sec == nil {
			return Value[string]{}, fmt.Errorf("%s: services: there is no [services %s] section", r.p.Where("services"), name)
		}
		if v, ok := sec.Sub(key, "endpoint_url"); ok && v != "" {
			return Value[string]{v, sec.subWhere(key, "endpoint_url")}, nil
		}
	}
	if v, ok := r.p.Get("endpoint_url"); ok && v != "" {
		return Value[string]{v, r.p.Where("endpoint_url")}, nil
	}
	return Value[string]{}, nil
}

// subWhere returns where a nested value is set ("file:line").
func (p *Profile) subWhere(key, sub string) string {
	if p == nil {
		return ""
	}
	return p.sub[key][sub].where
}
