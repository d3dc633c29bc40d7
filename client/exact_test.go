package client_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// stubServer is a 127.0.0.1 server that records the requests it gets and
// answers each with status and body.
type stubServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
}

func newStubServer(t *testing.T, status int, body string) *stubServer {
	t.Helper()
	r := &stubServer{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		r.mu.Lock()
		r.reqs = append(r.reqs, req)
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *stubServer) requests() []*http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*http.Request(nil), r.reqs...)
}

// awsModel loads a real AWS service model from the shared data.
func awsModel(t *testing.T, name string) *model.Model {
	t.Helper()
	path := shareddata.Path(t, "models", "aws", name)
	m, err := model.LoadPaths(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var fakeAWS = client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "fake", Region: "us-east-1"})

// Values that do not fit their type, and input that is not UTF-8 or escapes a
// lone surrogate (in a string or a map key), are usage
// errors naming the member, with or without validation, and nothing is sent.
func TestTypeErrorsAreNotSent(t *testing.T) {
	srv := newStubServer(t, 200, `{}`)
	m := awsModel(t, "lambda.json")
	for _, opts := range [][]client.Option{nil, {client.WithoutValidation()}} {
		c, err := client.New(m, "com.amazonaws.lambda#AWSGirApiService", srv.URL, append(opts, fakeAWS, client.WithoutRetries())...)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for in, want := range map[string]string{
			`{"FunctionName": "f", "MemorySize": 1.5}`:                             "member MemorySize: 1.5 is not a whole number (integer: -2147483648 to 2147483647)",
			`{"FunctionName": "f", "MemorySize": 4294967296}`:                      "member MemorySize: 4294967296 is out of range (integer:",
			`{"FunctionName": "f", "MemorySize": 01}`:                              "01 is not a JSON number",
			`{"FunctionName": "f", "Environment": {"Variables": 1}}`:               "member Environment.Variables: expected an object",
			"{\"FunctionName\": \"f\", \"Description\": \"\xff\xfe\"}":             "the input is not valid UTF-8 (at /Description, byte 38)",
			`{"FunctionName": "f", "Description": "a\ud800b"}`:                     `the input is not Unicode text: \ud800 is a lone surrogate (at /Description, byte 39)`,
			`{"FunctionName": "f", "Environment": {"Variables": {"\udc00": "v"}}}`: `the input is not Unicode text: \udc00 is a lone surrogate (at /Environment/Variables/\udc00, byte 53)`,
		} {
			_, err := c.Call(context.Background(), "UpdateFunctionConfiguration", []byte(in))
			if e := asError(t, err, client.KindUsage); !strings.Contains(e.Error(), want) {
				t.Errorf("%s: %v, want %q", in, e, want)
			}
		}
		_, err = c.Call(context.Background(), "UpdateFunctionCode", []byte(`{"FunctionName": "f", "ZipFile": "!!!notbase64"}`))
		if e := asError(t, err, client.KindUsage); !strings.Contains(e.Error(), "member ZipFile: invalid base64: illegal character '!' at offset 0") {
			t.Errorf("blob: %v", e)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

// An operation whose output is an event stream fails in Call before
// sending, with a pointer to CallStream.
func TestEventStreamOperationsRefused(t *testing.T) {
	srv := newStubServer(t, 200, `{}`)
	for _, tc := range []struct{ file, svc, op, input, want string }{
		{"lambda.json", "com.amazonaws.lambda#AWSGirApiService", "InvokeWithResponseStream", `{"FunctionName": "f"}`,
			"operation InvokeWithResponseStream: its output is an event stream (member EventStream): open it as a stream"},
	} {
		m := awsModel(t, tc.file)
		c, err := client.New(m, model.ShapeID(tc.svc), srv.URL, fakeAWS, client.WithoutRetries())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = c.Call(context.Background(), tc.op, []byte(tc.input))
		if e := asError(t, err, client.KindUsage); !strings.Contains(e.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.op, e, tc.want)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

// Lambda's Invoke with an empty response body returns an empty Payload.
func TestLambdaInvokeEmptyPayload(t *testing.T) {
	m := awsModel(t, "lambda.json")
	for body, want := range map[string]string{"": `{"StatusCode":200,"Payload":""}`, "{}": `{"StatusCode":200,"Payload":"e30="}`} {
		srv := newStubServer(t, 200, body)
		c, err := client.New(m, "com.amazonaws.lambda#AWSGirApiService", srv.URL, fakeAWS, client.WithoutRetries())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		out, err := c.Call(context.Background(), "Invoke", []byte(`{"FunctionName": "f"}`))
		if err != nil || string(out) != want {
			t.Errorf("body %q: %s (%v), want %s", body, out, err, want)
		}
	}
}

// API Gateway gets "Accept: application/json" on every request, as every
// AWS SDK sends it; other restJson1 services do not.
func TestAPIGatewayAccept(t *testing.T) {
	srv := newStubServer(t, 200, `{}`)
	m := awsModel(t, "apigateway.json")
	c, err := client.New(m, "com.amazonaws.apigateway#BackplaneControlService", srv.URL, fakeAWS, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, op := range []string{"GetRestApis", "GetAccount"} {
		if _, err := c.Call(context.Background(), op, nil); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
	lambda, err := client.New(awsModel(t, "lambda.json"), "com.amazonaws.lambda#AWSGirApiService", srv.URL, fakeAWS, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer lambda.Close()
	if _, err := lambda.Call(context.Background(), "GetAccountSettings", nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, apigw := range []bool{true, true, false} {
		if got := reqs[i].Header.Get("Accept"); (got == "application/json") != apigw {
			t.Errorf("%s %s: Accept %q", reqs[i].Method, reqs[i].URL.Path, got)
		}
	}
}

// By default a constraint violation goes to the server (the Smithy
// specification's rule); @required is still checked.
func TestValidationDefaultSendsConstraintViolations(t *testing.T) {
	srv := newStubServer(t, 200, `{}`)
	m := awsModel(t, "lambda.json")
	c, err := client.New(m, "com.amazonaws.lambda#AWSGirApiService", srv.URL, fakeAWS, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// FunctionName has a @pattern and a @length; "not a valid name!" breaks the pattern.
	if _, err := c.Call(context.Background(), "GetFunctionConfiguration", []byte(`{"FunctionName": "not a valid name!"}`)); err != nil {
		t.Fatalf("a @pattern violation is refused by default: %v", err)
	}
	if reqs := srv.requests(); len(reqs) != 1 || !strings.Contains(reqs[0].URL.EscapedPath(), "not%20a%20valid%20name%21") {
		t.Errorf("requests %v", reqs)
	}
	_, err = c.Call(context.Background(), "GetFunctionConfiguration", []byte(`{}`))
	if e := asError(t, err, client.KindValidation); !strings.Contains(e.Error(), "FunctionName: is required") {
		t.Errorf("missing @required member: %v", e)
	}
	cv, err := client.New(m, "com.amazonaws.lambda#AWSGirApiService", srv.URL, fakeAWS, client.WithoutRetries(), client.WithValidation())
	if err != nil {
		t.Fatal(err)
	}
	defer cv.Close()
	_, err = cv.Call(context.Background(), "GetFunctionConfiguration", []byte(`{"FunctionName": "not a valid name!"}`))
	if e := asError(t, err, client.KindValidation); !strings.Contains(e.Error(), `FunctionName: value "not a valid name!" does not match the pattern`) {
		t.Errorf("with validation: %v", e)
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
