// Package s3expressserver is a fake S3 Express One Zone endpoint (directory
// buckets, path style): CreateSession, signed with SigV4 (signing name
// s3express) by the test credentials, gives a session (access key, secret,
// token, expiry); every other request must be signed with SigV4 by a live
// session's secret and carry its token in x-amz-s3session-token, signed,
// and no X-Amz-Security-Token. PutObject keeps the body, GetObject gives it
// back; a presigned URL works too, its token in X-Amz-S3session-Token.
// A bucket whose name starts with "denied" refuses CreateSession
// (403 AccessDenied). A request that fails a check is answered 403 with
// why. No emulator has S3 Express.
package s3expressserver

import (
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/testing/servers/sigparse"
)

// The test credentials: the only ones CreateSession accepts.
const (
	TestAccessKeyID = "AKIDS3EXPRESSTEST"
	TestSecretKey   = "s3express-test-secret-4f9a"
)

// maxSkew is how far X-Amz-Date may be from the server's clock.
const maxSkew = 15 * time.Minute

// Server is the fake endpoint; its methods are safe for concurrent use.
type Server struct {
	lifetime time.Duration

	mu       sync.Mutex
	sessions map[string]session // by access key id
	created  int                // CreateSession calls answered with a session
	objects  map[string][]byte  // by "bucket/key"
}

type session struct {
	secret, token, bucket string
	expires               time.Time
}

// New returns a server whose sessions live lifetime (S3's: 5 minutes).
func New(lifetime time.Duration) *Server {
	return &Server{lifetime: lifetime, sessions: map[string]session{}, objects: map[string][]byte{}}
}

// CreateSessions is how many sessions the server has given.
func (s *Server) CreateSessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.created
}

// Handler serves the fake endpoint.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		bucket, key, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		_, isSession := r.URL.Query()["session"]
		if isSession && key == "" && r.Method == http.MethodGet {
			s.createSession(w, r, body, bucket)
			return
		}
		if err := s.verifySession(r, body, bucket); err != nil {
			writeError(w, http.StatusForbidden, "SignatureDoesNotMatch", err.Error())
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		switch r.Method {
		case http.MethodPut:
			s.objects[bucket+"/"+key] = body
			w.Header().Set("ETag", `"`+sigv4.PayloadHash(body)[:32]+`"`)
		case http.MethodGet:
			b, ok := s.objects[bucket+"/"+key]
			if !ok {
				writeError(w, http.StatusNotFound, "NoSuchKey", "no object "+key)
				return
			}
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(b)
		default:
			writeError(w, http.StatusNotImplemented, "NotImplemented", r.Method+" is not served")
		}
	})
}

// createSession answers CreateSession, signed by the test credentials.
func (s *Server) createSession(w http.ResponseWriter, r *http.Request, body []byte, bucket string) {
	if r.Header.Get("X-Amz-S3session-Token") != "" {
		writeError(w, http.StatusBadRequest, "InvalidRequest", "CreateSession must not carry x-amz-s3session-token")
		return
	}
	testKey := func(id string) (string, error) {
		if id != TestAccessKeyID {
			return "", fmt.Errorf("signed by %s, not by the test credentials", id)
		}
		return TestSecretKey, nil
	}
	if err := verify(r, body, testKey, nil); err != nil {
		writeError(w, http.StatusForbidden, "SignatureDoesNotMatch", "CreateSession: "+err.Error())
		return
	}
	if strings.HasPrefix(bucket, "denied") {
		writeError(w, http.StatusForbidden, "AccessDenied", "no CreateSession on bucket "+bucket)
		return
	}
	s.mu.Lock()
	s.created++
	n := s.created
	ses := session{secret: fmt.Sprintf("session-secret-%d", n), token: fmt.Sprintf("session-token-%d-%s", n, bucket),
		bucket: bucket, expires: time.Now().Add(s.lifetime)}
	id := fmt.Sprintf("ASIAS3EXPRESS%d", n)
	s.sessions[id] = ses
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/xml")
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><CreateSessionResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">`+
		`<Credentials><SessionToken>%s</SessionToken><SecretAccessKey>%s</SecretAccessKey><AccessKeyId>%s</AccessKeyId>`+
		`<Expiration>%s</Expiration></Credentials></CreateSessionResult>`,
		ses.token, ses.secret, id, ses.expires.UTC().Format("2006-01-02T15:04:05.000Z"))
}

