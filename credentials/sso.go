package credentials

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/protocol"
)

// ssoRefreshWindow is botocore's SSOTokenProvider._REFRESH_WINDOW: a token
// closer than this to expiring is refreshed when it can be.
const ssoRefreshWindow = 15 * time.Minute

// maxCacheFile bounds an SSO token cache file.
const maxCacheFile = 1 << 20

// ssoProvider gets role credentials from SSO with the token `aws sso
// login` cached.
type ssoProvider struct {
	env               awsconfig.Env
	sso, oidc         target
	opts              Options
	profile, where    string
	startURL, region  string
	account, roleName string
	session           string // the sso-session; "" for the legacy form

	mu sync.Mutex // one token refresh at a time
}

// sso is the SSO provider of a profile with sso_account_id or
// sso_role_name, with botocore's checks: the sso-session section must
// exist, a key in both must have the same value, and sso_start_url,
// sso_region, sso_account_id and sso_role_name must all be set.
func (r *resolver) sso(name string, p *awsconfig.Profile) (identity.Provider[identity.AWS], error) {
	where := r.where(name, p, "sso_account_id")
	get := func(key string) string { v, _ := p.Get(key); return v }
	s := &ssoProvider{env: r.cfg.Env, opts: r.opts, profile: name, where: where,
		account: get("sso_account_id"), roleName: get("sso_role_name"),
		startURL: get("sso_start_url"), region: get("sso_region")}
	if session, ok := p.Get("sso_session"); ok {
		sec := r.cfg.SSOSession(session)
		if sec == nil {
			return nil, fmt.Errorf("sso: %s: sso-session %q does not exist in %s", where, session, r.cfg.ConfigFile)
		}
		s.session = session
		for _, k := range []string{"sso_start_url", "sso_region"} {
			v, ok := sec.Get(k)
			if !ok {
				continue
			}
			if pv, inProfile := p.Get(k); inProfile && pv != v {
				return nil, fmt.Errorf("sso: %s: %s differs between the profile (%s) and sso-session %s (%s)", where, k, p.Where(k), session, sec.Where(k))
			}
			if k == "sso_start_url" {
				s.startURL = v
			} else {
				s.region = v
			}
		}
	}
	var missing []string
	for k, v := range map[string]string{"sso_start_url": s.startURL, "sso_region": s.region, "sso_account_id": s.account, "sso_role_name": s.roleName} {
		if v == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("sso: %s is configured to use SSO but lacks %s", where, strings.Join(missing, ", "))
	}
	var err error
	if s.sso, err = endpoint(r.cfg, r.profile, ssoService, "https://portal.sso."+s.region+".amazonaws.com"); err != nil {
		return nil, err
	}
	if s.oidc, err = endpoint(r.cfg, r.profile, oidcService, "https://oidc."+s.region+".amazonaws.com"); err != nil {
		return nil, err
	}
	return s, nil
}

// ssoToken is a token cache file as the AWS CLI writes it.
type ssoToken struct {
	StartURL              string `json:"startUrl,omitempty"`
	Region                string `json:"region,omitempty"`
	AccessToken           string `json:"accessToken"`
	ExpiresAt             string `json:"expiresAt"`
	ClientID              string `json:"clientId,omitempty"`
	ClientSecret          string `json:"clientSecret,omitempty"`
	RegistrationExpiresAt string `json:"registrationExpiresAt,omitempty"`
	RefreshToken          string `json:"refreshToken,omitempty"`
}

// cacheFile is the token's file: ~/.aws/sso/cache/ and the SHA-1 of the
// session name, or of the start URL for the legacy form (botocore's
// SSOTokenLoader).
func (s *ssoProvider) cacheFile() string {
	key := s.startURL
	if s.session != "" {
		key = s.session
	}
	sum := sha1.Sum([]byte(key))
	return filepath.Join(s.env.HomeDir(), ".aws", "sso", "cache", hex.EncodeToString(sum[:])+".json")
}

func (s *ssoProvider) login() string {
	return "run `aws sso login --profile " + s.profile + "`"
}

// parseTokenTime reads an expiresAt: RFC 3339, or the "UTC" suffix of older
// CLIs.
func parseTokenTime(v string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05UTC", "2006-01-02T15:04:05Z0700"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("expiresAt is not a time")
}

