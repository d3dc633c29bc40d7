package credentials

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/testing/servers/credserver"
)

const containerPath = "/v2/credentials/abc"

// quickContainer is Container with botocore's 3 attempts but no delay
// between them.
func quickContainer(t *testing.T, vars map[string]string) *containerProvider {
	p := Container(varsEnv(t, vars), Options{Timeout: 5 * time.Second}).(*containerProvider)
	p.delay = 0
	return p
}

// issuedSecrets are the secrets a fake handed out.
func issuedSecrets(is []credserver.Issued) []string {
	var s []string
	for _, i := range is {
		s = append(s, i.Secrets()...)
	}
	return s
}

func TestContainerFullURI(t *testing.T) {
	s := credserver.StartContainer(containerPath, "auth-token-value")
	defer s.Close()
	p := quickContainer(t, map[string]string{
		"AWS_CONTAINER_CREDENTIALS_FULL_URI": s.URL + containerPath,
		"AWS_CONTAINER_AUTHORIZATION_TOKEN":  "auth-token-value",
	})
	c, err := p.Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	is := s.Issued()
	if len(is) != 1 || c.AccessKeyID != is[0].AccessKeyID || c.SecretAccessKey != is[0].SecretAccessKey ||
		c.SessionToken != is[0].Token || !c.Expires.Equal(is[0].Expires) {
		t.Fatalf("got %+v, issued %+v", c, is)
	}
	if c.Source != "container (AWS_CONTAINER_CREDENTIALS_FULL_URI)" {
		t.Fatalf("Source %q", c.Source)
	}
	if a := s.Auth(); len(a) != 1 || a[0] != "auth-token-value" {
		t.Fatalf("Authorization %q", a)
	}
}

// The token file is read at each Retrieve (it rotates) and wins over the
// token variable.
func TestContainerTokenFile(t *testing.T) {
	s := credserver.StartContainer(containerPath, "first")
	defer s.Close()
	file := filepath.Join(t.TempDir(), "token")
	os.WriteFile(file, []byte("first"), 0o600)
	p := quickContainer(t, map[string]string{
		"AWS_CONTAINER_CREDENTIALS_FULL_URI":     s.URL + containerPath,
		"AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": file,
		"AWS_CONTAINER_AUTHORIZATION_TOKEN":      "from-the-variable",
	})
	if _, err := p.Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, []byte("second"), 0o600)
	s.SetToken("second")
	if _, err := p.Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a := s.Auth(); strings.Join(a, ",") != "first,second" {
		t.Fatalf("Authorization %q", a)
	}
}

func TestContainerTokenErrors(t *testing.T) {
	s := credserver.StartContainer(containerPath, "")
	defer s.Close()
	dir := t.TempDir()
	crlf := filepath.Join(dir, "crlf")
	os.WriteFile(crlf, []byte("token-SECRETTOKEN\r\n"), 0o600)
	huge := filepath.Join(dir, "huge")
	os.WriteFile(huge, make([]byte, 1<<20), 0o600)
	cases := []struct {
		name string
		vars map[string]string
		want string
	}{
		{"LF in the variable", map[string]string{"AWS_CONTAINER_AUTHORIZATION_TOKEN": "token-SECRETTOKEN\n"}, "AWS_CONTAINER_AUTHORIZATION_TOKEN has a control character"},
		{"CR in the file", map[string]string{"AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": crlf}, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE (" + crlf + ") has a control character"},
		{"missing file", map[string]string{"AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": filepath.Join(dir, "none")}, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: open"},
		{"huge file", map[string]string{"AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": huge}, "larger than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.vars["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = s.URL + containerPath
			_, err := quickContainer(t, c.vars).Retrieve(context.Background())
			if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			noSecret(t, err, "SECRETTOKEN")
		})
	}
	if s.Hits("GET "+containerPath) != 0 {
		t.Fatal("a request went out with a bad token")
	}
}

func TestContainerNotSet(t *testing.T) {
	_, err := quickContainer(t, map[string]string{"AWS_CONTAINER_AUTHORIZATION_TOKEN": "x"}).Retrieve(context.Background())
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v", err)
	}
}

