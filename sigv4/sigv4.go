// Package sigv4 signs HTTP requests with AWS Signature Version 4: the
// Authorization header of a request (Signer.Sign), with HMAC-SHA256
// (SigV4) or ECDSA P-256 for a set of regions (SigV4a, Signer.RegionSet),
// and the chained signatures of the messages of an input event stream
// (EventSigner).
//
// smithycurl signs, not libcurl: libcurl 7.88's CURLOPT_AWS_SIGV4 puts the
// request path into the canonical request as it is sent, encoded once, but
// every service except S3 expects each path segment encoded twice (a Lambda
// function ARN in the path was refused as a bad signature); it also signs
// header lines it never sends (Expect, "Name:" removals).
//
// The canonical request is built apart from the header form (Sign): the
// query form (presigned URLs) and SigV4a sign the same one.
package sigv4

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

const (
	// algorithm names SigV4 with HMAC-SHA256 in Authorization and in the
	// string to sign.
	algorithm = "AWS4-HMAC-SHA256"
	// algorithmECDSA names SigV4a, ECDSA P-256 with SHA-256.
	algorithmECDSA = "AWS4-ECDSA-P256-SHA256"
	// timeFormat is the form of X-Amz-Date.
	timeFormat = "20060102T150405Z"
	// dayFormat is the form of the day in the credential scope.
	dayFormat = "20060102"
)

const (
	// ContentSHA256Header carries the payload hash, where a service asks
	// for it (S3) or the payload is not a hash of the body.
	ContentSHA256Header = "X-Amz-Content-Sha256"
	// UnsignedPayload is the payload hash of a body left out of the
	// signature (one not read twice to hash it).
	UnsignedPayload = "UNSIGNED-PAYLOAD"
	// StreamingEventsPayload is the payload hash of a body of event
	// stream messages signed by an EventSigner.
	StreamingEventsPayload = "STREAMING-AWS4-HMAC-SHA256-EVENTS"
	// RegionSetHeader carries the regions a SigV4a signature is good for.
	RegionSetHeader = "X-Amz-Region-Set"
)

// Credentials are the AWS credentials a signature is made with.
type Credentials struct {
	AccessKeyID, SecretAccessKey string
	// SessionToken, when set, is sent as X-Amz-Security-Token and signed.
	SessionToken string
}

// Signer signs for one set of credentials, region and service.
type Signer struct {
	Credentials Credentials
	Region      string
	Service     string // the signing name
	// Keys keeps the signing key between signatures; nil derives it for
	// each one.
	Keys *KeyCache
	// RegionSet, when set, signs with SigV4a (AWS4-ECDSA-P256-SHA256) for
	// these regions ("*" for all), sent in X-Amz-Region-Set; Region is
	// then unused and the credential scope has no region.
	RegionSet []string
	// DisableURIPathEscaping signs the path as it is sent (S3); otherwise
	// it is encoded once more, as every other service expects.
	DisableURIPathEscaping bool
	// DisableURIPathNormalization signs the path with its dot segments and
	// empty segments (S3); otherwise they are removed, as RFC 3986 does.
	DisableURIPathNormalization bool
}

// Request is a request as it will be sent, for Sign.
type Request struct {
	Method string
	URL    string // absolute and percent-encoded: "https://host:port/path?query"
	// Header is signed but for the headers proxies and libcurl may change
	// (Authorization, User-Agent, Expect, Transfer-Encoding,
	// Content-Length, X-Amzn-Trace-Id); Sign adds its own to it.
	Header wire.Header
	// PayloadHash is the hex SHA-256 of the body (PayloadHash),
	// UnsignedPayload or StreamingEventsPayload.
	PayloadHash string
}

