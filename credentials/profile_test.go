package credentials

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/sigv4"
)

var sourceKey = sigv4.Credentials{AccessKeyID: "AKIDSOURCE000001", SecretAccessKey: "source-secret-value", SessionToken: "source-session-token"}

const sourceCredentials = `[default]
aws_access_key_id = AKIDSOURCE000001
aws_secret_access_key = source-secret-value
aws_session_token = source-session-token
`

// secretsOf are the values no message may show.
var testSecrets = []string{"source-secret-value", "source-session-token", "fake-secret-", "fake-session-token-",
	"web-identity-token-value", "sso-access-token-value", "refresh-token-value", "client-secret-value", "refreshed-access-", "refreshed-refresh-"}

func checkNoSecret(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	for _, s := range testSecrets {
		if strings.Contains(err.Error(), s) {
			t.Fatalf("error shows a secret (%s): %v", s, err)
		}
	}
}

func retrieve(t *testing.T, p identity.Provider[identity.AWS]) (identity.AWS, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := p.Retrieve(ctx)
	checkNoSecret(t, err)
	return c, err
}

func mustRetrieve(t *testing.T, p identity.Provider[identity.AWS], err error) identity.AWS {
	t.Helper()
	checkNoSecret(t, err)
	if err != nil {
		t.Fatal(err)
	}
	c, err := retrieve(t, p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fromProfileErr(t *testing.T, h *home, name string, opts Options) error {
	t.Helper()
	p, err := FromProfile(h.config(t), name, opts)
	if err == nil {
		_, err = retrieve(t, p)
	}
	if err == nil {
		t.Fatalf("profile %s: no error", name)
	}
	checkNoSecret(t, err)
	return err
}

func TestStaticKeys(t *testing.T) {
	h := newHome(t, nil, "[profile cfg]\naws_access_key_id = AKIDCONFIG\naws_secret_access_key = config-secret\n", sourceCredentials)
	cfg := h.config(t)
	p, err := FromProfile(cfg, "default", Options{})
	c := mustRetrieve(t, p, err)
	if c.AccessKeyID != sourceKey.AccessKeyID || c.SessionToken != sourceKey.SessionToken || !c.Expires.IsZero() {
		t.Fatalf("got %+v", c)
	}
	if !strings.HasPrefix(c.Source, "shared-credentials-file: profile default ("+cfg.CredentialsFile+":") {
		t.Fatalf("Source %q", c.Source)
	}
	p, err = FromProfile(cfg, "cfg", Options{})
	c = mustRetrieve(t, p, err)
	if c.AccessKeyID != "AKIDCONFIG" || !strings.HasPrefix(c.Source, "config-file: profile cfg ("+cfg.ConfigFile+":") {
		t.Fatalf("got %+v", c)
	}
}

func TestStaticKeysPartialAndMissing(t *testing.T) {
	h := newHome(t, nil, "[profile nokeys]\nregion = eu-west-1\n", "[half]\naws_access_key_id = AKIDHALF\n[secretonly]\naws_secret_access_key = source-secret-value\n")
	err := fromProfileErr(t, h, "half", Options{})
	if errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "profile half") || !strings.Contains(err.Error(), "credentials:") || !strings.Contains(err.Error(), "aws_secret_access_key") {
		t.Fatalf("partial keys: %v", err)
	}
	for _, name := range []string{"nokeys", "secretonly", "absent"} {
		if err := fromProfileErr(t, h, name, Options{}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("%s: want ErrNotFound, got %v", name, err)
		}
	}
}

var roles = role("r1", "default") + "role_session_name = session-one\nexternal_id = ext-123\nduration_seconds = 1800\n" +
	role("r2", "r1") + role("r3", "r2") + "region = eu-west-2\n"

func TestRoleChains(t *testing.T) {
	for n := 1; n <= 3; n++ {
		f := newFakeAWS(t)
		f.AddKey(sourceKey)
		h := newHome(t, f, roles, sourceCredentials)
		name := []string{"", "r1", "r2", "r3"}[n]
		p, err := FromProfile(h.config(t), name, Options{})
		c := mustRetrieve(t, p, err)
		calls := f.Calls()
		if len(calls) != n {
			t.Fatalf("%s: %d calls, want %d: %+v", name, len(calls), n, calls)
		}
		signer := sourceKey.AccessKeyID
		for i, call := range calls {
			if call.Action != "AssumeRole" || call.Failure != "" || call.Signer != signer {
				t.Fatalf("%s: call %d: %+v (want signed by %s)", name, i, call, signer)
			}
			signer = call.Issued
		}
		if c.AccessKeyID != signer || c.Expires.IsZero() || !strings.HasPrefix(c.Source, "assume-role: profile "+name+" (") {
			t.Fatalf("%s: got %+v", name, c)
		}
		first := calls[0].Params
		if first.Get("RoleArn") != "arn:aws:iam::123456789012:role/r1" || first.Get("RoleSessionName") != "session-one" ||
			first.Get("ExternalId") != "ext-123" || first.Get("DurationSeconds") != "1800" {
			t.Fatalf("%s: first call %v", name, first)
		}
		if n > 1 && !strings.HasPrefix(calls[1].Params.Get("RoleSessionName"), "botocore-session-") {
			t.Fatalf("default session name: %v", calls[1].Params)
		}
	}
}

// role is a profile that assumes a role from source_profile source.
func role(name, source string) string {
	return fmt.Sprintf("[profile %s]\nrole_arn = arn:aws:iam::123456789012:role/%s\nsource_profile = %s\n", name, name, source)
}

func TestRoleCycles(t *testing.T) {
	h := newHome(t, nil, role("a", "b")+role("b", "c")+role("c", "a")+role("self", "self")+role("missing", "nowhere")+`[profile both]
role_arn = arn:aws:iam::123456789012:role/m
source_profile = default
credential_source = Environment
[profile neither]
role_arn = arn:aws:iam::123456789012:role/m
[profile badsource]
role_arn = arn:aws:iam::123456789012:role/m
credential_source = Laptop
[profile emptysource]
role_arn = arn:aws:iam::123456789012:role/m
source_profile = nokeys
[profile nokeys]
region = us-west-2
`, sourceCredentials)
	for _, name := range []string{"a", "b", "self"} {
		want := map[string]string{"a": "source_profile cycle: a -> b -> c -> a (profile c, ", "b": "source_profile cycle: b -> c -> a -> b (profile a, ", "self": "source_profile cycle: self -> self (profile self, "}[name]
		if err := fromProfileErr(t, h, name, Options{}); !strings.Contains(err.Error(), want) {
			t.Fatalf("%s: %v; want %q", name, err, want)
		}
	}
	for name, want := range map[string]string{
		"missing":     "source_profile nowhere does not exist",
		"both":        "both source_profile and credential_source",
		"neither":     "needs source_profile or credential_source",
		"badsource":   `credential_source "Laptop" is not one of`,
		"emptysource": "source_profile nokeys has no credentials",
	} {
		err := fromProfileErr(t, h, name, Options{})
		if !strings.Contains(err.Error(), want) || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "profile "+name) {
			t.Fatalf("%s: %v; want %q", name, err, want)
		}
	}
}

