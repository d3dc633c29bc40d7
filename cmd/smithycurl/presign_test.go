package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestPresignCommand: the URL alone on stdout, what the sender must send
// on stderr (or all of it with --json), -H signed, --expires bounded.
func TestPresignCommand(t *testing.T) {
	s3 := filepath.Join(shareddata.Path(t), "models", "aws-large", "s3.json")
	bin := smithycurl(t)
	common := []string{"--model", s3, "--region", "eu-west-1", "--aws-access-key-id", "AKID", "--aws-secret-access-key", "secret",
		"--signing-time", "2024-01-02T03:04:05Z"}
	out, errOut, code := runCmd(t, bin, append([]string{"presign", "GetObject", "--expires", "60", "--input", `{"Bucket":"my-bucket","Key":"k"}`}, common...)...)
	const want = "https://my-bucket.s3.eu-west-1.amazonaws.com/k?x-id=GetObject&X-Amz-Algorithm=AWS4-HMAC-SHA256" +
		"&X-Amz-Credential=AKID%2F20240102%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20240102T030405Z&X-Amz-Expires=60&X-Amz-SignedHeaders=host&X-Amz-Signature="
	if code != 0 || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 || errOut != "" {
		t.Errorf("GetObject: exit %d: %q %q", code, out, errOut)
	}
	out, errOut, code = runCmd(t, bin, append([]string{"presign", "PutObject", "-H", "x-amz-acl: private", "--input", `{"Bucket":"my-bucket","Key":"k","ContentType":"text/plain"}`}, common...)...)
	if code != 0 || !strings.Contains(out, "&X-Amz-SignedHeaders=content-type%3Bhost%3Bx-amz-acl&") ||
		errOut != "smithycurl: send it with method PUT and header 'Content-Type: text/plain' and header 'X-Amz-Acl: private'\n" {
		t.Errorf("PutObject: exit %d: %q %q", code, out, errOut)
	}
	out, _, code = runCmd(t, bin, append([]string{"presign", "--json", "PutObject", "--input", `{"Bucket":"my-bucket","Key":"k","ContentType":"text/plain"}`}, common...)...)
	var j struct {
		URL, Method, Expires string
		Headers              map[string]string
	}
	if err := json.Unmarshal([]byte(out), &j); code != 0 || err != nil || j.Method != "PUT" || j.Expires != "2024-01-02T04:04:05Z" ||
		j.Headers["Content-Type"] != "text/plain" || !strings.Contains(j.URL, "X-Amz-Expires=3600&") {
		t.Errorf("--json: exit %d: %s (%v)", code, out, err)
	}
	for _, e := range []string{"0", "604801"} {
		if _, errOut, code := runCmd(t, bin, append([]string{"presign", "GetObject", "--expires", e, "--input", `{"Bucket":"b","Key":"k"}`}, common...)...); code != 2 || !strings.Contains(errOut, "604800") {
			t.Errorf("--expires %s: exit %d: %s", e, code, errOut)
		}
	}
}
