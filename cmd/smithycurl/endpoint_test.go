package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestEndpointAndRegion: `endpoint` prints what the rules resolve; `call`
// takes --region instead of --endpoint for an AWS model, and with both the
// endpoint goes through the rules (FIPS with a custom endpoint is the
// rules' usage error).
func TestEndpointAndRegion(t *testing.T) {
	shared := shareddata.Path(t)
	bin := smithycurl(t)
	ddb := filepath.Join(shared, "models", "aws", "dynamodb.json")
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	out, errOut, code := runCmd(t, bin, "endpoint", "--model", ddb, "--region", "local")
	var ep struct {
		URL        string
		Properties struct{ AuthSchemes []map[string]string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &ep) != nil || ep.URL != "http://localhost:8000" ||
		len(ep.Properties.AuthSchemes) != 1 || ep.Properties.AuthSchemes[0]["signingRegion"] != "us-east-1" {
		t.Errorf("endpoint --region local: exit %d\n%s\n%s", code, out, errOut)
	}
	out, _, code = runCmd(t, bin, "endpoint", "--model", ddb, "--region", "eu-west-1", "--dual-stack")
	if code != 0 || !strings.Contains(out, `{"url":"https://dynamodb.eu-west-1.api.aws",`) {
		t.Errorf("endpoint --dual-stack: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, bin, "endpoint", "--model", ddb, "--region", "us-east-1",
		"--endpoint-param", "AccountIdEndpointMode=preferred", "DescribeTable", "--input", `{"TableName": "arn:aws:dynamodb:us-east-1:222222222222:table/t"}`)
	if code != 0 || out != `{"url":"https://222222222222.ddb.us-east-1.amazonaws.com","headers":{},"properties":{}}`+"\n" { // as in the README
		t.Errorf("endpoint with a contextParam: exit %d\n%s", code, out)
	}
	// A rule's error names the operation only when one was given.
	fips := []string{"endpoint", "--model", ddb, "--region", "us-east-1", "--fips", "--endpoint", "http://127.0.0.1:1"}
	_, errOut, code = runCmd(t, bin, fips...)
	if want := "smithycurl: usage error: endpoint rules: Invalid Configuration: FIPS and custom endpoint are not supported\n"; code != 2 || errOut != want {
		t.Errorf("endpoint --fips --endpoint: exit %d: %q, want %q", code, errOut, want)
	}
	_, errOut, code = runCmd(t, bin, append(fips, "DescribeTable", "--input", `{"TableName": "t"}`)...)
	if code != 2 || !strings.HasPrefix(errOut, "smithycurl: DescribeTable: usage error: endpoint rules: Invalid Configuration: FIPS") {
		t.Errorf("endpoint --fips --endpoint DescribeTable: exit %d: %s", code, errOut)
	}
	_, errOut, code = runCmd(t, bin, "endpoint", "--model", ddb, "--region", "us-east-1\r\nX: y")
	if code != 2 || !strings.Contains(errOut, "is not a valid region name") {
		t.Errorf("bad region: exit %d: %s", code, errOut)
	}

	var mu sync.Mutex
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		auth = r.Header.Get("Authorization")
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = io.WriteString(w, `{"TableNames": []}`)
	}))
	defer srv.Close()
	keys := []string{"--aws-access-key-id", "AKIDEXAMPLE", "--aws-secret-access-key", "secret"}
	args := append([]string{"call", "--model", ddb, "--endpoint", srv.URL, "--region", "ap-south-1", "ListTables", "--input", "{}"}, keys...)
	out, errOut, code = runCmd(t, bin, args...)
	mu.Lock()
	signed := auth
	mu.Unlock()
	if code != 0 || !strings.Contains(out, "TableNames") || !strings.Contains(signed, "/ap-south-1/dynamodb/aws4_request") {
		t.Errorf("call --region --endpoint: exit %d\n%s\n%s\nauth %s", code, out, errOut, signed)
	}
	_, errOut, code = runCmd(t, bin, append(args, "--fips")...)
	if code != 2 || !strings.Contains(errOut, "endpoint rules: Invalid Configuration: FIPS and custom endpoint are not supported") {
		t.Errorf("call --fips --endpoint: exit %d: %s", code, errOut)
	}
	// No endpoint and no region: a usage error that names the flags to give.
	for _, args := range [][]string{append([]string{"call", "--model", ddb, "ListTables", "--input", "{}"}, keys...), {"endpoint", "--model", ddb}} {
		_, errOut, code = runCmd(t, bin, args...)
		want := "smithycurl: service com.amazonaws.dynamodb#DynamoDB_20120810 needs a region: give --region REGION (or set AWS_REGION), or --endpoint URL\n"
		if code != 2 || errOut != want {
			t.Errorf("%s without endpoint or region: exit %d: %q, want %q", args[0], code, errOut, want)
		}
	}
	// A region from the environment or the rules' parameter will do.
	t.Setenv("AWS_DEFAULT_REGION", "eu-west-3")
	if out, errOut, code := runCmd(t, bin, "endpoint", "--model", ddb); code != 0 || !strings.Contains(out, "dynamodb.eu-west-3.amazonaws.com") {
		t.Errorf("endpoint with AWS_DEFAULT_REGION: exit %d: %s%s", code, out, errOut)
	}
	t.Setenv("AWS_DEFAULT_REGION", "")
	if out, errOut, code := runCmd(t, bin, "endpoint", "--model", ddb, "--endpoint-param", "Region=eu-west-2"); code != 0 || !strings.Contains(out, "dynamodb.eu-west-2.amazonaws.com") {
		t.Errorf("endpoint --endpoint-param Region=: exit %d: %s%s", code, out, errOut)
	}
}

// TestValidateEndpointRules: `validate` compiles the endpoint rules and
// names the rule at fault.
func TestValidateEndpointRules(t *testing.T) {
	bin := smithycurl(t)
	dir := t.TempDir()
	src := `$version: "2"
namespace test.bad
@smithy.rules#endpointRuleSet({version: "1.0", parameters: {Region: {type: "String", builtIn: "AWS::Region", documentation: "r"}},
 rules: [{documentation: "the bad one", conditions: [{fn: "frobnicate", argv: [{ref: "Region"}]}], type: "error", error: "x"}]})
service Bad { operations: [] }
`
	path := filepath.Join(dir, "bad.smithy")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCmd(t, bin, "validate", path)
	if code != 2 || !strings.Contains(errOut, `bad.smithy:5:1: error: test.bad#Bad: endpoint rule set: rules[0] (the bad one): condition 0: unknown function "frobnicate"`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