// PayloadHash is the hex SHA-256 of body.
func PayloadHash(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// Sign sets X-Amz-Date, X-Amz-Security-Token (with a session token),
// X-Amz-Region-Set (SigV4a) and Authorization in r.Header, signed as of
// t, and returns the signature (hex). Signing again (a retry, a later
// date) replaces them.
func (s *Signer) Sign(r Request, t time.Time) (string, error) {
	u, err := url.Parse(r.URL)
	if err != nil {
		return "", err
	}
	var dateBuf [16]byte
	amzDate := string(t.UTC().AppendFormat(dateBuf[:0], timeFormat))
	r.Header.Set("X-Amz-Date", amzDate)
	if s.Credentials.SessionToken != "" {
		r.Header.Set("X-Amz-Security-Token", s.Credentials.SessionToken)
	}
	if s.RegionSet != nil {
		r.Header.Set(RegionSetHeader, strings.Join(s.RegionSet, ","))
	}
	canon, signed := s.canonicalRequest(r.Method, u, r.Header, r.PayloadHash)
	day := amzDate[:8]
	scope := s.scope(day)
	var sigBuf [maxSignatureLen]byte
	sig, err := s.appendSignature(sigBuf[:0], day, stringToSign(s.algorithm(), amzDate, scope, canon))
	if err != nil {
		return "", err
	}
	auth := s.algorithm() + " Credential=" + s.Credentials.AccessKeyID + "/" + scope +
		", SignedHeaders=" + signed + ", Signature=" + string(sig)
	r.Header.Set("Authorization", auth)
	return auth[len(auth)-len(sig):], nil
}

// Verify checks signature (hex), made by Sign as of t over r, whose Header
// holds the headers the signature covers as they were received (a server's
// check, for tests): SigV4 computes it again, SigV4a verifies it with the
// public key of the credentials.
func (s *Signer) Verify(r Request, t time.Time, signature string) error {
	u, err := url.Parse(r.URL)
	if err != nil {
		return err
	}
	amzDate := t.UTC().Format(timeFormat)
	canon, _ := s.canonicalRequest(r.Method, u, r.Header, r.PayloadHash)
	day := amzDate[:8]
	toSign := stringToSign(s.algorithm(), amzDate, s.scope(day), canon)
	if s.RegionSet != nil {
		return s.verifyECDSA(toSign, signature)
	}
	var want [64]byte
	s.hmacSignature(want[:], day, toSign)
	if !hmac.Equal(want[:], []byte(signature)) {
		return errors.New("sigv4: signature mismatch")
	}
	return nil
}

// canonicalRequest is the canonical request of a request to u as s signs
// it, and its signed headers.
func (s *Signer) canonicalRequest(method string, u *url.URL, header wire.Header, payload string) ([]byte, string) {
	return canonicalRequest(method, u, header, payload, !s.DisableURIPathEscaping, !s.DisableURIPathNormalization)
}

// algorithm is the algorithm name of Authorization and the string to sign.
func (s *Signer) algorithm() string {
	if s.RegionSet != nil {
		return algorithmECDSA
	}
	return algorithm
}

// scope is the credential scope of a signature of day (yyyymmdd): day,
// region (SigV4 only) and service.
func (s *Signer) scope(day string) string {
	if s.RegionSet != nil {
		return day + "/" + s.Service + "/aws4_request"
	}
	return credentialScope(day, s.Region, s.Service)
}

// appendSignature appends the hex signature of toSign, a string to sign
// of day, to dst: the HMAC with the day's signing key (SigV4) or the
// ECDSA signature in ASN.1 DER with the key of the credentials (SigV4a).
func (s *Signer) appendSignature(dst []byte, day string, toSign []byte) ([]byte, error) {
	if s.RegionSet != nil {
		return s.appendECDSASignature(dst, toSign)
	}
	n := len(dst)
	dst = append(dst, make([]byte, 64)...)
	s.hmacSignature(dst[n:], day, toSign)
	return dst, nil
}

// credentialScope is the SigV4 scope of a signature: day (yyyymmdd),
// region and service.
func credentialScope(day, region, service string) string {
	return day + "/" + region + "/" + service + "/aws4_request"
}

// stringToSign is what a request's signature is made of: the algorithm,
// the date, the scope and the hash of the canonical request.
func stringToSign(alg, amzDate, scope string, canon []byte) []byte {
	hash := sha256.Sum256(canon)
	var hexBuf [64]byte
	hex.Encode(hexBuf[:], hash[:])
	toSign := make([]byte, 0, len(alg)+1+len(amzDate)+len(scope)+2+len(hexBuf))
	toSign = append(append(append(append(append(append(toSign, alg...), '\n'), amzDate...), '\n'), scope...), '\n')
	return append(toSign, hexBuf[:]...)
}

// hmacSignature writes the hex HMAC of toSign with the signing key of day
// to dst (64 bytes).
func (s *Signer) hmacSignature(dst []byte, day string, toSign []byte) {
	mac := hmac.New(sha256.New, s.Keys.Key(s.Credentials.SecretAccessKey, day, s.Region, s.Service))
	mac.Write(toSign)
	var sum [sha256.Size]byte
	hex.Encode(dst, mac.Sum(sum[:0]))
}
