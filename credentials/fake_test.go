package credentials

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/wire"
)

// fakeAWS is STS, SSO and SSO-OIDC on 127.0.0.1: STS verifies the SigV4
// signature of each AssumeRole and GetCallerIdentity with the credentials it knows (static keys
// it was given and those it issued), SSO checks the bearer token, OIDC
// refreshes tokens. Credentials it issues expire after ttl.
type fakeAWS struct {
	t   *testing.T
	srv *httptest.Server
	ttl time.Duration

	mu        sync.Mutex
	keys      map[string]sigv4.Credentials // by access key id
	ssoTokens map[string]bool              // valid SSO access tokens
	refresh   map[string]bool              // valid refresh tokens
	webTokens map[string]bool              // accepted web identity tokens
	calls     []fakeCall
	n         int
	malformed string // when set, every success answers this body
}

// fakeCall is one request the fake answered.
type fakeCall struct {
	Action  string     // AssumeRole, AssumeRoleWithWebIdentity, GetRoleCredentials, CreateToken
	Signer  string     // the access key id that signed it ("" unsigned)
	Params  url.Values // STS's form, SSO's query
	Issued  string     // the access key id or token handed out
	Failure string     // the error answered, "" for success
}

func newFakeAWS(t *testing.T) *fakeAWS {
	f := &fakeAWS{t: t, ttl: time.Hour, keys: map[string]sigv4.Credentials{}, ssoTokens: map[string]bool{},
		refresh: map[string]bool{}, webTokens: map[string]bool{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAWS) addKey(c sigv4.Credentials) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keys[c.AccessKeyID] = c
}

func (f *fakeAWS) setTTL(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ttl = d
}

func (f *fakeAWS) setMalformed(body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.malformed = body
}

func (f *fakeAWS) allow(m map[string]bool, v string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m[v] = true
}

func (f *fakeAWS) callList() []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeCall(nil), f.calls...)
}

// issue makes new credentials, valid for signing from now on.
func (f *fakeAWS) issue() (sigv4.Credentials, time.Time) {
	f.n++
	c := sigv4.Credentials{AccessKeyID: fmt.Sprintf("ASIAFAKE%08d", f.n), SecretAccessKey: fmt.Sprintf("issued-secret-%d", f.n), SessionToken: fmt.Sprintf("issued-token-%d", f.n)}
	f.keys[c.AccessKeyID] = c
	return c, time.Now().Add(f.ttl).UTC().Truncate(time.Second)
}

func (f *fakeAWS) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == "POST" && r.URL.Path == "/":
		f.sts(w, r, body)
	case r.Method == "GET" && r.URL.Path == "/federation/credentials":
		f.sso(w, r)
	case r.Method == "POST" && r.URL.Path == "/token":
		f.oidc(w, body)
	default:
		http.Error(w, "not found", 404)
	}
}