// verifySession checks that r is signed by a live session of bucket and
// carries its token.
func (s *Server) verifySession(r *http.Request, body []byte, bucket string) error {
	q := r.URL.Query()
	if r.Header.Get("X-Amz-Security-Token") != "" || q.Has("X-Amz-Security-Token") {
		return fmt.Errorf("X-Amz-Security-Token is sent; a session's token goes in x-amz-s3session-token")
	}
	token := r.Header.Get("X-Amz-S3session-Token")
	if q.Has("X-Amz-Algorithm") { // presigned
		token = q.Get("X-Amz-S3session-Token")
	}
	return verify(r, body, func(id string) (string, error) {
		s.mu.Lock()
		ses, ok := s.sessions[id]
		s.mu.Unlock()
		switch {
		case !ok:
			return "", fmt.Errorf("access key %s is no S3 Express session (plain SigV4 instead of sigv4-s3express?)", id)
		case ses.bucket != bucket:
			return "", fmt.Errorf("the session of %s is for bucket %s, not %s", id, ses.bucket, bucket)
		case time.Now().After(ses.expires):
			return "", fmt.Errorf("the session of %s expired at %s", id, ses.expires.UTC().Format(time.RFC3339Nano))
		case token != ses.token:
			return "", fmt.Errorf("x-amz-s3session-token %q is not the token of session %s", token, id)
		}
		return ses.secret, nil
	}, []string{"x-amz-s3session-token"})
}

// verify checks r's SigV4 signature (Authorization header, or the query
// of a presigned URL; signing name s3express) made with the secret that
// secretOf gives for its access key, with the headers must among those
// signed (in the header form).
func verify(r *http.Request, body []byte, secretOf func(id string) (string, error), must []string) error {
	sg, err := sigparse.Read(r)
	if err != nil {
		return err
	}
	if sg.Alg != "AWS4-HMAC-SHA256" {
		return fmt.Errorf("not signed with SigV4: algorithm %q", sg.Alg)
	}
	scope := strings.Split(sg.Credential, "/") // AKID/day/region/service/aws4_request
	if len(scope) != 5 || scope[3] != "s3express" || scope[4] != "aws4_request" {
		return fmt.Errorf("credential %q: want KEY/DAY/REGION/s3express/aws4_request", sg.Credential)
	}
	signed := strings.Split(sg.SignedHeaders, ";")
	for _, name := range must {
		if !sg.Presigned && !slices.Contains(signed, name) {
			return fmt.Errorf("%s is not signed (SignedHeaders=%s)", name, sg.SignedHeaders)
		}
	}
	secret, err := secretOf(scope[0])
	if err != nil {
		return err
	}
	t, err := time.Parse("20060102T150405Z", sg.Date)
	if err != nil {
		return fmt.Errorf("X-Amz-Date: %v", err)
	}
	if d := time.Since(t); d > maxSkew+sg.Expires || d < -maxSkew || t.Format("20060102") != scope[1] {
		return fmt.Errorf("X-Amz-Date %s is not now (or expired), or not the scope's day %s", t, scope[1])
	}
	payload := r.Header.Get(sigv4.ContentSHA256Header)
	switch {
	case sg.Presigned:
		payload = sigv4.UnsignedPayload
	case payload != sigv4.UnsignedPayload && payload != sigv4.PayloadHash(body):
		return fmt.Errorf("%s %q is not the body's hash", sigv4.ContentSHA256Header, payload)
	}
	sgn := sigv4.Signer{Region: scope[2], Service: scope[3], DisableURIPathEscaping: true, DisableURIPathNormalization: true,
		Credentials: sigv4.Credentials{AccessKeyID: scope[0], SecretAccessKey: secret}}
	return sgn.Verify(sigv4.Request{Method: r.Method, URL: sg.URL, Header: sg.Header(r), PayloadHash: payload}, t, sg.Sig)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	var b strings.Builder
	xml.EscapeText(&b, []byte(msg))
	fmt.Fprintf(w, "<Error><Code>%s</Code><Message>%s</Message></Error>", code, b.String())
}