// A profile naming itself as source is used for its own keys; a source
// profile with keys is used for them, not for its role_arn (botocore).
func TestRoleSourceWithStaticKeys(t *testing.T) {
	f := newFakeAWS(t)
	f.AddKey(sourceKey)
	mid := sigv4.Credentials{AccessKeyID: "AKIDMIDDLE000001", SecretAccessKey: "mid-secret"}
	f.AddKey(mid)
	h := newHome(t, f, role("self", "self")+role("mid", "default")+role("top", "mid"), sourceCredentials+"[self]\naws_access_key_id = AKIDSOURCE000001\naws_secret_access_key = source-secret-value\naws_session_token = source-session-token\n[mid]\naws_access_key_id = AKIDMIDDLE000001\naws_secret_access_key = mid-secret\n")
	for name, signer := range map[string]string{"self": sourceKey.AccessKeyID, "top": mid.AccessKeyID} {
		before := len(f.Calls())
		p, err := FromProfile(h.config(t), name, Options{})
		mustRetrieve(t, p, err)
		calls := f.Calls()[before:]
		if len(calls) != 1 || calls[0].Signer != signer || calls[0].Failure != "" {
			t.Fatalf("%s: %+v", name, calls)
		}
	}
}

func TestCredentialSource(t *testing.T) {
	f := newFakeAWS(t)
	f.AddKey(sourceKey)
	h := newHome(t, f, "[profile env]\nrole_arn = arn:aws:iam::123456789012:role/env\ncredential_source = Environment\n", "")
	err := fromProfileErr(t, h, "env", Options{})
	if errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "profile env") {
		t.Fatalf("no environment credentials: %v", err)
	}
	h.env["AWS_ACCESS_KEY_ID"] = sourceKey.AccessKeyID
	h.env["AWS_SECRET_ACCESS_KEY"] = sourceKey.SecretAccessKey
	h.env["AWS_SESSION_TOKEN"] = sourceKey.SessionToken
	p, err := FromProfile(h.config(t), "env", Options{})
	mustRetrieve(t, p, err)
	if calls := f.Calls(); len(calls) != 1 || calls[0].Signer != sourceKey.AccessKeyID || calls[0].Failure != "" {
		t.Fatalf("%+v", calls)
	}
}

