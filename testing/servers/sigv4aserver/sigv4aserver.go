// Package sigv4aserver is a fake AWS endpoint that accepts only requests
// signed with SigV4a (AWS4-ECDSA-P256-SHA256) by the test credentials: it
// verifies each signature, in the Authorization header or in the query (a
// presigned URL), with the public key derived from them, as a Multi-Region
// Access Point or an EventBridge global endpoint does. No
// emulator has one. An awsJson request (X-Amz-Target) is answered as
// EventBridge's PutEvents, any other with 200 and a text body; each names
// what was verified ("sigv4a <service> <region set>"), and a request that
// fails is answered 403 with why.
package sigv4aserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/testing/servers/sigparse"
)

// The test credentials: the only ones the server accepts.
const (
	TestAccessKeyID = "AKIDSIGV4ATEST"
	TestSecretKey   = "sigv4a-test-secret-7c1e5b2d"
)

// maxSkew is how far X-Amz-Date may be from the server's clock.
const maxSkew = 15 * time.Minute

// Handler serves the fake endpoint.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		what, err := verify(r, body)
		jsonRPC := r.Header.Get("X-Amz-Target") != ""
		switch {
		case err != nil && jsonRPC:
			w.Header().Set("Content-Type", "application/x-amz-json-1.1")
			w.WriteHeader(http.StatusForbidden)
			json.NewEncoder(w).Encode(map[string]string{"__type": "InvalidSignatureException", "message": err.Error()})
		case err != nil:
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprintf(w, "<Error><Code>SignatureDoesNotMatch</Code><Message>%s</Message></Error>", xmlText(err.Error()))
		case jsonRPC:
			w.Header().Set("Content-Type", "application/x-amz-json-1.1")
			json.NewEncoder(w).Encode(map[string]any{"FailedEntryCount": 0, "Entries": []map[string]string{{"EventId": what}}})
		default:
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, what)
		}
	})
}

// verify checks r's SigV4a signature (its body read whole), in its
// Authorization header or its query, and returns "sigv4a <service>
// <region set>".
func verify(r *http.Request, body []byte) (string, error) {
	sg, err := sigparse.Read(r)
	if err != nil {
		return "", err
	}
	if sg.Alg != "AWS4-ECDSA-P256-SHA256" {
		return "", fmt.Errorf("not signed with SigV4a: algorithm %q", sg.Alg)
	}
	scope := strings.Split(sg.Credential, "/") // AKID/day/service/aws4_request
	if len(scope) != 4 || scope[3] != "aws4_request" {
		return "", fmt.Errorf("credential %q: want KEY/DAY/SERVICE/aws4_request (no region)", sg.Credential)
	}
	if scope[0] != TestAccessKeyID {
		return "", fmt.Errorf("unknown access key %s", scope[0])
	}
	t, err := time.Parse("20060102T150405Z", sg.Date)
	if err != nil {
		return "", fmt.Errorf("X-Amz-Date: %v", err)
	}
	if d := time.Since(t); d > maxSkew+sg.Expires || d < -maxSkew || t.Format("20060102") != scope[1] {
		return "", fmt.Errorf("X-Amz-Date %s is not now (or expired), or not the scope's day %s", t, scope[1])
	}
	h := sg.Header(r)
	seen := map[string]bool{}
	for _, name := range strings.Split(sg.SignedHeaders, ";") {
		seen[name] = true
	}
	must := []string{"host", "x-amz-date", "x-amz-region-set"}
	if sg.Presigned {
		must = must[:1] // the others are in the query
	}
	for _, name := range must {
		if !seen[name] {
			return "", fmt.Errorf("%s is not signed (SignedHeaders=%s)", name, sg.SignedHeaders)
		}
	}
	s3 := strings.HasPrefix(scope[2], "s3")
	payload := r.Header.Get(sigv4.ContentSHA256Header)
	switch {
	case sg.Presigned && s3:
		payload = sigv4.UnsignedPayload
	case payload == "":
		payload = sigv4.PayloadHash(body)
	case payload != sigv4.UnsignedPayload && payload != sigv4.PayloadHash(body):
		return "", fmt.Errorf("%s is not the body's hash", sigv4.ContentSHA256Header)
	}
	s := sigv4.Signer{Service: scope[2], RegionSet: strings.Split(sg.RegionSet, ","), DisableURIPathEscaping: s3, DisableURIPathNormalization: s3,
		Credentials: sigv4.Credentials{AccessKeyID: TestAccessKeyID, SecretAccessKey: TestSecretKey}}
	if err := s.Verify(sigv4.Request{Method: r.Method, URL: sg.URL, Header: h, PayloadHash: payload}, t, sg.Sig); err != nil {
		return "", err
	}
	return "sigv4a " + scope[2] + " " + sg.RegionSet, nil
}

// xmlText escapes s for an XML text node.
func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
