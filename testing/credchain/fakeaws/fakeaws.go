// Package fakeaws is STS, SSO and SSO-OIDC on 127.0.0.1 for tests that
// any client may call (smithycurl, botocore): STS verifies the SigV4
// signature of AssumeRole and GetCallerIdentity with the keys it knows
// (those given and those it issued); AssumeRoleWithWebIdentity must be
// unsigned and carry a known token; SSO GetRoleCredentials needs a known
// bearer token; OIDC CreateToken refreshes a known refresh token.
// Issued access key ids are derived from the request (action, role or
// account, signer), so two clients making the same calls get the same ids;
// with Config.Fresh every call gets credentials of its own, as real STS
// hands out. What it accepts may grow while it runs (AddKey, Allow*), and
// SetMalformed makes every STS and SSO success answer a given body.
package fakeaws

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/testing/servers/credserver"
	"github.com/smithycurl/smithycurl/wire"
)

// Config is what the fake accepts.
type Config struct {
	Keys          []sigv4.Credentials // keys that may sign STS calls
	WebTokens     []string            // accepted web identity tokens
	SSOTokens     []string            // valid SSO access tokens
	RefreshTokens []string            // valid SSO-OIDC refresh tokens
	ClientID      string              // the OIDC client (default "client-id")
	ClientSecret  string              // default "client-secret-value"
	TTL           time.Duration       // issued credentials' life (default 1 h)
	// Fresh issues new credentials (and OIDC tokens) on every call, even
	// one that repeats an earlier request.
	Fresh bool
	// Lookup finds keys issued elsewhere (a fake container or IMDS) that
	// may sign STS calls too.
	Lookup func(accessKeyID string) (sigv4.Credentials, bool)
}

// Call is one request the fake answered.
type Call struct {
	Action  string     // AssumeRole, AssumeRoleWithWebIdentity, GetCallerIdentity, GetRoleCredentials, CreateToken
	Signer  string     // the access key id that signed it ("" unsigned)
	Params  url.Values // STS's form, SSO's query (nil for CreateToken)
	Issued  string     // the access key id or access token handed out
	Failure string     // the error answered, "" for success
}

// Server is a running fake; STS is at URL, SSO at URL/federation/..., OIDC
// at URL/token, so one URL serves all three.
type Server struct {
	URL string
	srv *httptest.Server
	cfg Config

	mu        sync.Mutex
	keys      map[string]sigv4.Credentials
	ssoTokens map[string]bool
	refresh   map[string]bool
	webTokens map[string]bool
	calls     []Call
	secrets   []string
	n         int    // credentials and tokens issued, for Config.Fresh
	malformed string // when set, every STS and SSO success answers this body
}