func TestMFA(t *testing.T) {
	f := newFakeAWS(t)
	f.AddKey(sourceKey)
	h := newHome(t, f, "[profile mfa]\nrole_arn = arn:aws:iam::123456789012:role/mfa\nsource_profile = default\nmfa_serial = arn:aws:iam::123456789012:mfa/user\n", sourceCredentials)
	err := fromProfileErr(t, h, "mfa", Options{})
	if !strings.Contains(err.Error(), "mfa_serial") || !strings.Contains(err.Error(), "Options.MFA") || len(f.Calls()) != 0 {
		t.Fatalf("refused: %v, %d calls", err, len(f.Calls()))
	}
	err = fromProfileErr(t, h, "mfa", Options{MFA: func(string) (string, error) { return "", errors.New("no device") }})
	if !strings.Contains(err.Error(), "no device") {
		t.Fatal(err)
	}
	var asked string
	p, err := FromProfile(h.config(t), "mfa", Options{MFA: func(serial string) (string, error) { asked = serial; return "123456", nil }})
	mustRetrieve(t, p, err)
	calls := f.Calls()
	if asked != "arn:aws:iam::123456789012:mfa/user" || len(calls) != 1 || calls[0].Params.Get("SerialNumber") != asked || calls[0].Params.Get("TokenCode") != "123456" {
		t.Fatalf("asked %q, calls %+v", asked, calls)
	}
}

func TestProcessOrder(t *testing.T) {
	h := newHome(t, nil, "", "")
	script := h.write(t, "bin/creds.sh", "#!/bin/sh\necho '{\"Version\": 1, \"AccessKeyId\": \"AKIDPROCESS\", \"SecretAccessKey\": \"process-secret\"}'\n")
	os.Chmod(script, 0o700)
	h.write(t, ".aws/credentials", "[q]\naws_access_key_id = AKIDCREDS\naws_secret_access_key = s\n")
	h.write(t, ".aws/config", "[profile p]\ncredential_process = "+script+"\naws_access_key_id = AKIDCONFIG\naws_secret_access_key = s\n[profile q]\ncredential_process = "+script+"\n")
	// The credentials file's keys come before credential_process, the
	// config file's after it.
	for name, want := range map[string]string{"p": "AKIDPROCESS", "q": "AKIDCREDS"} {
		p, err := FromProfile(h.config(t), name, Options{})
		if c := mustRetrieve(t, p, err); c.AccessKeyID != want {
			t.Fatalf("%s: got %s, want %s", name, c.AccessKeyID, want)
		}
	}
}

