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
	"strconv"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/wire"
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

// signature is what a request says of its signature, in its
// Authorization header or its query (a presigned URL).
type signature struct {
	alg, credential, signedHeaders, sig string
	date, regionSet                     string
	url                                 string // as signed: without X-Amz-Signature
	presigned                           bool
	expires                             time.Duration
}

// verify checks r's SigV4a signature (its body read whole), in its
// Authorization header or its query, and returns "sigv4a <service>
// <region set>".
func verify(r *http.Request, body []byte) (string, error) {
	sg, err := readSignature(r)
	if err != nil {
		return "", err
	}
	if sg.alg != "AWS4-ECDSA-P256-SHA256" {
		return "", fmt.Errorf("not signed with SigV4a: algorithm %q", sg.alg)
	}
	scope := strings.Split(sg.credential, "/") // AKID/day/service/aws4_request
	if len(scope) != 4 || scope[3] != "aws4_request" {
		return "", fmt.Errorf("credential %q: want KEY/DAY/SERVICE/aws4_request (no region)", sg.credential)
	}
	if scope[0] != TestAccessKeyID {
		return "", fmt.Errorf("unknown access key %s", scope[0])
	}
	t, err := time.Parse("20060102T150405Z", sg.date)
	if err != nil {
		return "", fmt.Errorf("X-Amz-Date: %v", err)
	}
	if d := time.Since(t); d > maxSkew+sg.expires || d < -maxSkew || t.Format("20060102") != scope[1] {
		return "", fmt.Errorf("X-Amz-Date %s is not now (or expired), or not the scope's day %s", t, scope[1])
	}
	h := wire.Header{}
	seen := map[string]bool{}
	for _, name := range strings.Split(sg.signedHeaders, ";") {
		seen[name] = true
		if name != "host" {
			for _, v := range r.Header.Values(name) {
				h.Add(name, v)
			}
		}
	}
	must := []string{"host", "x-amz-date", "x-amz-region-set"}
	if sg.presigned {
		must = must[:1] // the others are in the query
	}
	for _, name := range must {
		if !seen[name] {
			return "", fmt.Errorf("%s is not signed (SignedHeaders=%s)", name, sg.signedHeaders)
		}
	}
	s3 := strings.HasPrefix(scope[2], "s3")
	payload := r.Header.Get(sigv4.ContentSHA256Header)
	switch {
	case sg.presigned && s3:
		payload = sigv4.UnsignedPayload
	case payload == "":
		payload = sigv4.PayloadHash(body)
	case payload != sigv4.UnsignedPayload && payload != sigv4.PayloadHash(body):
		return "", fmt.Errorf("%s is not the body's hash", sigv4.ContentSHA256Header)
	}
	s := sigv4.Signer{Service: scope[2], RegionSet: strings.Split(sg.regionSet, ","), DisableURIPathEscaping: s3, DisableURIPathNormalization: s3,
		Credentials: sigv4.Credentials{AccessKeyID: TestAccessKeyID, SecretAccessKey: TestSecretKey}}
	if err := s.Verify(sigv4.Request{Method: r.Method, URL: sg.url, Header: h, PayloadHash: payload}, t, sg.sig); err != nil {
		return "", err
	}
	return "sigv4a " + scope[2] + " " + sg.regionSet, nil
}

// readSignature reads r's signature: from its query when it has
// X-Amz-Algorithm, else from its Authorization header.
func readSignature(r *http.Request) (signature, error) {
	u := "http://" + r.Host + r.URL.RequestURI()
	q := r.URL.Query()
	if q.Get("X-Amz-Algorithm") == "" {
		alg, rest, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		fields := map[string]string{}
		for _, f := range strings.Split(rest, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
			fields[k] = v
		}
		return signature{alg: alg, credential: fields["Credential"], signedHeaders: fields["SignedHeaders"], sig: fields["Signature"],
			date: r.Header.Get("X-Amz-Date"), regionSet: r.Header.Get(sigv4.RegionSetHeader), url: u}, nil
	}
	sig := q.Get("X-Amz-Signature")
	signedURL, ok := strings.CutSuffix(u, "&X-Amz-Signature="+sig)
	if !ok {
		return signature{}, fmt.Errorf("the query does not end with X-Amz-Signature")
	}
	secs, err := strconv.Atoi(q.Get("X-Amz-Expires"))
	if err != nil {
		return signature{}, fmt.Errorf("X-Amz-Expires: %v", err)
	}
	return signature{alg: q.Get("X-Amz-Algorithm"), credential: q.Get("X-Amz-Credential"), signedHeaders: q.Get("X-Amz-SignedHeaders"),
		sig: sig, date: q.Get("X-Amz-Date"), regionSet: q.Get(sigv4.RegionSetHeader), url: signedURL,
		presigned: true, expires: time.Duration(secs) * time.Second}, nil
}

// xmlText escapes s for an XML text node.
func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