// Start starts a fake with cfg.
func Start(cfg Config) *Server {
	if cfg.ClientID == "" {
		cfg.ClientID = "client-id"
	}
	if cfg.ClientSecret == "" {
		cfg.ClientSecret = "client-secret-value"
	}
	if cfg.TTL == 0 {
		cfg.TTL = time.Hour
	}
	s := &Server{cfg: cfg, keys: map[string]sigv4.Credentials{}, ssoTokens: set(cfg.SSOTokens),
		refresh: set(cfg.RefreshTokens), webTokens: set(cfg.WebTokens)}
	for _, k := range cfg.Keys {
		s.keys[k.AccessKeyID] = k
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// IssuedBy is a Config.Lookup over the credentials fake container and
// IMDS endpoints handed out.
func IssuedBy(fakes ...interface{ Issued() []credserver.Issued }) func(string) (sigv4.Credentials, bool) {
	return func(id string) (sigv4.Credentials, bool) {
		for _, f := range fakes {
			for _, is := range f.Issued() {
				if is.AccessKeyID == id {
					return sigv4.Credentials{AccessKeyID: id, SecretAccessKey: is.SecretAccessKey, SessionToken: is.Token}, true
				}
			}
		}
		return sigv4.Credentials{}, false
	}
}

func set(vs []string) map[string]bool {
	m := map[string]bool{}
	for _, v := range vs {
		m[v] = true
	}
	return m
}

// AddKey lets c sign STS calls from now on.
func (s *Server) AddKey(c sigv4.Credentials) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys[c.AccessKeyID] = c
}

// AllowWebToken accepts a web identity token from now on.
func (s *Server) AllowWebToken(tok string) { s.allow(s.webTokens, tok) }

// AllowSSOToken accepts an SSO access token from now on.
func (s *Server) AllowSSOToken(tok string) { s.allow(s.ssoTokens, tok) }

// AllowRefreshToken accepts an SSO-OIDC refresh token from now on.
func (s *Server) AllowRefreshToken(tok string) { s.allow(s.refresh, tok) }

func (s *Server) allow(m map[string]bool, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m[v] = true
}

// SetTTL sets the life of credentials issued from now on.
func (s *Server) SetTTL(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.TTL = d
}

// SetMalformed makes every STS and SSO call that would succeed answer
// body instead ("" restores the real answers); nothing is issued.
func (s *Server) SetMalformed(body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.malformed = body
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Calls lists the requests answered, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Secrets lists the secret values the fake handed out (secret keys,
// session tokens, access and refresh tokens).
func (s *Server) Secrets() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.secrets...)
}

// issue makes credentials named by prefix and what identifies the request.
func (s *Server) issue(prefix string, parts ...string) (sigv4.Credentials, time.Time) {
	parts = s.fresh(parts)
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	h := strings.ToUpper(hex.EncodeToString(sum[:]))
	c := sigv4.Credentials{AccessKeyID: "ASIA" + prefix + h[:16-len(prefix)],
		SecretAccessKey: "fake-secret-" + h[16:40], SessionToken: "fake-session-token-" + h[40:]}
	s.keys[c.AccessKeyID] = c
	s.secrets = append(s.secrets, c.SecretAccessKey, c.SessionToken)
	return c, time.Now().Add(s.cfg.TTL).UTC().Truncate(time.Second)
}

// fresh adds a count of what was issued to parts under Config.Fresh, so
// a repeated request gets new credentials.
func (s *Server) fresh(parts []string) []string {
	if !s.cfg.Fresh {
		return parts
	}
	s.n++
	return append(parts, fmt.Sprint(s.n))
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case r.Method == "POST" && r.URL.Path == "/":
		s.sts(w, r, body)
	case r.Method == "GET" && r.URL.Path == "/federation/credentials":
		s.sso(w, r)
	case r.Method == "POST" && r.URL.Path == "/token":
		s.oidc(w, body)
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

func stsError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error><RequestId>r</RequestId></ErrorResponse>`, code, html.EscapeString(msg))
}

func (s *Server) sts(w http.ResponseWriter, r *http.Request, body []byte) {
	form, err := url.ParseQuery(string(body))
	call := Call{Action: form.Get("Action"), Params: form}
	defer func() { s.calls = append(s.calls, call) }()
	if err != nil || form.Get("Version") != "2011-06-15" {
		call.Failure = "bad form"
		stsError(w, 400, "InvalidParameterValue", "bad form")
		return
	}
	var c sigv4.Credentials
	var exp time.Time
	switch call.Action {
	case "AssumeRole", "GetCallerIdentity":
		key, err := s.verify(r, body)
		call.Signer = key
		if err != nil {
			call.Failure = err.Error()
			stsError(w, 403, "SignatureDoesNotMatch", err.Error())
			return
		}
		if s.malformedAnswer(w, "text/xml") {
			return
		}
		if call.Action == "GetCallerIdentity" {
			w.Header().Set("Content-Type", "text/xml")
			fmt.Fprintf(w, `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/%[1]s</Arn><UserId>%[1]s</UserId><Account>123456789012</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></GetCallerIdentityResponse>`, key)
			return
		}
		c, exp = s.issue("ROLE", form.Get("RoleArn"), key, form.Get("ExternalId"))
	case "AssumeRoleWithWebIdentity":
		if r.Header.Get("Authorization") != "" {
			call.Failure = "signed"
			stsError(w, 400, "InvalidParameterValue", "AssumeRoleWithWebIdentity must not be signed")
			return
		}
		if !s.webTokens[form.Get("WebIdentityToken")] {
			call.Failure = "InvalidIdentityToken"
			stsError(w, 400, "InvalidIdentityToken", "the token is not valid")
			return
		}
		if s.malformedAnswer(w, "text/xml") {
			return
		}
		c, exp = s.issue("WEB", form.Get("RoleArn"), form.Get("WebIdentityToken"))
	default:
		call.Failure = "unknown action"
		stsError(w, 400, "InvalidAction", "unknown action")
		return
	}
	call.Issued = c.AccessKeyID
	w.Header().Set("Content-Type", "text/xml")
	fmt.Fprintf(w, `<%[1]sResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><%[1]sResult><Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>%s</SecretAccessKey><SessionToken>%s</SessionToken><Expiration>%s</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>AROAFAKE:%s</AssumedRoleId><Arn>%s</Arn></AssumedRoleUser></%[1]sResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></%[1]sResponse>`,
		call.Action, c.AccessKeyID, c.SecretAccessKey, c.SessionToken, exp.Format(time.RFC3339),
		html.EscapeString(form.Get("RoleSessionName")), html.EscapeString(form.Get("RoleArn")))
}

// verify recomputes the request's signature with the secret of the key it
// names, over the headers it signed, and checks the session token.
func (s *Server) verify(r *http.Request, body []byte) (string, error) {
	auth := r.Header.Get("Authorization")
	fields := strings.Fields(strings.NewReplacer(",", " ", "/", " ", "=", " ").Replace(auth))
	// AWS4-HMAC-SHA256 Credential KEY DAY REGION SERVICE aws4_request SignedHeaders H Signature S
	if len(fields) != 11 || fields[0] != "AWS4-HMAC-SHA256" || fields[1] != "Credential" || fields[7] != "SignedHeaders" {
		return "", fmt.Errorf("no SigV4 Authorization header")
	}
	key, region, service, signed := fields[2], fields[4], fields[5], fields[8]
	c, ok := s.keys[key]
	if !ok && s.cfg.Lookup != nil {
		c, ok = s.cfg.Lookup(key)
	}
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
	sg := sigv4.Signer{Credentials: c, Region: region, Service: "sts"}
	if _, err := sg.Sign(sigv4.Request{Method: r.Method, URL: "http://" + r.Host + r.URL.RequestURI(), Header: h, PayloadHash: sigv4.PayloadHash(body)}, t); err != nil {
		return key, err
	}
	if h.Get("Authorization") != auth {
		return key, fmt.Errorf("signature mismatch")
	}
	return key, nil
}

// malformedAnswer answers the SetMalformed body, if any.
func (s *Server) malformedAnswer(w http.ResponseWriter, contentType string) bool {
	if s.malformed == "" {
		return false
	}
	w.Header().Set("Content-Type", contentType)
	io.WriteString(w, s.malformed)
	return true
}

func (s *Server) sso(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	call := Call{Action: "GetRoleCredentials", Params: q}
	defer func() { s.calls = append(s.calls, call) }()
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "" || !s.ssoTokens[r.Header.Get("X-Amz-Sso_bearer_token")] {
		call.Failure = "UnauthorizedException"
		w.Header().Set("X-Amzn-Errortype", "UnauthorizedException")
		w.WriteHeader(401)
		io.WriteString(w, `{"message":"Session token not found or invalid"}`)
		return
	}
	if s.malformedAnswer(w, "application/json") {
		return
	}
	c, exp := s.issue("SSO", q.Get("account_id"), q.Get("role_name"))
	call.Issued = c.AccessKeyID
	json.NewEncoder(w).Encode(map[string]any{"roleCredentials": map[string]any{"accessKeyId": c.AccessKeyID,
		"secretAccessKey": c.SecretAccessKey, "sessionToken": c.SessionToken, "expiration": exp.UnixMilli()}})
}

func (s *Server) oidc(w http.ResponseWriter, body []byte) {
	var in map[string]string
	json.Unmarshal(body, &in)
	call := Call{Action: "CreateToken"}
	defer func() { s.calls = append(s.calls, call) }()
	w.Header().Set("Content-Type", "application/json")
	if in["grantType"] != "refresh_token" || in["clientId"] != s.cfg.ClientID || in["clientSecret"] != s.cfg.ClientSecret || !s.refresh[in["refreshToken"]] {
		call.Failure = "InvalidGrantException"
		w.Header().Set("X-Amzn-Errortype", "InvalidGrantException")
		w.WriteHeader(400)
		io.WriteString(w, `{"error":"invalid_grant","error_description":"bad refresh"}`)
		return
	}
	sum := sha256.Sum256([]byte(strings.Join(s.fresh([]string{in["refreshToken"]}), "\x00")))
	h := hex.EncodeToString(sum[:])
	access, refresh := "refreshed-access-"+h[:16], "refreshed-refresh-"+h[16:32]
	s.ssoTokens[access] = true
	s.refresh[refresh] = true
	s.secrets = append(s.secrets, access, refresh)
	call.Issued = access
	json.NewEncoder(w).Encode(map[string]any{"accessToken": access, "tokenType": "Bearer", "expiresIn": 3600, "refreshToken": refresh})
}