// token returns a valid access token, refreshed first when it is within
// the refresh window and the session form has what a refresh needs.
func (s *ssoProvider) token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	path := s.cacheFile()
	data, err := readCapped(path, maxCacheFile)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("sso: %s: no cached SSO token (%s); %s", s.where, path, s.login())
	}
	if err != nil {
		return "", fmt.Errorf("sso: %s: SSO token cache: %w", s.where, err)
	}
	var tok ssoToken
	if err := json.Unmarshal(data, &tok); err != nil || tok.AccessToken == "" || tok.ExpiresAt == "" || checkText("accessToken", tok.AccessToken) != nil {
		return "", fmt.Errorf("sso: %s: the SSO token cache file %s is not a valid token; %s", s.where, path, s.login())
	}
	expires, err := parseTokenTime(tok.ExpiresAt)
	if err != nil {
		return "", fmt.Errorf("sso: %s: the SSO token cache file %s: %v; %s", s.where, path, err, s.login())
	}
	now := s.opts.now()
	if s.session != "" && expires.Sub(now) < ssoRefreshWindow {
		// As botocore, a failed refresh keeps the cached token.
		if nt, nexp, ok := s.refresh(ctx, tok, now); ok {
			tok, expires = nt, nexp
			_ = writeTokenFile(path, nt)
		}
	}
	if !now.Before(expires) {
		return "", fmt.Errorf("sso: %s: the SSO token expired at %s; %s", s.where, expires.UTC().Format(time.RFC3339), s.login())
	}
	return tok.AccessToken, nil
}

type createTokenInput struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	GrantType    string `json:"grantType"`
	RefreshToken string `json:"refreshToken"`
}

type createTokenOutput struct {
	AccessToken  string `json:"accessToken"`
	ExpiresIn    int64  `json:"expiresIn"`
	RefreshToken string `json:"refreshToken"`
}

// refresh calls SSO-OIDC CreateToken (grant refresh_token), unsigned,
// when the token has a refresh token and an unexpired registration; it
// returns the token botocore writes back.
func (s *ssoProvider) refresh(ctx context.Context, tok ssoToken, now time.Time) (ssoToken, time.Time, bool) {
	if tok.RefreshToken == "" || tok.ClientID == "" || tok.ClientSecret == "" || tok.RegistrationExpiresAt == "" {
		return tok, time.Time{}, false
	}
	if reg, err := parseTokenTime(tok.RegistrationExpiresAt); err != nil || !now.Before(reg) {
		return tok, time.Time{}, false
	}
	in := createTokenInput{ClientID: tok.ClientID, ClientSecret: tok.ClientSecret, GrantType: "refresh_token", RefreshToken: tok.RefreshToken}
	var out createTokenOutput
	if err := oidcService.call(ctx, &s.opts, s.oidc, "CreateToken", in, nil, &out); err != nil || out.AccessToken == "" || out.ExpiresIn <= 0 {
		return tok, time.Time{}, false
	}
	expires := now.Add(time.Duration(out.ExpiresIn) * time.Second).UTC()
	nt := ssoToken{StartURL: s.startURL, Region: s.region, AccessToken: out.AccessToken,
		ExpiresAt: expires.Format("2006-01-02T15:04:05Z"), ClientID: tok.ClientID, ClientSecret: tok.ClientSecret,
		RegistrationExpiresAt: tok.RegistrationExpiresAt, RefreshToken: tok.RefreshToken}
	if out.RefreshToken != "" {
		nt.RefreshToken = out.RefreshToken
	}
	return nt, expires, true
}

// writeTokenFile replaces the cache file atomically, readable by its
// owner only.
func writeTokenFile(path string, tok ssoToken) error {
	data, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".token-*.tmp")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

type roleCredentialsOutput struct {
	RoleCredentials *struct {
		AccessKeyID     string `json:"accessKeyId"`
		SecretAccessKey string `json:"secretAccessKey"`
		SessionToken    string `json:"sessionToken"`
		Expiration      int64  `json:"expiration"` // epoch milliseconds
	} `json:"roleCredentials"`
}

// Retrieve calls SSO GetRoleCredentials with the cached token.
func (s *ssoProvider) Retrieve(ctx context.Context) (identity.AWS, error) {
	token, err := s.token(ctx)
	if err != nil {
		return identity.AWS{}, err
	}
	in := map[string]string{"roleName": s.roleName, "accountId": s.account, "accessToken": token}
	var out roleCredentialsOutput
	if err := ssoService.call(ctx, &s.opts, s.sso, "GetRoleCredentials", in, nil, &out, token); err != nil {
		var se *protocol.ServiceError
		if errors.As(err, &se) && se.Status == 401 {
			return identity.AWS{}, fmt.Errorf("sso: %s: the SSO session has expired or is invalid; %s", s.where, s.login())
		}
		return identity.AWS{}, fmt.Errorf("sso: %s: %w", s.where, err)
	}
	c := out.RoleCredentials
	if c == nil || c.AccessKeyID == "" || c.SecretAccessKey == "" || c.SessionToken == "" || c.Expiration <= 0 {
		return identity.AWS{}, fmt.Errorf("sso: %s: SSO GetRoleCredentials: the response has no complete roleCredentials", s.where)
	}
	id := identity.AWS{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken,
		Expires: time.UnixMilli(c.Expiration), Source: "sso: " + s.where}
	if err := checkCreds(id); err != nil {
		return identity.AWS{}, fmt.Errorf("sso: %s: SSO GetRoleCredentials: %w", s.where, err)
	}
	return id, nil
}