func stsError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error><RequestId>r</RequestId></ErrorResponse>`, code, html.EscapeString(msg))
}

func (f *fakeAWS) sts(w http.ResponseWriter, r *http.Request, body []byte) {
	form, err := url.ParseQuery(string(body))
	call := fakeCall{Action: form.Get("Action"), Params: form}
	defer func() { f.calls = append(f.calls, call) }()
	if err != nil || form.Get("Version") != "2011-06-15" {
		call.Failure = "bad form"
		stsError(w, 400, "InvalidParameterValue", "bad form")
		return
	}
	switch call.Action {
	case "AssumeRole", "GetCallerIdentity":
		key, err := f.verify(r, body)
		call.Signer = key
		if err != nil {
			call.Failure = err.Error()
			stsError(w, 403, "SignatureDoesNotMatch", err.Error())
			return
		}
	case "AssumeRoleWithWebIdentity":
		if r.Header.Get("Authorization") != "" {
			call.Failure = "signed"
			stsError(w, 400, "InvalidParameterValue", "AssumeRoleWithWebIdentity must not be signed")
			return
		}
		if !f.webTokens[form.Get("WebIdentityToken")] {
			call.Failure = "InvalidIdentityToken"
			stsError(w, 400, "InvalidIdentityToken", "the token is not valid")
			return
		}
	default:
		call.Failure = "unknown action"
		stsError(w, 400, "InvalidAction", "unknown action")
		return
	}
	if f.malformed != "" {
		w.Header().Set("Content-Type", "text/xml")
		io.WriteString(w, f.malformed)
		return
	}
	if call.Action == "GetCallerIdentity" {
		w.Header().Set("Content-Type", "text/xml")
		fmt.Fprintf(w, `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/%[1]s</Arn><UserId>%[1]s</UserId><Account>123456789012</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></GetCallerIdentityResponse>`, call.Signer)
		return
	}
	c, exp := f.issue()
	call.Issued = c.AccessKeyID
	w.Header().Set("Content-Type", "text/xml")
	fmt.Fprintf(w, `<%[1]sResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><%[1]sResult><Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>%s</SecretAccessKey><SessionToken>%s</SessionToken><Expiration>%s</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>AROAFAKE:%s</AssumedRoleId><Arn>%s</Arn></AssumedRoleUser></%[1]sResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></%[1]sResponse>`,
		call.Action, c.AccessKeyID, c.SecretAccessKey, c.SessionToken, exp.Format(time.RFC3339), form.Get("RoleSessionName"), form.Get("RoleArn"))
}

// verify recomputes the request's signature with the secret of the key it
// names, over the headers it signed, and checks the session token.
func (f *fakeAWS) verify(r *http.Request, body []byte) (string, error) {
	auth := r.Header.Get("Authorization")
	fields := strings.Fields(strings.NewReplacer(",", " ", "/", " ", "=", " ").Replace(auth))
	// AWS4-HMAC-SHA256 Credential KEY DAY REGION SERVICE aws4_request SignedHeaders H Signature S
	if len(fields) != 11 || fields[0] != "AWS4-HMAC-SHA256" || fields[1] != "Credential" || fields[7] != "SignedHeaders" {
		return "", fmt.Errorf("no SigV4 Authorization header")
	}
	key, region, service, signed := fields[2], fields[4], fields[5], fields[8]
	c, ok := f.keys[key]
	if !ok {
		return key, fmt.Errorf("unknown access key %s", key)
	}
	if service != "sts" {
		return key, fmt.Errorf("signed for %s", service)
	}
	if r.Header.Get("X-Amz-Security-Token") != c.SessionToken {
		return key, fmt.Errorf("wrong session token")
	}
	h := wire.Header{}
	for _, name := range strings.Split(signed, ";") {
		if name != "host" {
			for _, v := range r.Header.Values(name) {
				h.Add(name, v)
			}
		}
	}
	t, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return key, fmt.Errorf("no X-Amz-Date")
	}
	s := sigv4.Signer{Credentials: c, Region: region, Service: "sts"}
	if _, err := s.Sign(sigv4.Request{Method: r.Method, URL: "http://" + r.Host + r.URL.RequestURI(), Header: h, PayloadHash: sigv4.PayloadHash(body)}, t); err != nil {
		return key, err
	}
	if h.Get("Authorization") != auth {
		return key, fmt.Errorf("signature mismatch")
	}
	return key, nil
}

func (f *fakeAWS) sso(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	call := fakeCall{Action: "GetRoleCredentials", Params: q}
	defer func() { f.calls = append(f.calls, call) }()
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "" || !f.ssoTokens[r.Header.Get("X-Amz-Sso_bearer_token")] {
		call.Failure = "UnauthorizedException"
		w.Header().Set("X-Amzn-Errortype", "UnauthorizedException")
		w.WriteHeader(401)
		io.WriteString(w, `{"message":"Session token not found or invalid"}`)
		return
	}
	if f.malformed != "" {
		io.WriteString(w, f.malformed)
		return
	}
	c, exp := f.issue()
	call.Issued = c.AccessKeyID
	json.NewEncoder(w).Encode(map[string]any{"roleCredentials": map[string]any{"accessKeyId": c.AccessKeyID,
		"secretAccessKey": c.SecretAccessKey, "sessionToken": c.SessionToken, "expiration": exp.UnixMilli()}})
}

func (f *fakeAWS) oidc(w http.ResponseWriter, body []byte) {
	var in map[string]string
	json.Unmarshal(body, &in)
	call := fakeCall{Action: "CreateToken"}
	defer func() { f.calls = append(f.calls, call) }()
	w.Header().Set("Content-Type", "application/json")
	if in["grantType"] != "refresh_token" || in["clientId"] != "client-id" || in["clientSecret"] != "client-secret-value" || !f.refresh[in["refreshToken"]] {
		call.Failure = "InvalidGrantException"
		w.Header().Set("X-Amzn-Errortype", "InvalidGrantException")
		w.WriteHeader(400)
		io.WriteString(w, `{"error":"invalid_grant","error_description":"bad refresh"}`)
		return
	}
	f.n++
	access, refresh := fmt.Sprintf("refreshed-access-%d", f.n), fmt.Sprintf("refreshed-refresh-%d", f.n)
	f.ssoTokens[access] = true
	f.refresh[refresh] = true
	call.Issued = access
	json.NewEncoder(w).Encode(map[string]any{"accessToken": access, "tokenType": "Bearer", "expiresIn": 3600, "refreshToken": refresh})
}

// home is a temporary HOME with the AWS CLI's files and an environment
// that points every endpoint at the fake.
type home struct {
	dir string
	env map[string]string
}

func newHome(t *testing.T, f *fakeAWS, config, credentials string) *home {
	h := &home{dir: t.TempDir(), env: map[string]string{}}
	if err := os.MkdirAll(filepath.Join(h.dir, ".aws"), 0o700); err != nil {
		t.Fatal(err)
	}
	h.write(t, ".aws/config", config)
	h.write(t, ".aws/credentials", credentials)
	if f != nil {
		h.env["AWS_ENDPOINT_URL"] = f.srv.URL
	}
	return h
}

func (h *home) write(t *testing.T, rel, text string) string {
	t.Helper()
	p := filepath.Join(h.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func (h *home) awsEnv() awsconfig.Env {
	return awsconfig.Env{Home: h.dir, Lookup: func(name string) (string, bool) { v, ok := h.env[name]; return v, ok }}
}

func (h *home) config(t *testing.T) *awsconfig.Config {
	t.Helper()
	cfg, err := awsconfig.Load(h.awsEnv())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
