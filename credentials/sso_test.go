package credentials

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

const ssoConfig = `[profile dev]
sso_session = corp
sso_account_id = 111122223333
sso_role_name = Developer
region = eu-west-1

[sso-session corp]
sso_start_url = https://corp.awsapps.com/start
sso_region = eu-central-1
sso_registration_scopes = sso:account:access

[profile legacy]
sso_start_url = https://legacy.awsapps.com/start
sso_region = us-west-2
sso_account_id = 111122223333
sso_role_name = ReadOnly

[profile nosession]
sso_session = gone
sso_account_id = 111122223333
sso_role_name = Developer

[profile partial]
sso_account_id = 111122223333

[profile conflict]
sso_session = corp
sso_start_url = https://other.awsapps.com/start
sso_account_id = 111122223333
sso_role_name = Developer
`

// cachePath is where `aws sso login` writes the token for key (the
// session name, or the start URL of the legacy form).
func cachePath(h *home, key string) string {
	sum := sha1.Sum([]byte(key))
	return ".aws/sso/cache/" + hex.EncodeToString(sum[:]) + ".json"
}

func writeToken(t *testing.T, h *home, key string, tok map[string]any) string {
	data, err := json.Marshal(tok)
	if err != nil {
		t.Fatal(err)
	}
	return h.write(t, cachePath(h, key), string(data))
}

