package awsconfig

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const settingsConfig = `[default]
region = us-east-1
max_attempts = 4
retry_mode = adaptive
use_fips_endpoint = TRUE
use_dualstack_endpoint = false
ca_bundle = /etc/default-ca.pem

[profile dev]
region = eu-west-1
endpoint_url = http://dev.example:1
services = local

[profile svc-only]
services = local

[profile ignore]
endpoint_url = http://ignored.example
ignore_configured_endpoint_urls = true

[profile nosvc]
services = missing

[profile legacy]
retry_mode = legacy
request_checksum_calculation = WHEN_REQUIRED
response_checksum_validation = when_required

[services local]
dynamodb =
  endpoint_url = http://127.0.0.1:8000
cognito_identity_provider =
  endpoint_url = http://127.0.0.1:9000

[profile multi]
sigv4a_signing_region_set = us-east-1,us-west-2
`

func TestSettingsPrecedence(t *testing.T) {
	type want struct {
		field, v, from string // from: a variable, or "@LINE" for the config file
	}
	cases := []struct {
		name      string
		vars      map[string]string
		profile   string
		serviceID string
		want      []want
	}{
		{"default profile", nil, "", "DynamoDB", []want{
			{"Region", "us-east-1", "@2"}, {"MaxAttempts", "4", "@3"}, {"RetryMode", "adaptive", "@4"},
			{"UseFIPS", "true", "@5"}, {"UseDualStack", "false", "@6"}, {"CABundle", "/etc/default-ca.pem", "@7"},
			{"EndpointURL", "", ""}}},
		{"AWS_REGION over AWS_DEFAULT_REGION over the profile",
			map[string]string{"AWS_REGION": "ap-south-1", "AWS_DEFAULT_REGION": "us-west-2"}, "", "", []want{
				{"Region", "ap-south-1", "AWS_REGION"}}},
		{"endpoint discovery, any case", map[string]string{"AWS_ENABLE_ENDPOINT_DISCOVERY": "True"}, "", "", []want{
			{"EndpointDiscovery", "true", "AWS_ENABLE_ENDPOINT_DISCOVERY"}}},
		{"AWS_DEFAULT_REGION over the profile", map[string]string{"AWS_DEFAULT_REGION": "us-west-2"}, "", "", []want{
			{"Region", "us-west-2", "AWS_DEFAULT_REGION"}}},
		{"empty variables are unset", map[string]string{"AWS_REGION": "", "AWS_MAX_ATTEMPTS": "", "AWS_USE_FIPS_ENDPOINT": ""}, "", "", []want{
			{"Region", "us-east-1", "@2"}, {"MaxAttempts", "4", "@3"}, {"UseFIPS", "true", "@5"}}},
		{"environment over profile", map[string]string{"AWS_MAX_ATTEMPTS": " 7 ", "AWS_RETRY_MODE": "standard",
			"AWS_USE_FIPS_ENDPOINT": "false", "AWS_USE_DUALSTACK_ENDPOINT": "True", "AWS_CA_BUNDLE": "/env-ca.pem"}, "", "", []want{
			{"MaxAttempts", "7", "AWS_MAX_ATTEMPTS"}, {"RetryMode", "standard", "AWS_RETRY_MODE"},
			{"UseFIPS", "false", "AWS_USE_FIPS_ENDPOINT"}, {"UseDualStack", "true", "AWS_USE_DUALSTACK_ENDPOINT"},
			{"CABundle", "/env-ca.pem", "AWS_CA_BUNDLE"}}},
		{"AWS_PROFILE", map[string]string{"AWS_PROFILE": "dev"}, "", "DynamoDB", []want{
			{"Profile", "dev", ""}, {"Region", "eu-west-1", "@10"}, {"MaxAttempts", "0", ""},
			{"EndpointURL", "http://127.0.0.1:8000", "@31"}}},
		{"the argument over AWS_PROFILE", map[string]string{"AWS_PROFILE": "nosvc"}, "dev", "", []want{
			{"Profile", "dev", ""}, {"EndpointURL", "http://dev.example:1", "@11"}}},
		{"service variable first", map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://svc", "AWS_ENDPOINT_URL": "http://all"},
			"dev", "DynamoDB", []want{{"EndpointURL", "http://svc", "AWS_ENDPOINT_URL_DYNAMODB"}}},
		{"AWS_ENDPOINT_URL over the services section", map[string]string{"AWS_ENDPOINT_URL": "http://all"},
			"dev", "DynamoDB", []want{{"EndpointURL", "http://all", "AWS_ENDPOINT_URL"}}},
		{"another service's variable", map[string]string{"AWS_ENDPOINT_URL_S3": "http://s3"},
			"dev", "DynamoDB", []want{{"EndpointURL", "http://127.0.0.1:8000", "@31"}}},
		{"the profile's endpoint_url for a service not in the section", nil, "dev", "SQS", []want{
			{"EndpointURL", "http://dev.example:1", "@11"}}},
		{"no service id: the global ones", map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://svc"}, "dev", "", []want{
			{"EndpointURL", "http://dev.example:1", "@11"}}},
		{"spaces in the sdkId", map[string]string{"AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER": "http://idp"}, "", "Cognito Identity Provider", []want{
			{"EndpointURL", "http://idp", "AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER"}}},
		{"the section's key of an sdkId with spaces", nil, "svc-only", "Cognito Identity Provider", []want{
			{"EndpointURL", "http://127.0.0.1:9000", "@33"}}},
		{"ignored in the profile", map[string]string{"AWS_ENDPOINT_URL": "http://all"}, "ignore", "DynamoDB", []want{
			{"EndpointURL", "", ""}, {"IgnoreConfiguredEndpointURLs", "true", "@19"}}},
		{"ignored by the environment", map[string]string{"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "TRUE", "AWS_ENDPOINT_URL_DYNAMODB": "http://svc"},
			"dev", "DynamoDB", []want{{"EndpointURL", "", ""}}},
		{"the environment un-ignores", map[string]string{"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "false"}, "ignore", "", []want{
			{"EndpointURL", "http://ignored.example", "@18"}, {"IgnoreConfiguredEndpointURLs", "false", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"}}},
		{"legacy reads as standard", nil, "legacy", "", []want{{"RetryMode", "standard", "@25"}}},
		{"SigV4a's region set", nil, "multi", "", []want{{"SigV4aSigningRegionSet", "us-east-1,us-west-2", "@36"}}},
		{"SigV4a's region set from the environment", map[string]string{"AWS_SIGV4A_SIGNING_REGION_SET": "*"}, "multi", "", []want{
			{"SigV4aSigningRegionSet", "*", "AWS_SIGV4A_SIGNING_REGION_SET"}}},
		{"legacy reads as standard", nil, "legacy", "", []want{{"RetryMode", "standard", "@25"},
			{"RequestChecksumCalculation", "when_required", "@26"}, {"ResponseChecksumValidation", "when_required", "@27"}}},
		{"checksum settings from the environment", map[string]string{"AWS_REQUEST_CHECKSUM_CALCULATION": "When_Supported",
			"AWS_RESPONSE_CHECKSUM_VALIDATION": "when_supported"}, "legacy", "", []want{
			{"RequestChecksumCalculation", "when_supported", "AWS_REQUEST_CHECKSUM_CALCULATION"},
			{"ResponseChecksumValidation", "when_supported", "AWS_RESPONSE_CHECKSUM_VALIDATION"}}},
		{"checksum settings unset", nil, "", "", []want{{"RequestChecksumCalculation", "", ""}, {"ResponseChecksumValidation", "", ""}}},
		{"AWS_DEFAULT_PROFILE", map[string]string{"AWS_DEFAULT_PROFILE": "legacy"}, "", "", []want{
			{"Profile", "legacy", ""}, {"Region", "", ""}}},
		// botocore's order (the AWS CLI v2's is the other).
		{"AWS_DEFAULT_PROFILE over AWS_PROFILE", map[string]string{"AWS_DEFAULT_PROFILE": "legacy", "AWS_PROFILE": "dev"}, "", "", []want{
			{"Profile", "legacy", ""}, {"RetryMode", "standard", "@25"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := env(t, tc.vars, map[string]string{".aws/config": settingsConfig})
			c, err := Load(e)
			if err != nil {
				t.Fatal(err)
			}
			s, err := c.Settings(tc.profile, tc.serviceID)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				v, from := field(s, w.field)
				wantFrom := w.from
				if strings.HasPrefix(wantFrom, "@") {
					wantFrom = filepath.Join(e.Home, ".aws", "config") + ":" + wantFrom[1:]
				}
				if v != w.v || from != wantFrom {
					t.Errorf("%s = %q from %q, want %q from %q", w.field, v, from, w.v, wantFrom)
				}
			}
		})
	}
}

// field returns a setting as text and where it came from.
func field(s Settings, name string) (string, string) {
	switch name {
	case "Profile":
		return s.Profile, ""
	case "Region":
		return s.Region.V, s.Region.From
	case "EndpointURL":
		return s.EndpointURL.V, s.EndpointURL.From
	case "CABundle":
		return s.CABundle.V, s.CABundle.From
	case "RetryMode":
		return s.RetryMode.V, s.RetryMode.From
	case "EndpointDiscovery":
		return s.EndpointDiscovery.V, s.EndpointDiscovery.From
	case "RequestChecksumCalculation":
		return s.RequestChecksumCalculation.V, s.RequestChecksumCalculation.From
	case "ResponseChecksumValidation":
		return s.ResponseChecksumValidation.V, s.ResponseChecksumValidation.From
	case "MaxAttempts":
		return strconv.Itoa(s.MaxAttempts.V), s.MaxAttempts.From
	case "UseFIPS":
		return boolText(s.UseFIPS.V), s.UseFIPS.From
	case "UseDualStack":
		return boolText(s.UseDualStack.V), s.UseDualStack.From
	case "SigV4aSigningRegionSet":
		return s.SigV4aSigningRegionSet.V, s.SigV4aSigningRegionSet.From
	case "IgnoreConfiguredEndpointURLs":
		return boolText(s.IgnoreConfiguredEndpointURLs.V), s.IgnoreConfiguredEndpointURLs.From
	}
	panic(name)
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestSettingsCredentialsFile(t *testing.T) {
	// The credentials file's values win, as botocore merges the files.
	e := env(t, nil, map[string]string{".aws/config": "[default]\nregion = us-east-1\n",
		".aws/credentials": "[default]\nregion = eu-north-1\n"})
	c, err := Load(e)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Settings("", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(e.Home, ".aws", "credentials") + ":2"; s.Region.V != "eu-north-1" || s.Region.From != want {
		t.Errorf("region %q from %q", s.Region.V, s.Region.From)
	}
}

func TestSettingsNoFiles(t *testing.T) {
	c, err := Load(env(t, map[string]string{"AWS_REGION": "us-west-1"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Settings("", "DynamoDB")
	if err != nil {
		t.Fatal(err)
	}
	if s.Profile != "default" || s.Region.V != "us-west-1" || s.EndpointURL.IsSet() || s.MaxAttempts.IsSet() || s.UseFIPS.IsSet() {
		t.Errorf("%+v", s)
	}
}

func TestSettingsErrors(t *testing.T) {
	const secret = "s3cr3tvalue"
	cases := []struct {
		name    string
		vars    map[string]string
		config  string
		profile string
		want    string // in the message; @LINE: the config file's line
	}{
		{"max_attempts not a number", nil, "[default]\nmax_attempts = " + secret + "\n", "", "@2: max_attempts must be a whole number of at least 1"},
		{"max_attempts 0", nil, "[default]\nmax_attempts = 0\n", "", "@2: max_attempts must be"},
		{"max_attempts negative", map[string]string{"AWS_MAX_ATTEMPTS": "-1"}, "", "", "environment variable AWS_MAX_ATTEMPTS must be a whole number"},
		{"max_attempts a fraction", map[string]string{"AWS_MAX_ATTEMPTS": "2.5"}, "", "", "AWS_MAX_ATTEMPTS must be"},
		{"retry mode", map[string]string{"AWS_RETRY_MODE": secret}, "", "", "environment variable AWS_RETRY_MODE must be standard, adaptive or legacy"},
		{"endpoint discovery", nil, "[default]\nendpoint_discovery_enabled = yes\n", "", "@2: endpoint_discovery_enabled must be true, false, auto"},
		{"retry mode case", nil, "[default]\n\nretry_mode = Standard\n", "", "@3: retry_mode must be"},
		{"request checksum calculation", map[string]string{"AWS_REQUEST_CHECKSUM_CALCULATION": secret}, "", "", "environment variable AWS_REQUEST_CHECKSUM_CALCULATION must be when_supported or when_required"},
		{"response checksum validation", nil, "[default]\nresponse_checksum_validation = always\n", "", "@2: response_checksum_validation must be when_supported or when_required"},
		{"fips", map[string]string{"AWS_USE_FIPS_ENDPOINT": secret}, "", "", "environment variable AWS_USE_FIPS_ENDPOINT must be true or false"},
		{"fips yes", nil, "[default]\nuse_fips_endpoint = yes\n", "", "@2: use_fips_endpoint must be true or false"},
		{"dual-stack 1", nil, "[default]\nuse_dualstack_endpoint = 1\n", "", "@2: use_dualstack_endpoint must be"},
		{"ignore", map[string]string{"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "on"}, "", "", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS must be true or false"},
		{"services section missing", nil, "[default]\nservices = " + "nowhere" + "\n", "", "@2: services: there is no [services nowhere] section"},
		{"profile missing (argument)", nil, "[default]\n", "nope", `profile "nope" is in neither`},
		{"profile missing (AWS_PROFILE)", map[string]string{"AWS_PROFILE": "nope"}, "", "", `profile "nope" is in neither`},
		{"default missing but named", map[string]string{"AWS_PROFILE": "default"}, "", "", `profile "default" is in neither`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			if tc.config != "" {
				files[".aws/config"] = tc.config
			}
			e := env(t, tc.vars, files)
			c, err := Load(e)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Settings(tc.profile, "DynamoDB")
			if err == nil {
				t.Fatal("no error")
			}
			want := tc.want
			if strings.HasPrefix(want, "@") {
				want = filepath.Join(e.Home, ".aws", "config") + ":" + want[1:]
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q, want %q in it", err, want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error %q shows the value", err)
			}
		})
	}
}

func TestServiceKey(t *testing.T) {
	for in, want := range map[string]string{
		"DynamoDB":                  "dynamodb",
		"Cognito Identity Provider": "cognito_identity_provider",
		"SSO OIDC":                  "sso_oidc",
		"IoT Data Plane":            "iot_data_plane",
		"codestar-notifications":    "codestar_notifications", // botocore: hyphens too
		"":                          "",
	} {
		if got := ServiceKey(in); got != want {
			t.Errorf("ServiceKey(%q) = %q, want %q", in, got, want)
		}
	}
}