func TestWebIdentityProfile(t *testing.T) {
	f := newFakeAWS(t)
	f.AllowWebToken("web-identity-token-value")
	h := newHome(t, f, "", "")
	tokenFile := h.write(t, "token", "web-identity-token-value")
	h.write(t, "empty", "")
	h.write(t, "wrong", "web-identity-token-value-wrong")
	h.write(t, ".aws/config", `[profile web]
web_identity_token_file = `+tokenFile+`
role_arn = arn:aws:iam::123456789012:role/web
role_session_name = pod
[profile norole]
web_identity_token_file = ~/token
[profile missing]
web_identity_token_file = ~/nothing
role_arn = arn:aws:iam::123456789012:role/web
[profile empty]
web_identity_token_file = ~/empty
role_arn = arn:aws:iam::123456789012:role/web
[profile wrong]
web_identity_token_file = ~/wrong
role_arn = arn:aws:iam::123456789012:role/web
`)
	p, err := FromProfile(h.config(t), "web", Options{})
	c := mustRetrieve(t, p, err)
	calls := f.Calls()
	if len(calls) != 1 || calls[0].Action != "AssumeRoleWithWebIdentity" || calls[0].Params.Get("RoleSessionName") != "pod" || c.AccessKeyID != calls[0].Issued ||
		!strings.HasPrefix(c.Source, "assume-role-with-web-identity: profile web (") {
		t.Fatalf("%+v %+v", calls, c)
	}
	for name, want := range map[string]string{"norole": "role_arn is not", "missing": "token file", "empty": "is empty", "wrong": "InvalidIdentityToken"} {
		if err := fromProfileErr(t, h, name, Options{}); !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "profile "+name) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestWebIdentityFromEnv(t *testing.T) {
	f := newFakeAWS(t)
	f.AllowWebToken("web-identity-token-value")
	h := newHome(t, f, "", "")
	if _, err := WebIdentityFromEnv(h.awsEnv(), Options{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unset: %v", err)
	}
	h.env["AWS_WEB_IDENTITY_TOKEN_FILE"] = h.write(t, "token", "web-identity-token-value")
	if _, err := WebIdentityFromEnv(h.awsEnv(), Options{}); err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "AWS_ROLE_ARN") {
		t.Fatalf("no role: %v", err)
	}
	h.env["AWS_ROLE_ARN"] = "arn:aws:iam::123456789012:role/irsa"
	h.env["AWS_ROLE_SESSION_NAME"] = "irsa-session"
	p, err := WebIdentityFromEnv(h.awsEnv(), Options{})
	c := mustRetrieve(t, p, err)
	if calls := f.Calls(); len(calls) != 1 || calls[0].Params.Get("RoleSessionName") != "irsa-session" || c.Source != "assume-role-with-web-identity: AWS_WEB_IDENTITY_TOKEN_FILE" {
		t.Fatalf("%+v %+v", calls, c)
	}
	os.Chmod(h.env["AWS_WEB_IDENTITY_TOKEN_FILE"], 0)
	if os.Getuid() != 0 {
		if _, err := retrieve(t, p); err == nil || !strings.Contains(err.Error(), "token file") {
			t.Fatalf("unreadable: %v", err)
		}
	}
}

func TestSTSFailures(t *testing.T) {
	f := newFakeAWS(t)
	h := newHome(t, f, roles, sourceCredentials)
	// The fake does not know the source key: STS refuses the signature.
	err := fromProfileErr(t, h, "r1", Options{})
	if !strings.Contains(err.Error(), "SignatureDoesNotMatch") || !strings.Contains(err.Error(), "profile r1") {
		t.Fatal(err)
	}
	f.AddKey(sourceKey)
	for _, body := range []string{
		"<AssumeRoleResponse><AssumeRoleResult></AssumeRoleResult></AssumeRoleResponse>",
		"<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>AKIDX</AccessKeyId><SecretAccessKey>fake-secret-x</SecretAccessKey></Credentials></AssumeRoleResult></AssumeRoleResponse>",
		"not xml at all fake-secret-1",
		"<AssumeRoleResponse><AssumeRoleResult><Credentials><Expiration>yesterday</Expiration></Credentials></AssumeRoleResult></AssumeRoleResponse>",
	} {
		f.SetMalformed(body)
		if err := fromProfileErr(t, h, "r1", Options{}); !strings.Contains(err.Error(), "STS AssumeRole") {
			t.Fatalf("%s: %v", body, err)
		}
	}
}

// Credentials that expire after a few seconds are fetched again by each
// Retrieve; a chain's source is reused until its refresh window.
func TestShortLivedAndConcurrent(t *testing.T) {
	f := newFakeAWS(t)
	f.AddKey(sourceKey)
	f.SetTTL(3 * time.Second)
	h := newHome(t, f, roles, sourceCredentials)
	p, err := FromProfile(h.config(t), "r1", Options{})
	c1 := mustRetrieve(t, p, err)
	if d := time.Until(c1.Expires); d <= 0 || d > 4*time.Second {
		t.Fatalf("expires in %v", d)
	}
	c2 := mustRetrieve(t, p, nil)
	if c1.AccessKeyID == c2.AccessKeyID {
		t.Fatal("not fetched again")
	}
	p, err = FromProfile(h.config(t), "r2", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := p.Retrieve(context.Background())
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range f.Calls() {
		if c.Failure != "" {
			t.Fatalf("%+v", c)
		}
	}
}

func TestEndpoints(t *testing.T) {
	h := newHome(t, nil, "[profile r]\nregion = ap-south-1\n[profile svc]\nservices = local\n[services local]\nsso_oidc =\n  endpoint_url = http://oidc-from-file\n", "")
	sts := func(profile string, opts Options) string {
		u, r, err := stsEndpoint(h.config(t), profile, &opts)
		if err != nil {
			t.Fatal(err)
		}
		return u.url + " " + r
	}
	for _, c := range []struct{ profile, region, want string }{
		{"", "", "https://sts.amazonaws.com us-east-1"},
		{"r", "", "https://sts.ap-south-1.amazonaws.com ap-south-1"},
		{"r", "eu-north-1", "https://sts.eu-north-1.amazonaws.com eu-north-1"},
	} {
		if got := sts(c.profile, Options{Region: c.region}); got != c.want {
			t.Fatalf("%+v: %s", c, got)
		}
	}
	h.env["AWS_DEFAULT_REGION"] = "sa-east-1"
	if got := sts("r", Options{}); got != "https://sts.sa-east-1.amazonaws.com sa-east-1" {
		t.Fatal(got)
	}
	u, err := endpoint(h.config(t), "svc", oidcService, "d")
	if err != nil || u.url != "http://oidc-from-file" {
		t.Fatal(u, err)
	}
	h.env["AWS_ENDPOINT_URL"] = "http://all"
	h.env["AWS_ENDPOINT_URL_STS"] = "http://sts"
	if got := sts("r", Options{}); got != "http://sts sa-east-1" {
		t.Fatal(got)
	}
	if u, _ := endpoint(h.config(t), "r", ssoService, "d"); u.url != "http://all" {
		t.Fatal(u)
	}
	h.env["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"] = "true"
	h.env["AWS_CA_BUNDLE"] = "~/ca.pem"
	if u, _ := endpoint(h.config(t), "r", ssoService, "d"); u.url != "d" || u.ca != filepath.Join(h.dir, "ca.pem") {
		t.Fatal(u)
	}
}

// Behind an identity.Cache, many callers share one AssumeRole; once the
// clock passes the credentials' refresh window the next Get calls STS
// again, once.
func TestAssumeRoleBehindCache(t *testing.T) {
	f := newFakeAWS(t)
	f.AddKey(sourceKey)
	h := newHome(t, f, roles, sourceCredentials)
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	p, err := FromProfile(h.config(t), "r1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	cache := identity.NewCache(p, "profile r1", identity.WithClock(clock))
	get := func(n int) map[string]bool {
		keys := map[string]bool{}
		var wg sync.WaitGroup
		var kmu sync.Mutex
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := cache.Get(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				kmu.Lock()
				keys[c.AccessKeyID] = true
				kmu.Unlock()
			}()
		}
		wg.Wait()
		return keys
	}
	if keys := get(100); len(keys) != 1 || len(f.Calls()) != 1 {
		t.Fatalf("%d keys, %d calls", len(keys), len(f.Calls()))
	}
	mu.Lock()
	now = now.Add(55 * time.Minute) // inside the mandatory window of an hour's credentials
	mu.Unlock()
	if keys := get(100); len(keys) != 1 || len(f.Calls()) != 2 {
		t.Fatalf("%d keys, %d calls", len(keys), len(f.Calls()))
	}
}

// GetCallerIdentity, signed with assumed credentials, names them.
func TestGetCallerIdentity(t *testing.T) {
	f := newFakeAWS(t)
	f.AddKey(sourceKey)
	h := newHome(t, f, roles, sourceCredentials)
	p, err := FromProfile(h.config(t), "r2", Options{})
	c := mustRetrieve(t, p, err)
	var out struct{ Arn, UserId, Account string }
	signer := &sigv4.Signer{Credentials: sigv4.Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken}, Region: "us-east-1", Service: "sts"}
	if err := stsService.call(context.Background(), &Options{}, target{url: f.URL}, "GetCallerIdentity", struct{}{}, signer, &out); err != nil {
		t.Fatal(err)
	}
	if out.UserId != c.AccessKeyID || out.Account != "123456789012" {
		t.Fatalf("%+v", out)
	}
}

// credential_source EcsContainer signs AssumeRole with the container
// endpoint's credentials; Ec2InstanceMetadata with IMDS disabled is an
// error naming the profile, not ErrNotFound.
func TestCredentialSourceContainerAndIMDS(t *testing.T) {
	f := newFakeAWS(t)
	container := sigv4.Credentials{AccessKeyID: "ASIACONTAINER001", SecretAccessKey: "container-secret", SessionToken: "container-token"}
	f.AddKey(container)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"AccessKeyId": container.AccessKeyID, "SecretAccessKey": container.SecretAccessKey,
			"Token": container.SessionToken, "Expiration": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	}))
	defer srv.Close()
	h := newHome(t, f, "[profile ecs]\nrole_arn = arn:aws:iam::123456789012:role/ecs\ncredential_source = EcsContainer\n"+
		"[profile ec2]\nrole_arn = arn:aws:iam::123456789012:role/ec2\ncredential_source = Ec2InstanceMetadata\n", "")
	h.env["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = srv.URL + "/creds"
	h.env["AWS_EC2_METADATA_DISABLED"] = "true"
	p, err := FromProfile(h.config(t), "ecs", Options{})
	mustRetrieve(t, p, err)
	if calls := f.Calls(); len(calls) != 1 || calls[0].Signer != container.AccessKeyID || calls[0].Failure != "" {
		t.Fatalf("%+v", calls)
	}
	if err := fromProfileErr(t, h, "ec2", Options{}); errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "profile ec2") {
		t.Fatal(err)
	}
}

// A role ARN and session name the environment lacks come from the profile
// (botocore); AWS_ENDPOINT_URL_STS wins over AWS_ENDPOINT_URL.
func TestWebIdentityFromEnvWithProfile(t *testing.T) {
	f := newFakeAWS(t)
	f.AllowWebToken("web-identity-token-value")
	h := newHome(t, f, "[profile pod]\nrole_arn = arn:aws:iam::123456789012:role/pod\nrole_session_name = from-profile\n", "")
	h.env["AWS_ENDPOINT_URL"] = "http://127.0.0.1:1"
	h.env["AWS_ENDPOINT_URL_STS"] = f.URL
	h.env["AWS_WEB_IDENTITY_TOKEN_FILE"] = h.write(t, "token", "web-identity-token-value")
	p, err := WebIdentityFromEnv(h.awsEnv(), Options{Config: h.config(t), Profile: "pod"})
	mustRetrieve(t, p, err)
	calls := f.Calls()
	if len(calls) != 1 || calls[0].Params.Get("RoleArn") != "arn:aws:iam::123456789012:role/pod" || calls[0].Params.Get("RoleSessionName") != "from-profile" {
		t.Fatalf("%+v", calls)
	}
}
