package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/signedserver"
)

const signedService = "com.example#Signed"

// newSigned starts signedserver and a client of com.example#Signed.
func newSigned(t *testing.T, opts ...client.Option) (*client.Client, *signedserver.Server) {
	t.Helper()
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "testing", "servers", "signedserver", "signed.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	s := &signedserver.Server{}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	c, err := client.New(m, signedService, srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, s
}

// hmacSigner signs as signed.smithy's hmacAuth says, with secret.
func hmacSigner(secret string) client.AuthSigner {
	return func(_ context.Context, r *client.AuthRequest) error {
		if alg, _ := r.Trait.Get("algorithm"); alg.Str() != "HMAC-SHA256" {
			return fmt.Errorf("algorithm %q", alg.Str())
		}
		req := r.Request
		date := r.Time.UTC().Format(time.RFC3339)
		pathQuery := req.URL[strings.Index(req.URL[len("http://"):], "/")+len("http://"):]
		req.Header.Set("X-Example-Date", date)
		req.Header.Set("Authorization", "HMAC-SHA256 keyId="+signedserver.KeyID+", signature="+
			signedserver.Signature(secret, req.Method, pathQuery, date, req.Body))
		return nil
	}
}

// TestCustomAuthScheme: a signer registered for com.example#hmacAuth signs
// each attempt, as the model's @auth chooses it; without it the call
// fails before sending; a signer's error fails the call with its message.
func TestCustomAuthScheme(t *testing.T) {
	c, s := newSigned(t, client.WithAuthScheme("com.example#hmacAuth", hmacSigner(signedserver.Secret)))
	got := call(t, c, "Echo", `{"message": "hello"}`)
	if got["message"] != "hello" || got["signedBy"] != signedserver.KeyID || s.Accepted.Load() != 1 {
		t.Errorf("Echo = %v (accepted %d)", got, s.Accepted.Load())
	}

	wrong, _ := newSigned(t, client.WithAuthScheme("com.example#hmacAuth", hmacSigner("not-the-secret")))
	_, err := wrong.Call(context.Background(), "Echo", []byte(`{"message": "x"}`))
	if e := asError(t, err, client.KindService); e.Status != 401 || !strings.Contains(e.Message(), "signature mismatch") {
		t.Errorf("wrong secret: %v", err)
	}

	none, _ := newSigned(t)
	_, err = none.Call(context.Background(), "Echo", []byte(`{}`))
	if e := asError(t, err, client.KindUsage); !strings.Contains(e.Error(), "com.example#hmacAuth") {
		t.Errorf("no signer: %v", err)
	}

	failing, s2 := newSigned(t, client.WithAuthScheme("com.example#hmacAuth", func(context.Context, *client.AuthRequest) error {
		return errors.New("the key store is locked")
	}))
	_, err = failing.Call(context.Background(), "Echo", []byte(`{}`))
	if e := asError(t, err, client.KindUsage); !strings.Contains(e.Error(), "auth scheme com.example#hmacAuth: the key store is locked") || s2.Accepted.Load() != 0 {
		t.Errorf("failing signer: %v", err)
	}
}

// TestDigestAuth: @httpDigestAuth through libcurl against go-httpbin's
// digest check, blocking and through the engine; a wrong password is the
// service's 401.
func TestDigestAuth(t *testing.T) {
	c, _ := newSigned(t, client.WithDigestAuth("ann", "pw"))
	in := `{"qop": "auth", "user": "ann", "passwd": "pw"}`
	if got := call(t, c, "DigestAuth", in); got["authenticated"] != true || got["user"] != "ann" {
		t.Errorf("DigestAuth = %v", got)
	}
	if _, err := c.Call(context.Background(), "DigestAuth", []byte(in), client.ViaEngine()); err != nil {
		t.Errorf("engine: %v", err)
	}
	bad, _ := newSigned(t, client.WithDigestAuth("ann", "wrong"))
	_, err := bad.Call(context.Background(), "DigestAuth", []byte(in))
	if e := asError(t, err, client.KindService); e.Status != 401 {
		t.Errorf("wrong password: %v", err)
	}
	// Without digest credentials the operation cannot be called.
	none, _ := newSigned(t)
	_, err = none.Call(context.Background(), "DigestAuth", []byte(in))
	asError(t, err, client.KindUsage)
}
