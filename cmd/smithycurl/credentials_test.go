package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// awsHome makes a temporary home folder with ~/.aws/config and
// ~/.aws/credentials, and an environment that reads only them.
func awsHome(t *testing.T, config, creds string) string {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, ".aws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"config": config, "credentials": creds} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	for _, k := range []string{"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE",
		"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
		"AWS_SESSION_TOKEN", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_ENDPOINT_URL_DYNAMODB"} {
		t.Setenv(k, "") // restored after the test
		os.Unsetenv(k)  // a variable set empty counts for some providers
	}
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	return home
}

// TestCredentialsCommand: `smithycurl credentials` shows which provider and
// file:line or variable gave the credentials, the access key id's last four
// characters, never a secret, the region and endpoint with where they are
// set, and the expiry; JSON with --json; exit 2 when none are found.
func TestCredentialsCommand(t *testing.T) {
	bin := smithycurl(t)
	home := awsHome(t,
		"[profile dev]\nregion = eu-west-1\n\n[profile proc]\ncredential_process = PROCESS\n",
		"[dev]\naws_access_key_id = AKIDDEVEXAMPLE1234\naws_secret_access_key = SECRET-DEV-VALUE\n")
	// A credential_process that hands out temporary credentials.
	script := filepath.Join(home, "creds.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho '{\"Version\": 1, \"AccessKeyId\": \"AKIDPROCESS9876\", \"SecretAccessKey\": \"SECRET-PROC-VALUE\", \"SessionToken\": \"TOKEN-PROC-VALUE\", \"Expiration\": \"2099-01-02T03:04:05Z\"}'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(home, ".aws", "config")
	text, _ := os.ReadFile(config)
	if err := os.WriteFile(config, []byte(strings.Replace(string(text), "PROCESS", script, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	noSecrets := func(t *testing.T, out string) {
		t.Helper()
		for _, s := range []string{"SECRET-", "TOKEN-PROC", "AKIDDEVEXAMPLE", "AKIDPROCESS"} {
			if strings.Contains(out, s) {
				t.Errorf("the output shows %s...:\n%s", s, out)
			}
		}
	}

	out, errOut, code := runCmd(t, bin, "credentials", "--profile", "dev")
	noSecrets(t, out+errOut)
	for _, want := range []string{
		"profile         dev",
		"access_key      ****************1234   shared-credentials-file: profile dev (" + filepath.Join(home, ".aws", "credentials") + ":2)",
		"secret_key      ****************",
		"session_token   <not set>",
		"region          eu-west-1              " + config + ":2",
		"expires: never",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--profile dev: exit %d, want %q in:\n%s%s", code, want, out, errOut)
		}
	}

	// AWS_PROFILE, a credential_process with an expiry, as JSON.
	t.Setenv("AWS_PROFILE", "proc")
	t.Setenv("AWS_REGION", "us-west-2")
	out, errOut, code = runCmd(t, bin, "credentials", "--json")
	noSecrets(t, out+errOut)
	var rep credReport
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("--json: exit %d, %v: %s%s", code, err, out, errOut)
	}
	got := map[string]credRow{}
	for _, r := range rep.Rows {
		got[r.Name] = r
	}
	value := func(name string) string {
		if v := got[name].Value; v != nil {
			return *v
		}
		return "<nil>"
	}
	if value("profile") != "proc" || got["profile"].From != "AWS_PROFILE" ||
		value("access_key") != "****************9876" || !strings.Contains(got["access_key"].From, "credential_process") ||
		value("session_token") != masked || value("region") != "us-west-2" || got["region"].From != "AWS_REGION" ||
		rep.Expires == nil || *rep.Expires != "2099-01-02T03:04:05Z" {
		t.Errorf("--json: %s", out)
	}

	// With a model: the service's endpoint URL setting, from where it is set.
	ddb := filepath.Join(shareddata.Path(t), "models", "aws", "dynamodb.json")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000")
	out, errOut, code = runCmd(t, bin, "credentials", "--model", ddb)
	if want := "endpoint        http://127.0.0.1:8000   AWS_ENDPOINT_URL_DYNAMODB"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("--model: exit %d, want %q in:\n%s%s", code, want, out, errOut)
	}

	// Nothing found: exit 2 saying what was tried; an unknown profile.
	t.Setenv("AWS_PROFILE", "")
	if err := os.WriteFile(filepath.Join(home, ".aws", "credentials"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCmd(t, bin, "credentials")
	if code != 2 || !strings.Contains(out, "access_key      <not set>") || !strings.Contains(errOut, "AWS_ACCESS_KEY_ID") {
		t.Errorf("no credentials: exit %d: %s%s", code, out, errOut)
	}
	_, errOut, code = runCmd(t, bin, "credentials", "--profile", "nope")
	if code != 2 || !strings.Contains(errOut, `profile "nope"`) {
		t.Errorf("unknown profile: exit %d: %s", code, errOut)
	}
}

// TestProfileFlag: --profile picks the profile whose settings call and
// endpoint read (its region here, signed for by call).
func TestProfileFlag(t *testing.T) {
	ddb := filepath.Join(shareddata.Path(t), "models", "aws", "dynamodb.json")
	bin := smithycurl(t)
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		auth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = io.WriteString(w, `{"TableNames":[]}`)
	}))
	defer srv.Close()
	awsHome(t, "[profile dev]\nregion = eu-west-1\nendpoint_url = "+srv.URL+"\n\n[profile other]\nregion = ap-south-1\n", "")
	t.Setenv("AWS_PROFILE", "other")
	out, errOut, code := runCmd(t, bin, "call", "--model", ddb, "--profile", "dev", "ListTables", "--input", "{}",
		"--aws-access-key-id", "AKIDEXAMPLE", "--aws-secret-access-key", "secret")
	if code != 0 || !strings.Contains(auth, "/eu-west-1/dynamodb/aws4_request") {
		t.Errorf("call --profile dev: exit %d, Authorization %q: %s%s", code, auth, out, errOut)
	}
	out, errOut, code = runCmd(t, bin, "endpoint", "--model", ddb, "--profile", "dev")
	if code != 0 || !strings.Contains(out, `"url":"`+srv.URL+`"`) {
		t.Errorf("endpoint --profile dev: exit %d: %s%s", code, out, errOut)
	}
	_, errOut, code = runCmd(t, bin, "wait", "--model", ddb, "--profile", "nope", "TableExists", "--input", `{"TableName":"t"}`)
	if code != 2 || !strings.Contains(errOut, `profile "nope"`) {
		t.Errorf("wait --profile nope: exit %d: %s", code, errOut)
	}
}
