package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestAWSSettings: an AWS model takes the region and endpoint URL of the
// AWS settings (the profile's, AWS_ENDPOINT_URL_<SERVICE>) where no flag
// gives them; a malformed setting is a usage error naming its line.
func TestAWSSettings(t *testing.T) {
	ddb := filepath.Join(shareddata.Path(t), "models", "aws", "dynamodb.json")
	bin := smithycurl(t)
	home := t.TempDir()
	config := filepath.Join(home, ".aws", "config")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte("[profile dev]\nregion = eu-west-1\n\n[profile bad]\nmax_attempts = many\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, k := range []string{"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_DEFAULT_PROFILE", "AWS_ENDPOINT_URL"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_PROFILE", "dev")
	if out, errOut, code := runCmd(t, bin, "endpoint", "--model", ddb); code != 0 || !strings.Contains(out, `"url":"https://dynamodb.eu-west-1.amazonaws.com"`) {
		t.Errorf("the profile's region: exit %d: %s%s", code, out, errOut)
	}
	if out, errOut, code := runCmd(t, bin, "endpoint", "--model", ddb, "--region", "us-west-2"); code != 0 || !strings.Contains(out, "dynamodb.us-west-2.amazonaws.com") {
		t.Errorf("--region over the profile's: exit %d: %s%s", code, out, errOut)
	}
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000")
	if out, errOut, code := runCmd(t, bin, "endpoint", "--model", ddb); code != 0 || !strings.Contains(out, `"url":"http://127.0.0.1:8000"`) {
		t.Errorf("AWS_ENDPOINT_URL_DYNAMODB: exit %d: %s%s", code, out, errOut)
	}
	t.Setenv("AWS_PROFILE", "bad")
	_, errOut, code := runCmd(t, bin, "endpoint", "--model", ddb)
	if want := config + ":5: max_attempts must be a whole number of at least 1"; code != 2 || !strings.Contains(errOut, want) || strings.Contains(errOut, "many") {
		t.Errorf("a malformed setting: exit %d: %q, want %q in it", code, errOut, want)
	}
}

// TestAWSSettingsMaxAttempts: AWS_MAX_ATTEMPTS bounds the sends of a call
// unless --retries is given.
func TestAWSSettingsMaxAttempts(t *testing.T) {
	ddb := filepath.Join(shareddata.Path(t), "models", "aws", "dynamodb.json")
	bin := smithycurl(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		hits.Add(1)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(400)
		_, _ = io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"slow down"}`)
	}))
	defer srv.Close()
	t.Setenv("HOME", t.TempDir())
	for _, k := range []string{"AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ENDPOINT_URL", "AWS_RETRY_MODE"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", srv.URL)
	t.Setenv("AWS_MAX_ATTEMPTS", "1")
	args := []string{"call", "--model", ddb, "ListTables", "--input", "{}", "--aws-access-key-id", "AKIDEXAMPLE", "--aws-secret-access-key", "secret"}
	for _, tc := range []struct {
		extra []string
		hits  int32
	}{{nil, 1}, {[]string{"--retries", "2"}, 3}} {
		hits.Store(0)
		_, errOut, code := runCmd(t, bin, append(args, tc.extra...)...)
		if code == 0 || hits.Load() != tc.hits {
			t.Errorf("%v: exit %d, %d requests, want %d: %s", tc.extra, code, hits.Load(), tc.hits, errOut)
		}
	}
}
