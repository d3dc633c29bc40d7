package client_test

import (
	"context"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

const dynamoDB = "com.amazonaws.dynamodb#DynamoDB_20120810"

// awsConfig is a shared configuration over a temporary home folder holding
// config (as ~/.aws/config) and the variables vars, nothing of the
// process's environment.
func awsConfig(t *testing.T, vars map[string]string, config string) *awsconfig.Config {
	t.Helper()
	home := t.TempDir()
	if config != "" {
		if err := os.MkdirAll(filepath.Join(home, ".aws"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".aws", "config"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := awsconfig.Load(awsconfig.Env{Home: home, Lookup: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const settingsProfiles = `[default]
region = us-east-1

[profile dev]
region = eu-west-1

[profile fips]
region = us-east-2
use_fips_endpoint = true

[profile dual]
region = us-west-2
use_dualstack_endpoint = TRUE

[profile local]
region = eu-central-1
services = local

[services local]
dynamodb =
  endpoint_url = http://127.0.0.1:8000
`

// TestAWSSettingsPrecedence: what the client resolves when options,
// variables and the profile disagree; each case's endpoint and signing
// region show the region and endpoint it took.
func TestAWSSettingsPrecedence(t *testing.T) {
	m := loadAWSModel(t, "dynamodb.json")
	cases := []struct {
		name     string
		vars     map[string]string
		opts     []client.Option
		endpoint string
		url      string
		provider string
	}{
		{"default profile", nil, nil, "", "https://dynamodb.us-east-1.amazonaws.com/", "aws:amz:us-east-1:dynamodb"},
		{"AWS_PROFILE's region", map[string]string{"AWS_PROFILE": "dev"}, nil, "",
			"https://dynamodb.eu-west-1.amazonaws.com/", "aws:amz:eu-west-1:dynamodb"},
		{"WithProfile over AWS_PROFILE", map[string]string{"AWS_PROFILE": "fips"}, []client.Option{client.WithProfile("dev")}, "",
			"https://dynamodb.eu-west-1.amazonaws.com/", "aws:amz:eu-west-1:dynamodb"},
		{"AWS_DEFAULT_REGION over the profile", map[string]string{"AWS_PROFILE": "dev", "AWS_DEFAULT_REGION": "ap-south-1"}, nil, "",
			"https://dynamodb.ap-south-1.amazonaws.com/", "aws:amz:ap-south-1:dynamodb"},
		{"AWS_REGION over AWS_DEFAULT_REGION", map[string]string{"AWS_REGION": "sa-east-1", "AWS_DEFAULT_REGION": "ap-south-1"}, nil, "",
			"https://dynamodb.sa-east-1.amazonaws.com/", "aws:amz:sa-east-1:dynamodb"},
		{"WithRegion over all", map[string]string{"AWS_PROFILE": "dev", "AWS_REGION": "sa-east-1"},
			[]client.Option{client.WithRegion("ca-central-1")}, "",
			"https://dynamodb.ca-central-1.amazonaws.com/", "aws:amz:ca-central-1:dynamodb"},
		{"the credentials' region over the settings", map[string]string{"AWS_REGION": "sa-east-1"},
			[]client.Option{client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret", Region: "eu-north-1"})}, "",
			"https://dynamodb.eu-north-1.amazonaws.com/", "aws:amz:eu-north-1:dynamodb"},
		{"the profile's FIPS", map[string]string{"AWS_PROFILE": "fips"}, nil, "",
			"https://dynamodb-fips.us-east-2.amazonaws.com/", "aws:amz:us-east-2:dynamodb"},
		{"WithFIPS(false) over the profile's", map[string]string{"AWS_PROFILE": "fips"}, []client.Option{client.WithFIPS(false)}, "",
			"https://dynamodb.us-east-2.amazonaws.com/", "aws:amz:us-east-2:dynamodb"},
		{"AWS_USE_FIPS_ENDPOINT over the profile's", map[string]string{"AWS_PROFILE": "fips", "AWS_USE_FIPS_ENDPOINT": "false"}, nil, "",
			"https://dynamodb.us-east-2.amazonaws.com/", "aws:amz:us-east-2:dynamodb"},
		{"the profile's dual-stack", map[string]string{"AWS_PROFILE": "dual"}, nil, "",
			"https://dynamodb.us-west-2.api.aws/", "aws:amz:us-west-2:dynamodb"},
		{"the services section", map[string]string{"AWS_PROFILE": "local"}, nil, "",
			"http://127.0.0.1:8000/", "aws:amz:eu-central-1:dynamodb"},
		{"AWS_ENDPOINT_URL over the services section", map[string]string{"AWS_PROFILE": "local", "AWS_ENDPOINT_URL": "http://127.0.0.1:1"}, nil, "",
			"http://127.0.0.1:1/", "aws:amz:eu-central-1:dynamodb"},
		{"the service's variable first", map[string]string{"AWS_ENDPOINT_URL": "http://127.0.0.1:1", "AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:2"}, nil, "",
			"http://127.0.0.1:2/", "aws:amz:us-east-1:dynamodb"},
		{"the endpoint given over the variables", map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:2"}, nil, "http://127.0.0.1:3",
			"http://127.0.0.1:3/", "aws:amz:us-east-1:dynamodb"},
		{"ignored endpoint URLs", map[string]string{"AWS_ENDPOINT_URL": "http://127.0.0.1:1", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}, nil, "",
			"https://dynamodb.us-east-1.amazonaws.com/", "aws:amz:us-east-1:dynamodb"},
		// As botocore: FIPS does not apply to a configured endpoint.
		{"FIPS and an endpoint URL", map[string]string{"AWS_PROFILE": "fips", "AWS_ENDPOINT_URL": "http://127.0.0.1:1"}, nil, "",
			"http://127.0.0.1:1/", "aws:amz:us-east-2:dynamodb"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &awsStandIn{}
			opts := append([]client.Option{client.WithAWSConfig(awsConfig(t, tc.vars, settingsProfiles)),
				client.WithTransport(rec), client.WithAWSCredentials(testCreds), client.WithoutRetries()}, tc.opts...)
			cl, err := client.New(m, dynamoDB, tc.endpoint, opts...)
			if err != nil {
				t.Fatal(err)
			}
			ep, err := cl.ResolveEndpoint("ListTables", []byte(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cl.Call(context.Background(), "ListTables", []byte(`{}`)); err != nil {
				t.Fatal(err)
			}
			if strings.TrimSuffix(ep.URL, "/")+"/" != tc.url || rec.url != tc.url || rec.provider != tc.provider {
				t.Errorf("resolved %s, sent to %s signed %s; want %s signed %s", ep.URL, rec.url, rec.provider, tc.url, tc.provider)
			}
		})
	}
}

// TestAWSSettingsEndpointURLServer: AWS_ENDPOINT_URL_DYNAMODB sends a
// DynamoDB client's calls to a local server, over libcurl, signed for the
// profile's region.
func TestAWSSettingsEndpointURLServer(t *testing.T) {
	var got atomic.Pointer[http.Request]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		got.Store(r)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		io.WriteString(w, `{"TableNames": ["local"]}`)
	}))
	defer srv.Close()
	cfg := awsConfig(t, map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": srv.URL, "AWS_PROFILE": "dev"}, settingsProfiles)
	cl, err := client.New(loadAWSModel(t, "dynamodb.json"), dynamoDB, "", client.WithAWSConfig(cfg),
		client.WithAWSCredentials(testCreds), client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	out, err := cl.Call(context.Background(), "ListTables", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"local"`) {
		t.Errorf("output %s", out)
	}
	r := got.Load()
	if r == nil || r.Header.Get("X-Amz-Target") != "DynamoDB_20120810.ListTables" ||
		!strings.Contains(r.Header.Get("Authorization"), "/eu-west-1/dynamodb/aws4_request") {
		t.Errorf("the server got %v", r)
	}
}

// TestAWSSettingsCABundle: AWS_CA_BUNDLE is the CA the client trusts: a
// TLS server of its own CA is reached with it and refused without it.
func TestAWSSettingsCABundle(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		io.WriteString(w, `{}`)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	call := func(vars map[string]string) error {
		cl, err := client.New(loadAWSModel(t, "dynamodb.json"), dynamoDB, "", client.WithAWSConfig(awsConfig(t, vars, "")),
			client.WithAWSCredentials(testCreds), client.WithoutRetries())
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		_, err = cl.Call(context.Background(), "ListTables", []byte(`{}`))
		return err
	}
	vars := map[string]string{"AWS_ENDPOINT_URL": srv.URL, "AWS_REGION": "us-east-1"}
	if err := call(vars); err == nil {
		t.Fatal("the server's own CA was trusted without AWS_CA_BUNDLE")
	}
	vars["AWS_CA_BUNDLE"] = ca
	if err := call(vars); err != nil {
		t.Fatalf("with AWS_CA_BUNDLE: %v", err)
	}
}

// throttled answers every request with DynamoDB's ThrottlingException.
type throttled struct{ n atomic.Int32 }

func (s *throttled) Do(context.Context, *transport.Request) (*wire.Response, error) {
	s.n.Add(1)
	return &wire.Response{Status: 400, Header: wire.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"slow down"}`)}, nil
}

// TestAWSSettingsMaxAttempts: max_attempts bounds the sends of a call
// unless the caller gives a retry policy.
func TestAWSSettingsMaxAttempts(t *testing.T) {
	m := loadAWSModel(t, "dynamodb.json")
	fast := client.DefaultRetryPolicy
	fast.Base, fast.Cap = 0, 0
	for _, tc := range []struct {
		name   string
		vars   map[string]string
		config string
		opts   []client.Option
		sends  int32
	}{
		{"profile", nil, "[default]\nmax_attempts = 4\nretry_mode = adaptive\n", nil, 4},
		{"environment over profile", map[string]string{"AWS_MAX_ATTEMPTS": "2", "AWS_RETRY_MODE": "legacy"}, "[default]\nmax_attempts = 4\n", nil, 2},
		{"WithoutRetries over both", map[string]string{"AWS_MAX_ATTEMPTS": "2"}, "", []client.Option{client.WithoutRetries()}, 1},
		{"WithRetryPolicy over both", map[string]string{"AWS_MAX_ATTEMPTS": "2"}, "", []client.Option{client.WithRetryPolicy(fast)}, 3},
		{"unset", nil, "", nil, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &throttled{}
			vars := map[string]string{"AWS_REGION": "us-east-1"}
			for k, v := range tc.vars {
				vars[k] = v
			}
			opts := append([]client.Option{client.WithAWSConfig(awsConfig(t, vars, tc.config)), client.WithTransport(s),
				client.WithAWSCredentials(testCreds)}, tc.opts...)
			cl, err := client.New(m, dynamoDB, "", opts...)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cl.Call(context.Background(), "ListTables", []byte(`{}`)); err == nil {
				t.Fatal("no error")
			}
			if got := s.n.Load(); got != tc.sends {
				t.Errorf("%d sends, want %d", got, tc.sends)
			}
		})
	}
}

// TestAWSSettingsErrors: a malformed setting fails New, naming where it is
// set and not showing the value.
func TestAWSSettingsErrors(t *testing.T) {
	m := loadAWSModel(t, "dynamodb.json")
	const secret = "s3cr3t"
	for _, tc := range []struct {
		name   string
		vars   map[string]string
		config string
		opts   []client.Option
		want   string // @: the config file
	}{
		{"max_attempts", nil, "[default]\nregion = us-east-1\nmax_attempts = " + secret + "\n", nil, "@:3: max_attempts must be a whole number of at least 1"},
		{"retry mode", map[string]string{"AWS_RETRY_MODE": secret}, "", nil, "environment variable AWS_RETRY_MODE must be standard, adaptive or legacy"},
		{"FIPS", map[string]string{"AWS_USE_FIPS_ENDPOINT": secret}, "", nil, "environment variable AWS_USE_FIPS_ENDPOINT must be true or false"},
		{"dual-stack", nil, "[default]\nuse_dualstack_endpoint = " + secret + "\n", nil, "@:2: use_dualstack_endpoint must be true or false"},
		{"region", nil, "[default]\nregion = " + secret + "/x\n", nil, "@:2: region is not a valid region name"},
		{"endpoint URL", map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "ftp://" + secret}, "", nil,
			"environment variable AWS_ENDPOINT_URL_DYNAMODB must be an absolute http:// or https:// URL"},
		{"endpoint URL with a password", nil, "[default]\nendpoint_url = https://u:" + secret + "@h\n", nil, "@:2: endpoint_url must be an absolute"},
		{"CA bundle", map[string]string{"AWS_CA_BUNDLE": "/nonexistent/" + secret}, "", nil,
			"environment variable AWS_CA_BUNDLE: the CA bundle cannot be read: no such file or directory"},
		{"services section", nil, "[default]\nservices = gone\n", nil, "@:2: services: there is no [services gone] section"},
		{"no such profile", nil, "[default]\n", []client.Option{client.WithProfile("nope")}, `profile "nope" is in neither`},
		{"malformed file", nil, "[default]\nnot a setting\n", nil, "@:2: not \"key = value\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			if tc.config != "" {
				if err := os.MkdirAll(filepath.Join(home, ".aws"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(home, ".aws", "config"), []byte(tc.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			vars := map[string]string{"HOME": home}
			for k, v := range tc.vars {
				vars[k] = v
			}
			for k, v := range vars {
				t.Setenv(k, v) // New loads the process's own configuration
			}
			for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_REGION"} {
				if _, ok := vars[k]; !ok {
					t.Setenv(k, "")
				}
			}
			opts := append([]client.Option{client.WithAWSCredentials(testCreds)}, tc.opts...)
			if tc.name != "CA bundle" { // the CA bundle is libcurl's
				opts = append(opts, client.WithTransport(&awsStandIn{}))
			}
			_, err := client.New(m, dynamoDB, "", opts...)
			var ce *client.Error
			if !errors.As(err, &ce) || ce.Kind != client.KindUsage {
				t.Fatalf("error %v, want a usage error", err)
			}
			want := strings.ReplaceAll(tc.want, "@", filepath.Join(home, ".aws", "config"))
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q, want %q in it", err, want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error %q shows the value", err)
			}
		})
	}
}

// nonAWS is a service with endpoint rules that read AWS::Region and
// SDK::Endpoint but neither SigV4 nor aws.api#service.
const nonAWS = `$version: "2"
namespace t
use smithy.rules#endpointRuleSet

@alloy#simpleRestJson
@endpointRuleSet({
    version: "1.0"
    parameters: {
        Region: {type: "string", builtIn: "AWS::Region", documentation: "region"}
        Endpoint: {type: "string", builtIn: "SDK::Endpoint", documentation: "endpoint"}
    }
    rules: [
        {conditions: [{fn: "isSet", argv: [{ref: "Endpoint"}]}], endpoint: {url: {ref: "Endpoint"}}, type: "endpoint"}
        {conditions: [{fn: "isSet", argv: [{ref: "Region"}]}], endpoint: {url: "https://{Region}.example.com"}, type: "endpoint"}
        {conditions: [], error: "no region", type: "error"}
    ]
})
service S { operations: [Op] }

@readonly
@http(method: "GET", uri: "/op")
operation Op {}
`

// TestNonAWSServiceIgnoresAWSSettings: a service without AWS auth reads
// none of the AWS settings, from the environment or a configuration.
func TestNonAWSServiceIgnoresAWSSettings(t *testing.T) {
	m := loadIDL(t, nonAWS)
	t.Setenv("AWS_REGION", "us-west-2")
	t.Setenv("AWS_DEFAULT_REGION", "us-west-2")
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	t.Setenv("AWS_MAX_ATTEMPTS", "not a number")
	cfg := awsConfig(t, map[string]string{"AWS_REGION": "us-west-2", "AWS_ENDPOINT_URL": "http://127.0.0.1:1"}, "[default]\nregion = eu-west-1\n")
	for _, opts := range [][]client.Option{nil, {client.WithAWSConfig(cfg)}} {
		_, err := client.New(m, "t#S", "", append(opts, client.WithTransport(&awsStandIn{}))...)
		if err == nil || !strings.Contains(err.Error(), "give a region") {
			t.Errorf("New without a region: %v", err)
		}
		cl, err := client.New(m, "t#S", "", append(opts, client.WithTransport(&awsStandIn{}), client.WithRegion("ap-east-1"))...)
		if err != nil {
			t.Fatal(err)
		}
		if ep, err := cl.ResolveEndpoint("Op", nil); err != nil || ep.URL != "https://ap-east-1.example.com" {
			t.Errorf("resolved %v, %v", ep, err)
		}
	}
}
