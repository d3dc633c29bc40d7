package main

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/testing/servers/s3expressserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestCallS3Express: `call` of PutObject then GetObject on a directory
// bucket (the real S3 model, whose endpoint rules choose sigv4-s3express)
// signs each with the session of its own CreateSession (one per
// process), which the fake endpoint checks (token and signature).
func TestCallS3Express(t *testing.T) {
	bin := smithycurl(t)
	model := shareddata.Path(t, "models", "aws-large", "s3.json")
	awsHome(t, "", "")
	t.Setenv("AWS_ACCESS_KEY_ID", s3expressserver.TestAccessKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", s3expressserver.TestSecretKey)
	fake := s3expressserver.New(5 * time.Minute)
	srv := httptest.NewServer(fake.Handler())
	defer srv.Close()
	const bucket = `"Bucket": "cli--usw2-az1--x-s3", "Key": "k"`
	for _, c := range []struct{ op, input, want string }{
		{"PutObject", `{` + bucket + `, "Body": "aGk="}`, ""},
		{"GetObject", `{` + bucket + `}`, "aGk="},
	} {
		out, errOut, code := runCmd(t, bin, "call", "--model", model, "--endpoint", srv.URL, "--region", "us-west-2", c.op, "--input", c.input)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("call %s: exit %d\n%s\n%s", c.op, code, out, errOut)
		}
	}
	if n := fake.CreateSessions(); n != 2 {
		t.Errorf("%d CreateSession calls, want one per process (2)", n)
	}
}
