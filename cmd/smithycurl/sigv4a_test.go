package main

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/sigv4aserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestCallSigV4a: `call` of EventBridge's PutEvents with an EndpointId
// (the real model) signs with SigV4a, as the endpoint rules choose, and
// the fake global endpoint verifies the signature with the public key of
// its test credentials (given in the environment).
func TestCallSigV4a(t *testing.T) {
	bin := smithycurl(t)
	model := shareddata.Path(t, "aws-models", "eventbridge.json")
	awsHome(t, "", "")
	t.Setenv("AWS_ACCESS_KEY_ID", sigv4aserver.TestAccessKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", sigv4aserver.TestSecretKey)
	srv := httptest.NewServer(sigv4aserver.Handler())
	defer srv.Close()
	out, errOut, code := runCmd(t, bin, "call", "--model", model, "--endpoint", srv.URL, "--region", "us-east-1", "PutEvents",
		"--input", `{"EndpointId": "abcde.veo", "Entries": [{"Source": "test", "DetailType": "t", "Detail": "{}"}]}`)
	if code != 0 || !strings.Contains(out, `"EventId":"sigv4a events *"`) && !strings.Contains(out, `"EventId": "sigv4a events *"`) {
		t.Errorf("call PutEvents with an EndpointId: exit %d\n%s\n%s", code, out, errOut)
	}
}
