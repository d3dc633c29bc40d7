package credentials

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
)

// varsEnv is an environment of vars only, with an empty home folder (so
// no shared file of the machine is read).
func varsEnv(t *testing.T, vars map[string]string) awsconfig.Env {
	t.Helper()
	return awsconfig.Env{
		Lookup: func(name string) (string, bool) { v, ok := vars[name]; return v, ok },
		Home:   t.TempDir(),
	}
}

// writeAWSFiles writes ~/.aws/config and ~/.aws/credentials under env's home.
func writeAWSFiles(t *testing.T, env awsconfig.Env, config, creds string) {
	t.Helper()
	dir := filepath.Join(env.Home, ".aws")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"config": config, "credentials": creds} {
		if text == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// noSecret fails when err's message shows any of secrets.
func noSecret(t *testing.T, err error, secrets ...string) {
	t.Helper()
	if err == nil {
		return
	}
	for _, s := range secrets {
		if s != "" && strings.Contains(err.Error(), s) {
			t.Fatalf("error shows a secret %q: %v", s, err)
		}
	}
}

func TestEnvironment(t *testing.T) {
	exp := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name     string
		vars     map[string]string
		id, tok  string
		expires  time.Time
		notFound bool
		errHas   string // an error naming this
	}{
		{name: "keys", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE"}, id: "AKID"},
		{name: "session token", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE", "AWS_SESSION_TOKEN": "SESSIONTOK"}, id: "AKID", tok: "SESSIONTOK"},
		{name: "security token wins, as in botocore", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE", "AWS_SESSION_TOKEN": "SESSIONTOK", "AWS_SECURITY_TOKEN": "SECURITYTOK"}, id: "AKID", tok: "SECURITYTOK"},
		{name: "empty security token", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE", "AWS_SESSION_TOKEN": "SESSIONTOK", "AWS_SECURITY_TOKEN": ""}, id: "AKID", tok: "SESSIONTOK"},
		{name: "expiration", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE", "AWS_CREDENTIAL_EXPIRATION": "2030-01-02T03:04:05Z"}, id: "AKID", expires: exp},
		{name: "none", vars: map[string]string{}, notFound: true},
		{name: "empty key", vars: map[string]string{"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE"}, notFound: true},
		{name: "secret alone is not found, as in botocore", vars: map[string]string{"AWS_SECRET_ACCESS_KEY": "SECRETVALUE"}, notFound: true},
		{name: "key alone", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID"}, errHas: "AWS_SECRET_ACCESS_KEY"},
		{name: "bad expiration", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE", "AWS_CREDENTIAL_EXPIRATION": "SECRETVALUE"}, errHas: "AWS_CREDENTIAL_EXPIRATION"},
		{name: "LF in the secret", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRET\nVALUE"}, errHas: "AWS_SECRET_ACCESS_KEY"},
		{name: "CR in the token", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE", "AWS_SESSION_TOKEN": "SESSION\rTOK"}, errHas: "AWS_SESSION_TOKEN"},
		{name: "control character in the key", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AK\x01ID", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE"}, errHas: "AWS_ACCESS_KEY_ID"},
		{name: "DEL in the security token", vars: map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRETVALUE", "AWS_SECURITY_TOKEN": "SECURITY\x7fTOK"}, errHas: "AWS_SECURITY_TOKEN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Environment(varsEnv(t, c.vars)).Retrieve(context.Background())
			noSecret(t, err, "SECRETVALUE", "SECRET\nVALUE", "SESSIONTOK", "SECURITYTOK", "SESSION\rTOK")
			switch {
			case c.notFound:
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("got %v, want ErrNotFound", err)
				}
			case c.errHas != "":
				if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), c.errHas) {
					t.Fatalf("got %v, want an error naming %s", err, c.errHas)
				}
			case err != nil:
				t.Fatal(err)
			default:
				if got.AccessKeyID != c.id || got.SecretAccessKey != "SECRETVALUE" || got.SessionToken != c.tok || !got.Expires.Equal(c.expires) {
					t.Fatalf("got %+v", got)
				}
				if got.Source != "environment (AWS_ACCESS_KEY_ID)" {
					t.Fatalf("Source %q", got.Source)
				}
			}
		})
	}
}

// The variables are read at each Retrieve (a refresh after
// AWS_CREDENTIAL_EXPIRATION sees new values, as botocore's refresher).
func TestEnvironmentRereads(t *testing.T) {
	vars := map[string]string{"AWS_ACCESS_KEY_ID": "AKID1", "AWS_SECRET_ACCESS_KEY": "s"}
	p := Environment(varsEnv(t, vars))
	if c, err := p.Retrieve(context.Background()); err != nil || c.AccessKeyID != "AKID1" {
		t.Fatal(c, err)
	}
	vars["AWS_ACCESS_KEY_ID"] = "AKID2"
	if c, err := p.Retrieve(context.Background()); err != nil || c.AccessKeyID != "AKID2" {
		t.Fatal(c, err)
	}
}
