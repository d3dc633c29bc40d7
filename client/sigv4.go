package client

import (
	"time"

	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/transport"
)

// requestSigner signs a call's requests with SigV4 (header form).
type requestSigner struct {
	sigv4.Signer
	s3 bool // S3 needs X-Amz-Content-Sha256 on every request
}

func newRequestSigner(creds identity.AWS, region, service string, keys *sigv4.KeyCache) *requestSigner {
	s3 := isS3SigningName(service)
	s := &requestSigner{s3: s3, Signer: sigv4.Signer{Region: region, Service: service, Keys: keys,
		DisableURIPathEscaping: s3, DisableURIPathNormalization: s3}}
	s.setCredentials(creds)
	return s
}

// setCredentials makes the next signature use creds.
func (s *requestSigner) setCredentials(creds identity.AWS) {
	s.Credentials = sigv4.Credentials{AccessKeyID: creds.AccessKeyID, SecretAccessKey: creds.SecretAccessKey, SessionToken: creds.SessionToken}
}

// isS3SigningName reports whether service is one of S3's signing names,
// whose paths are encoded once in the canonical request and which need
// X-Amz-Content-Sha256 on every request.
func isS3SigningName(service string) bool {
	switch service {
	case "s3", "s3-object-lambda", "s3-outposts", "s3express":
		return true
	}
	return false
}

// sign signs req as of now and returns the signature. The payload hash is
// X-Amz-Content-Sha256 when req has it, else the body's, sent in that
// header for S3; a streamed body is not read twice to hash it: it is sent
// unsigned, as the AWS SDKs send S3 streaming uploads. It is called again
// before each retry: the date moves on.
func (s *requestSigner) sign(req *transport.Request, now time.Time) (string, error) {
	payload := req.Header.Get(sigv4.ContentSHA256Header)
	if payload == "" {
		if req.BodyReader != nil {
			payload = sigv4.UnsignedPayload
		} else {
			payload = sigv4.PayloadHash(req.Body)
		}
		if req.BodyReader != nil || s.s3 {
			req.Header.Set(sigv4.ContentSHA256Header, payload)
		}
	}
	if s.Credentials.SessionToken == "" {
		req.Header.Del("X-Amz-Security-Token") // an earlier attempt's credentials had one
	}
	return s.Sign(sigv4.Request{Method: req.Method, URL: req.URL, Header: req.Header, PayloadHash: payload}, now)
}