func utc(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

func TestSSO(t *testing.T) {
	f := newFakeAWS(t)
	f.AllowSSOToken("sso-access-token-value")
	h := newHome(t, f, ssoConfig, "")
	writeToken(t, h, "corp", map[string]any{"startUrl": "https://corp.awsapps.com/start", "region": "eu-central-1",
		"accessToken": "sso-access-token-value", "expiresAt": utc(time.Now().Add(time.Hour))})
	// The legacy form: the CLI v1's "UTC" suffix.
	writeToken(t, h, "https://legacy.awsapps.com/start", map[string]any{"startUrl": "https://legacy.awsapps.com/start", "region": "us-west-2",
		"accessToken": "sso-access-token-value", "expiresAt": time.Now().Add(time.Hour).UTC().Format("2006-01-02T15:04:05UTC")})
	for _, name := range []string{"dev", "legacy"} {
		before := len(f.Calls())
		p, err := FromProfile(h.config(t), name, Options{})
		c := mustRetrieve(t, p, err)
		calls := f.Calls()[before:]
		if len(calls) != 1 || calls[0].Action != "GetRoleCredentials" || calls[0].Issued != c.AccessKeyID ||
			calls[0].Params.Get("account_id") != "111122223333" || !strings.HasPrefix(c.Source, "sso: profile "+name+" (") {
			t.Fatalf("%s: %+v %+v", name, calls, c)
		}
		if d := time.Until(c.Expires); d < 59*time.Minute || d > time.Hour {
			t.Fatalf("%s: expires in %v", name, d)
		}
	}
}

func TestSSOConfigErrors(t *testing.T) {
	h := newHome(t, nil, ssoConfig, "")
	for name, want := range map[string]string{
		"nosession": `sso-session "gone" does not exist`,
		"partial":   "lacks sso_region, sso_role_name, sso_start_url",
		"conflict":  "sso_start_url differs between the profile",
	} {
		if err := fromProfileErr(t, h, name, Options{}); !strings.Contains(err.Error(), want) || errors.Is(err, ErrNotFound) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestSSOTokenProblems(t *testing.T) {
	f := newFakeAWS(t)
	f.AllowSSOToken("sso-access-token-value")
	h := newHome(t, f, ssoConfig, "")
	login := "aws sso login --profile dev"
	if err := fromProfileErr(t, h, "dev", Options{}); !strings.Contains(err.Error(), "no cached SSO token") || !strings.Contains(err.Error(), login) {
		t.Fatal(err)
	}
	for _, bad := range []string{"{not json sso-access-token-value", `{"accessToken": "sso-access-token-value"}`, `{"accessToken": "sso-access-token-value", "expiresAt": "soon"}`, `[]`} {
		h.write(t, cachePath(h, "corp"), bad)
		if err := fromProfileErr(t, h, "dev", Options{}); !strings.Contains(err.Error(), "cache file") || !strings.Contains(err.Error(), login) {
			t.Fatalf("%s: %v", bad, err)
		}
	}
	// Expired, without a refresh token: both forms.
	expired := map[string]any{"accessToken": "sso-access-token-value", "expiresAt": utc(time.Now().Add(-time.Minute))}
	writeToken(t, h, "corp", expired)
	writeToken(t, h, "https://legacy.awsapps.com/start", expired)
	for _, name := range []string{"dev", "legacy"} {
		if err := fromProfileErr(t, h, name, Options{}); !strings.Contains(err.Error(), "expired") || !strings.Contains(err.Error(), "aws sso login --profile "+name) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// A token SSO does not accept.
	writeToken(t, h, "corp", map[string]any{"accessToken": "sso-access-token-value-revoked", "expiresAt": utc(time.Now().Add(time.Hour))})
	if err := fromProfileErr(t, h, "dev", Options{}); !strings.Contains(err.Error(), "expired or is invalid") || !strings.Contains(err.Error(), login) {
		t.Fatal(err)
	}
	for _, c := range f.Calls() {
		if c.Action != "GetRoleCredentials" {
			t.Fatalf("unexpected call %+v", c)
		}
	}
}

func TestSSORefresh(t *testing.T) {
	f := newFakeAWS(t)
	f.AllowRefreshToken("refresh-token-value")
	h := newHome(t, f, ssoConfig, "")
	reg := utc(time.Now().Add(90 * 24 * time.Hour))
	tok := map[string]any{"startUrl": "https://corp.awsapps.com/start", "region": "eu-central-1",
		"accessToken": "sso-access-token-value", "expiresAt": utc(time.Now().Add(5 * time.Minute)),
		"refreshToken": "refresh-token-value", "clientId": "client-id", "clientSecret": "client-secret-value", "registrationExpiresAt": reg}
	path := writeToken(t, h, "corp", tok)
	p, err := FromProfile(h.config(t), "dev", Options{})
	mustRetrieve(t, p, err)
	calls := f.Calls()
	if len(calls) != 2 || calls[0].Action != "CreateToken" || calls[0].Failure != "" || calls[1].Action != "GetRoleCredentials" || calls[1].Failure != "" {
		t.Fatalf("%+v", calls)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var saved map[string]string
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	exp, _ := time.Parse(time.RFC3339, saved["expiresAt"])
	if saved["accessToken"] != calls[0].Issued || !strings.HasPrefix(saved["refreshToken"], "refreshed-refresh-") || saved["clientId"] != "client-id" ||
		saved["registrationExpiresAt"] != reg || saved["startUrl"] != "https://corp.awsapps.com/start" || time.Until(exp) < 50*time.Minute {
		t.Fatalf("saved %v", saved)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", info.Mode(), err)
	}
	// Fresh now: no refresh.
	mustRetrieve(t, p, nil)
	if calls := f.Calls(); len(calls) != 3 || calls[2].Action != "GetRoleCredentials" {
		t.Fatalf("%+v", calls)
	}
	// A refused refresh keeps the cached token while it is valid
	// (botocore), and fails with the login hint once it has expired.
	tok["refreshToken"] = "refresh-token-value-revoked"
	writeToken(t, h, "corp", tok)
	f.AllowSSOToken("sso-access-token-value")
	mustRetrieve(t, p, nil)
	tok["expiresAt"] = utc(time.Now().Add(-time.Second))
	writeToken(t, h, "corp", tok)
	if _, err := retrieve(t, p); err == nil || !strings.Contains(err.Error(), "aws sso login --profile dev") {
		t.Fatal(err)
	}
	// The legacy form is never refreshed.
	legacy := map[string]any{"accessToken": "sso-access-token-value", "expiresAt": utc(time.Now().Add(time.Minute)),
		"refreshToken": "refresh-token-value", "clientId": "client-id", "clientSecret": "client-secret-value", "registrationExpiresAt": reg}
	writeToken(t, h, "https://legacy.awsapps.com/start", legacy)
	before := len(f.Calls())
	p, err = FromProfile(h.config(t), "legacy", Options{})
	mustRetrieve(t, p, err)
	if calls := f.Calls()[before:]; len(calls) != 1 || calls[0].Action != "GetRoleCredentials" {
		t.Fatalf("%+v", calls)
	}
}

func TestSSOMalformed(t *testing.T) {
	f := newFakeAWS(t)
	f.AllowSSOToken("sso-access-token-value")
	h := newHome(t, f, ssoConfig, "")
	writeToken(t, h, "corp", map[string]any{"accessToken": "sso-access-token-value", "expiresAt": utc(time.Now().Add(time.Hour))})
	for _, body := range []string{`{}`, `{"roleCredentials": {"accessKeyId": "AKID", "secretAccessKey": "fake-secret-9"}}`, `not json fake-secret-9`, `{"roleCredentials": {"expiration": "x"}}`} {
		f.SetMalformed(body)
		if err := fromProfileErr(t, h, "dev", Options{}); !strings.Contains(err.Error(), "GetRoleCredentials") {
			t.Fatalf("%s: %v", body, err)
		}
	}
}

// A role whose source_profile uses SSO is signed with the SSO role
// credentials.
func TestRoleFromSSO(t *testing.T) {
	f := newFakeAWS(t)
	f.AllowSSOToken("sso-access-token-value")
	h := newHome(t, f, ssoConfig+"[profile admin]\nrole_arn = arn:aws:iam::123456789012:role/admin\nsource_profile = dev\n", "")
	writeToken(t, h, "corp", map[string]any{"accessToken": "sso-access-token-value", "expiresAt": utc(time.Now().Add(time.Hour))})
	p, err := FromProfile(h.config(t), "admin", Options{})
	mustRetrieve(t, p, err)
	calls := f.Calls()
	if len(calls) != 2 || calls[0].Action != "GetRoleCredentials" || calls[1].Action != "AssumeRole" || calls[1].Signer != calls[0].Issued || calls[1].Failure != "" {
		t.Fatalf("%+v", calls)
	}
}