func TestContainerURL(t *testing.T) {
	for _, ok := range []string{
		"http://127.0.0.1:8080/creds", "http://127.1.2.3/x", "http://[::1]:9/x", "http://localhost/x", "http://LOCALHOST/x",
		"http://169.254.170.2/x", "http://169.254.170.23/v1/credentials", "http://[fd00:ec2::23]/x",
		"https://example.com/creds", "HTTPS://example.com/creds",
	} {
		if _, err := containerURL("AWS_CONTAINER_CREDENTIALS_FULL_URI", ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{
		"http://example.com/creds", "http://169.254.169.254/latest", "http://10.0.0.1/x", "http://[fd00:ec2::254]/x",
		"ftp://localhost/x", "file:///etc/passwd", "localhost/x", "http://127.0.0.1/x\r\nX: y", "",
	} {
		if _, err := containerURL("AWS_CONTAINER_CREDENTIALS_FULL_URI", bad); err == nil {
			t.Errorf("%q accepted", bad)
		} else if !strings.Contains(err.Error(), "AWS_CONTAINER_CREDENTIALS_FULL_URI") {
			t.Errorf("%q: %v does not name the variable", bad, err)
		}
	}
}

// The relative URI wins and goes to 169.254.170.2 (unreachable here: a
// timeout, not ErrNotFound, since the variable is set).
func TestContainerRelativeURI(t *testing.T) {
	p := quickContainer(t, map[string]string{
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/v2/credentials/rel",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI":     "http://127.0.0.1:1/never",
	})
	p.timeout, p.attempts = 100*time.Millisecond, 1
	_, err := p.Retrieve(context.Background())
	if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "container (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI)") ||
		!strings.Contains(err.Error(), "http://169.254.170.2/v2/credentials/rel") {
		t.Fatalf("got %v", err)
	}
}

func TestContainerBadAnswers(t *testing.T) {
	big := strings.Repeat("x", 2<<20)
	cases := []struct {
		name string
		h    func(s *credserver.Container) http.HandlerFunc
		want string
		// botocore tries again after a failed request, not after a bad
		// JSON document.
		attempts int
	}{
		{"500", func(*credserver.Container) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", 500) }
		}, "status 500", 3},
		{"redirect", func(*credserver.Container) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://example.com/", http.StatusFound)
			}
		}, "status 302", 3},
		{"garbage", func(*credserver.Container) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>container-secret</html>")) }
		}, "not JSON", 3},
		{"huge", func(*credserver.Container) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(big)) }
		}, "too large", 3},
		{"no token", func(*credserver.Container) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte(`{"AccessKeyId": "AK", "SecretAccessKey": "container-secret", "Expiration": "2030-01-01T00:00:00Z"}`))
			}
		}, "Token missing", 1},
		{"bad expiration", func(*credserver.Container) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte(`{"AccessKeyId": "AK", "SecretAccessKey": "s", "Token": "t", "Expiration": "container-secret"}`))
			}
		}, "Expiration is not an RFC 3339 time", 1},
		{"stalls", func(s *credserver.Container) http.HandlerFunc { return s.Stall }, "timeout", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := credserver.StartContainer(containerPath, "")
			defer s.Close()
			s.Override("GET "+containerPath, c.h(s))
			p := quickContainer(t, map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": s.URL + containerPath})
			if c.name == "stalls" {
				p.timeout = 300 * time.Millisecond
			}
			_, err := p.Retrieve(context.Background())
			if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			noSecret(t, err, "container-secret")
			if n := s.Hits("GET " + containerPath); n != c.attempts {
				t.Fatalf("%d attempts, want botocore's %d", n, c.attempts)
			}
		})
	}
}

// A failure then a success: the retry answers.
func TestContainerRetries(t *testing.T) {
	s := credserver.StartContainer(containerPath, "")
	defer s.Close()
	s.Override("GET "+containerPath, func(w http.ResponseWriter, r *http.Request) {
		s.Override("GET "+containerPath, nil)
		http.Error(w, "busy", 503)
	})
	p := quickContainer(t, map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": s.URL + containerPath})
	if _, err := p.Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := s.Hits("GET " + containerPath); n != 2 {
		t.Fatalf("%d requests", n)
	}
}

// The caller's ctx ends the wait between attempts.
func TestContainerCancelled(t *testing.T) {
	s := credserver.StartContainer(containerPath, "")
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Override("GET "+containerPath, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", 503)
		cancel()
	})
	p := quickContainer(t, map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": s.URL + containerPath})
	p.delay = time.Hour
	if _, err := p.Retrieve(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}
