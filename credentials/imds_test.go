package credentials

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/testing/servers/credserver"
)

const (
	tokenPath = "PUT /latest/api/token"
	roleGET   = "GET " + credserver.RolePath
	credsGET  = "GET " + credserver.RolePath + "test-role"
)

// imdsAt is InstanceMetadata pointed at url, with extra variables; a
// timeout of 0 is a generous one, for loaded machines.
func imdsAt(t *testing.T, url string, timeout time.Duration, vars map[string]string) identity.Provider[identity.AWS] {
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	all := map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT": url}
	for k, v := range vars {
		all[k] = v
	}
	return InstanceMetadata(varsEnv(t, all), Options{Timeout: timeout})
}

func TestInstanceMetadata(t *testing.T) {
	s := credserver.StartIMDS()
	defer s.Close()
	now := time.Now()
	c, err := imdsAt(t, s.URL, 0, nil).Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	is := s.Issued()
	if len(is) != 1 || c.AccessKeyID != is[0].AccessKeyID || c.SecretAccessKey != is[0].SecretAccessKey || c.SessionToken != is[0].Token {
		t.Fatalf("got %+v, issued %+v", c, is)
	}
	if want := "instance metadata (" + s.URL + ", role test-role)"; c.Source != want {
		t.Fatalf("Source %q, want %q", c.Source, want)
	}
	// Served with 5 s left: botocore's extension to 17 to 25 minutes.
	if d := c.Expires.Sub(now); d < 17*time.Minute || d > 25*time.Minute+time.Second {
		t.Fatalf("expires in %v", d)
	}
	if s.Hits(tokenPath) != 1 || s.Hits(roleGET) != 1 || s.Hits(credsGET) != 1 {
		t.Fatalf("hits %d %d %d", s.Hits(tokenPath), s.Hits(roleGET), s.Hits(credsGET))
	}
}

func TestExtendExpiry(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	if far := now.Add(6 * time.Hour); !extendExpiry(far, now).Equal(far) {
		t.Fatal("a far expiry was changed")
	}
	for _, exp := range []time.Time{now.Add(-time.Hour), now, now.Add(16 * time.Minute)} {
		got := extendExpiry(exp, now)
		if d := got.Sub(now); d < 17*time.Minute || d > 25*time.Minute {
			t.Fatalf("%v: extended by %v", exp, d)
		}
	}
}

func TestInstanceMetadataDisabled(t *testing.T) {
	s := credserver.StartIMDS()
	defer s.Close()
	_, err := imdsAt(t, s.URL, 0, map[string]string{"AWS_EC2_METADATA_DISABLED": "TRUE"}).Retrieve(context.Background())
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "AWS_EC2_METADATA_DISABLED") {
		t.Fatalf("got %v", err)
	}
	if s.Hits(tokenPath) != 0 {
		t.Fatal("IMDS was called")
	}
}

