package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

var (
	awsModelsMu sync.Mutex
	awsModels   = map[string]*model.Model{}
)

func loadAWSModel(t *testing.T, file string) *model.Model {
	t.Helper()
	shared := shareddata.Path(t)
	awsModelsMu.Lock()
	defer awsModelsMu.Unlock()
	if m, ok := awsModels[file]; ok {
		return m
	}
	m, err := model.LoadPaths(context.Background(), filepath.Join(shared, "models", "aws", file))
	if err != nil {
		t.Fatal(err)
	}
	awsModels[file] = m
	return m
}

// awsStandIn stands for AWS itself, which tests cannot reach: it records
// the request the client would send and answers {}.
type awsStandIn struct {
	url, provider string
	header        wire.Header
}

func (r *awsStandIn) Do(_ context.Context, req *transport.Request) (*wire.Response, error) {
	r.url, r.header = req.URL, req.Header
	// "Credential=KEY/DATE/REGION/SERVICE/aws4_request" names what signed it.
	if _, cred, ok := strings.Cut(req.Header.Get("Authorization"), "Credential="); ok {
		if parts := strings.Split(strings.SplitN(cred, ",", 2)[0], "/"); len(parts) == 5 {
			r.provider = "aws:amz:" + parts[2] + ":" + parts[3]
		}
	}
	return &wire.Response{Status: 200, Header: wire.Header{"Content-Type": {"application/x-amz-json-1.0"}}, Body: []byte("{}")}, nil
}

var testCreds = client.AWSCredentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret"}

func TestRegionResolvesEndpoint(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	m := loadAWSModel(t, "dynamodb.json")
	preferred := client.WithBuiltIn("AWS::Auth::AccountIdEndpointMode", "preferred")
	cases := []struct {
		name     string
		opts     []client.Option
		op, in   string
		url      string
		provider string
	}{
		{"region", []client.Option{client.WithRegion("eu-west-1")}, "ListTables", `{}`,
			"https://dynamodb.eu-west-1.amazonaws.com/", "aws:amz:eu-west-1:dynamodb"},
		{"china", []client.Option{client.WithRegion("cn-north-1")}, "ListTables", `{}`,
			"https://dynamodb.cn-north-1.amazonaws.com.cn/", "aws:amz:cn-north-1:dynamodb"},
		{"fips", []client.Option{client.WithRegion("us-gov-west-1"), client.WithFIPS(true)}, "ListTables", `{}`,
			"https://dynamodb.us-gov-west-1.amazonaws.com/", "aws:amz:us-gov-west-1:dynamodb"},
		{"dual-stack", []client.Option{client.WithRegion("us-west-2"), client.WithDualStack(true)}, "ListTables", `{}`,
			"https://dynamodb.us-west-2.api.aws/", "aws:amz:us-west-2:dynamodb"},
		// contextParam: the table ARN's account makes an account endpoint.
		{"table arn", []client.Option{client.WithRegion("us-east-1"), preferred}, "DescribeTable",
			`{"TableName": "arn:aws:dynamodb:us-east-1:222222222222:table/t"}`,
			"https://222222222222.ddb.us-east-1.amazonaws.com/", "aws:amz:us-east-1:dynamodb"},
		// operationContextParams: keys(RequestItems).
		{"batch arns", []client.Option{client.WithRegion("us-east-1"), preferred}, "BatchGetItem",
			`{"RequestItems": {"arn:aws:dynamodb:us-east-1:333333333333:table/t": {"Keys": [{"k": {"S": "v"}}]}}}`,
			"https://333333333333.ddb.us-east-1.amazonaws.com/", "aws:amz:us-east-1:dynamodb"},
		{"account id param", []client.Option{client.WithRegion("us-east-1"), preferred,
			client.WithBuiltIn("AWS::Auth::AccountId", "111122223333")}, "ListTables", `{}`,
			"https://111122223333.ddb.us-east-1.amazonaws.com/", "aws:amz:us-east-1:dynamodb"},
		{"account id mode off", []client.Option{client.WithRegion("us-east-1"),
			client.WithBuiltIn("AWS::Auth::AccountId", "111122223333"),
			client.WithEndpointParams(map[string]any{"AccountIdEndpointMode": "disabled"})}, "ListTables", `{}`,
			"https://dynamodb.us-east-1.amazonaws.com/", "aws:amz:us-east-1:dynamodb"},
		{"account id without mode", []client.Option{client.WithRegion("us-east-1"),
			client.WithBuiltIn("AWS::Auth::AccountId", "111122223333")}, "ListTables", `{}`,
			"https://dynamodb.us-east-1.amazonaws.com/", "aws:amz:us-east-1:dynamodb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &awsStandIn{}
			opts := append([]client.Option{client.WithTransport(rec), client.WithAWSCredentials(testCreds), client.WithoutRetries()}, c.opts...)
			cl, err := client.New(m, "com.amazonaws.dynamodb#DynamoDB_20120810", "", opts...)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cl.Call(context.Background(), c.op, []byte(c.in)); err != nil {
				t.Fatal(err)
			}
			if rec.url != c.url || rec.provider != c.provider {
				t.Fatalf("sent to %s signed %s; want %s signed %s", rec.url, rec.provider, c.url, c.provider)
			}
		})
	}
}