// botocore falls back to IMDSv1 when the token PUT is answered 403, 404,
// 405 or another status, or times out; a 400 ends the search.
func TestInstanceMetadataTokenFallback(t *testing.T) {
	for _, status := range []int{403, 404, 405, 500} {
		s := credserver.StartIMDS()
		s.Override(tokenPath, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", status) })
		s.AllowV1(true)
		if _, err := imdsAt(t, s.URL, 0, nil).Retrieve(context.Background()); err != nil {
			t.Errorf("%d: %v", status, err)
		}
		// IMDSv1 refused by the service: ErrNotFound.
		s.AllowV1(false)
		if _, err := imdsAt(t, s.URL, 0, nil).Retrieve(context.Background()); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "status 401") {
			t.Errorf("%d without v1: %v", status, err)
		}
		// IMDSv1 disabled here: an error.
		_, err := imdsAt(t, s.URL, 0, map[string]string{"AWS_EC2_METADATA_V1_DISABLED": "true"}).Retrieve(context.Background())
		if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "IMDSv1 is disabled") {
			t.Errorf("%d with v1 disabled: %v", status, err)
		}
		s.Close()
	}

	s := credserver.StartIMDS()
	defer s.Close()
	s.Override(tokenPath, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "bad", 400) })
	s.AllowV1(true)
	if _, err := imdsAt(t, s.URL, 0, nil).Retrieve(context.Background()); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "400") {
		t.Fatalf("400: %v", err)
	}
	if s.Hits(roleGET) != 0 {
		t.Fatal("went on after a 400")
	}

	// A token PUT that times out: IMDSv1.
	s.Override(tokenPath, s.Stall)
	start := time.Now()
	if _, err := imdsAt(t, s.URL, 200*time.Millisecond, nil).Retrieve(context.Background()); err != nil {
		t.Fatalf("slow token: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

// No IMDS: ErrNotFound at once when nothing listens, within the timeouts
// when nothing answers.
func TestInstanceMetadataAbsent(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	start := time.Now()
	if _, err := imdsAt(t, closed, 0, nil).Retrieve(context.Background()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}

	// Accepted but never answered.
	l, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	start = time.Now()
	if _, err := imdsAt(t, "http://"+l.Addr().String(), 200*time.Millisecond, nil).Retrieve(context.Background()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestInstanceMetadataBadAnswers(t *testing.T) {
	big := strings.Repeat("x", 2<<20)
	write := func(status int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status); w.Write([]byte(body)) }
	}
	cases := []struct {
		name     string
		path     string
		h        func(s *credserver.IMDS) http.HandlerFunc
		want     string
		notFound bool
	}{
		{"no role", roleGET, func(*credserver.IMDS) http.HandlerFunc { return write(404, "") }, "status 404", true},
		{"empty role", roleGET, func(*credserver.IMDS) http.HandlerFunc { return write(200, "") }, "empty answer", true},
		{"role with a slash", roleGET, func(*credserver.IMDS) http.HandlerFunc { return write(200, "a/b") }, "not a role name", true},
		{"role redirect", roleGET, func(*credserver.IMDS) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://example.com"+credserver.RolePath, http.StatusMovedPermanently)
			}
		}, "status 301", true},
		{"huge role", roleGET, func(*credserver.IMDS) http.HandlerFunc { return write(200, big) }, "too large", true},
		{"slow role", roleGET, func(s *credserver.IMDS) http.HandlerFunc { return s.Stall }, "timeout", true},
		{"garbage credentials", credsGET, func(*credserver.IMDS) http.HandlerFunc { return write(200, "imds-secret {") }, "not JSON", true},
		{"huge credentials", credsGET, func(*credserver.IMDS) http.HandlerFunc { return write(200, big) }, "too large", true},
		{"credentials 500", credsGET, func(*credserver.IMDS) http.HandlerFunc { return write(500, "imds-secret") }, "status 500", true},
		{"credentials redirect", credsGET, func(*credserver.IMDS) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/elsewhere", http.StatusFound) }
		}, "status 302", true},
		{"an error document", credsGET, func(*credserver.IMDS) http.HandlerFunc {
			return write(200, `{"Code": "AssumeRoleUnauthorizedAccess", "Message": "EC2 cannot assume the role"}`)
		}, "AccessKeyId missing from the answer (Code AssumeRoleUnauthorizedAccess)", true},
		{"no token", credsGET, func(*credserver.IMDS) http.HandlerFunc {
			return write(200, `{"AccessKeyId": "AK", "SecretAccessKey": "imds-secret", "Expiration": "2030-01-01T00:00:00Z"}`)
		}, "Token missing", true},
		{"bad expiration", credsGET, func(*credserver.IMDS) http.HandlerFunc {
			return write(200, `{"AccessKeyId": "AK", "SecretAccessKey": "s", "Token": "t", "Expiration": "imds-secret"}`)
		}, "Expiration is not an RFC 3339 time", false},
		{"LF in the token", credsGET, func(*credserver.IMDS) http.HandlerFunc {
			return write(200, `{"AccessKeyId": "AK", "SecretAccessKey": "s", "Token": "imds-secret\n", "Expiration": "2030-01-01T00:00:00Z"}`)
		}, "session token has a control character", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := credserver.StartIMDS()
			defer s.Close()
			s.Override(c.path, c.h(s))
			timeout := 5 * time.Second
			if strings.HasPrefix(c.name, "slow") {
				timeout = 300 * time.Millisecond
			}
			_, err := imdsAt(t, s.URL, timeout, nil).Retrieve(context.Background())
			if err == nil || errors.Is(err, ErrNotFound) != c.notFound || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q (not found: %v)", err, c.want, c.notFound)
			}
			noSecret(t, err, "imds-secret")
		})
	}
}

// metadata_service_num_attempts: the role is asked again after a failure.
func TestInstanceMetadataAttempts(t *testing.T) {
	s := credserver.StartIMDS()
	defer s.Close()
	s.Override(roleGET, func(w http.ResponseWriter, r *http.Request) {
		s.Override(roleGET, nil)
		http.Error(w, "busy", 503)
	})
	if _, err := imdsAt(t, s.URL, 0, map[string]string{"AWS_METADATA_SERVICE_NUM_ATTEMPTS": "2"}).Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.Hits(roleGET) != 2 {
		t.Fatalf("%d role requests", s.Hits(roleGET))
	}
}

// The caller's ctx: its end is an error, not ErrNotFound.
func TestInstanceMetadataCancelled(t *testing.T) {
	s := credserver.StartIMDS()
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	s.Override(roleGET, func(w http.ResponseWriter, r *http.Request) { cancel(); s.Stall(w, r) })
	_, err := imdsAt(t, s.URL, 0, nil).Retrieve(ctx)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v", err)
	}
}

func TestInstanceMetadataSettings(t *testing.T) {
	cases := []struct {
		name       string
		vars       map[string]string
		config     string
		base       string
		timeout    time.Duration
		attempts   int
		v1Disabled bool
		err        string
	}{
		{name: "defaults", base: "http://169.254.169.254/", timeout: time.Second, attempts: 1},
		{name: "ipv6 mode", vars: map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE": "IPv6"}, base: "http://[fd00:ec2::254]/", timeout: time.Second, attempts: 1},
		{name: "ipv6 mode in the profile", config: "[default]\nec2_metadata_service_endpoint_mode = ipv6\n", base: "http://[fd00:ec2::254]/", timeout: time.Second, attempts: 1},
		{name: "environment over profile", vars: map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE": "ipv4"}, config: "[default]\nec2_metadata_service_endpoint_mode = ipv6\n", base: "http://169.254.169.254/", timeout: time.Second, attempts: 1},
		{name: "imds_use_ipv6", config: "[default]\nimds_use_ipv6 = true\n", base: "http://[fd00:ec2::254]/", timeout: time.Second, attempts: 1},
		{name: "endpoint wins over mode", vars: map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE": "ipv6", "AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://10.0.0.1:8080"}, base: "http://10.0.0.1:8080/", timeout: time.Second, attempts: 1},
		{name: "endpoint in the profile", config: "[profile dev]\nec2_metadata_service_endpoint = http://[::1]:99/\n", vars: map[string]string{"AWS_PROFILE": "dev"}, base: "http://[::1]:99/", timeout: time.Second, attempts: 1},
		{name: "timeout and attempts", config: "[default]\nmetadata_service_timeout = 3\nmetadata_service_num_attempts = 2\nec2_metadata_v1_disabled = true\n", base: "http://169.254.169.254/", timeout: 3 * time.Second, attempts: 2, v1Disabled: true},
		{name: "bad mode", vars: map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE": "ipv5"}, err: "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE: the mode is not ipv4 or ipv6"},
		{name: "bad mode in the profile", config: "[default]\nec2_metadata_service_endpoint_mode = ipv5\n", err: "profile default"},
		{name: "bad endpoint", vars: map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT": "169.254.169.254"}, err: "AWS_EC2_METADATA_SERVICE_ENDPOINT is not an http or https URL"},
		{name: "bad timeout", vars: map[string]string{"AWS_METADATA_SERVICE_TIMEOUT": "1.5"}, err: "AWS_METADATA_SERVICE_TIMEOUT is not a whole number"},
		{name: "bad attempts", config: "[default]\nmetadata_service_num_attempts = many\n", err: "metadata_service_num_attempts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := varsEnv(t, c.vars)
			writeAWSFiles(t, env, c.config, "")
			s, err := imdsConfig(env, Options{})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.base != c.base || s.timeout != c.timeout || s.attempts != c.attempts || s.v1Disabled != c.v1Disabled {
				t.Fatalf("got %+v", s)
			}
		})
	}
	// Options.Timeout wins.
	env := varsEnv(t, map[string]string{"AWS_METADATA_SERVICE_TIMEOUT": "5"})
	if s, err := imdsConfig(env, Options{Timeout: time.Millisecond}); err != nil || s.timeout != time.Millisecond {
		t.Fatal(s, err)
	}
}

// Refresh: each Retrieve asks IMDS again (a new token too, as botocore).
func TestInstanceMetadataRefresh(t *testing.T) {
	s := credserver.StartIMDS()
	defer s.Close()
	p := imdsAt(t, s.URL, 0, nil)
	a, err := p.Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a.AccessKeyID == b.AccessKeyID || s.Hits(tokenPath) != 2 {
		t.Fatalf("%s %s, %d tokens", a.AccessKeyID, b.AccessKeyID, s.Hits(tokenPath))
	}
}