// TestSigningFromAuthSchemes: DynamoDB's "local" region resolves to
// http://localhost:8000 signed for us-east-1, as its authSchemes say,
// whatever region the credentials carry.
func TestSigningFromAuthSchemes(t *testing.T) {
	m := loadAWSModel(t, "dynamodb.json")
	rec := &awsStandIn{}
	creds := testCreds
	creds.Region = "eu-west-1"
	cl, err := client.New(m, "com.amazonaws.dynamodb#DynamoDB_20120810", "", client.WithRegion("local"),
		client.WithTransport(rec), client.WithAWSCredentials(creds), client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Call(context.Background(), "ListTables", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if rec.url != "http://localhost:8000/" || rec.provider != "aws:amz:us-east-1:dynamodb" {
		t.Fatalf("sent to %s signed %s", rec.url, rec.provider)
	}
}

func TestEndpointUsageErrors(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	m := loadAWSModel(t, "dynamodb.json")
	const svc = "com.amazonaws.dynamodb#DynamoDB_20120810"
	newErr := func(endpoint string, opts ...client.Option) error {
		_, err := client.New(m, svc, endpoint, append(opts, client.WithTransport(&awsStandIn{}))...)
		return err
	}
	for name, err := range map[string]error{
		"no region":   newErr(""),
		"bad region":  newErr("", client.WithRegion("us-east-1/../evil")),
		"crlf region": newErr("", client.WithRegion("us-east-1\r\nX-Evil: 1")),
		"bad param":   newErr("", client.WithRegion("us-east-1"), client.WithEndpointParams(map[string]any{"Nope": "x"})),
		"bad type":    newErr("", client.WithRegion("us-east-1"), client.WithEndpointParams(map[string]any{"UseFIPS": 1})),
	} {
		var e *client.Error
		if !errors.As(err, &e) || e.Kind != client.KindUsage {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
	// An error rule is a usage error with the rule's message, and nothing is sent.
	rec := &awsStandIn{}
	cl, err := client.New(m, svc, "http://127.0.0.1:9", client.WithRegion("us-east-1"), client.WithFIPS(true),
		client.WithTransport(rec), client.WithAWSCredentials(testCreds))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cl.Call(context.Background(), "ListTables", []byte(`{}`))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindUsage ||
		!strings.Contains(err.Error(), "endpoint rules: Invalid Configuration: FIPS and custom endpoint are not supported") {
		t.Fatalf("got %v", err)
	}
	if rec.url != "" {
		t.Fatalf("sent %s", rec.url)
	}
	// A service without rules still needs its endpoint.
	if _, err := client.New(m, svc, ""); err == nil {
		t.Fatal("no endpoint and no region accepted")
	}
}

// TestExplicitEndpointThroughRules: a region and an explicit endpoint reach
// a real server on 127.0.0.1 through libcurl, the endpoint going through
// the rules as SDK::Endpoint, signed for the region.
func TestExplicitEndpointThroughRules(t *testing.T) {
	m := loadAWSModel(t, "dynamodb.json")
	var mu sync.Mutex
	var auth, target string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		auth, target = r.Header.Get("Authorization"), r.Header.Get("X-Amz-Target")
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = io.WriteString(w, `{"TableNames": ["a"]}`)
	}))
	defer srv.Close()
	cl, err := client.New(m, "com.amazonaws.dynamodb#DynamoDB_20120810", srv.URL, client.WithRegion("eu-central-1"),
		client.WithAWSCredentials(testCreds))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	out, err := cl.Call(context.Background(), "ListTables", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(string(out), `"a"`) || target != "DynamoDB_20120810.ListTables" ||
		!strings.Contains(auth, "/eu-central-1/dynamodb/aws4_request") {
		t.Fatalf("out %s, target %q, auth %q", out, target, auth)
	}
}

// The URL the endpoint rules resolve is sent as they wrote it: S3's
// path-style URL holds uriEncode(Bucket), whose reserved characters
// (",", "&", "=", ":", "@", "+", "$", ";") stay percent-encoded, as in
// botocore's request (the differential test, testing/botocore/diff_botocore.py).
func TestEndpointRulesURLKeepsItsEncoding(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "models", "aws-large", "s3.json"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.RequestURI)
		mu.Unlock()
		w.WriteHeader(200)
	}))
	defer srv.Close()
	cl, err := client.New(m, "com.amazonaws.s3#AmazonS3", srv.URL, client.WithRegion("us-east-1"),
		client.WithAWSCredentials(testCreds), client.WithoutRetries(),
		client.WithEndpointParams(map[string]any{"ForcePathStyle": true}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for _, c := range []struct{ op, in, want string }{
		{"HeadBucket", `{"Bucket": "a,b&c=d:e@f+g$h;i"}`, "/a%2Cb%26c%3Dd%3Ae%40f%2Bg%24h%3Bi"},
		{"HeadObject", `{"Bucket": "b,1", "Key": "k,2/x y"}`, "/b%2C1/k%2C2/x%20y"},
		{"HeadBucket", `{"Bucket": "plain-bucket.1"}`, "/plain-bucket.1"},
	} {
		mu.Lock()
		got = nil
		mu.Unlock()
		if _, err := cl.Call(context.Background(), c.op, []byte(c.in)); err != nil {
			t.Fatalf("%s %s: %v", c.op, c.in, err)
		}
		mu.Lock()
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s %s: request target %q, want %q", c.op, c.in, got, c.want)
		}
		mu.Unlock()
	}
}
