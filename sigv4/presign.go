package sigv4

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

// MaxExpires is the longest a presigned URL may be valid: SigV4 refuses
// X-Amz-Expires above 7 days.
const MaxExpires = 7 * 24 * time.Hour

// Presigned is a request signed in its query string: anyone holding it
// can send it, without credentials, until it expires.
type Presigned struct {
	URL string // r.URL with the X-Amz-* parameters, X-Amz-Signature last
	// SignedHeaders are the signed header names, lower-case, joined by
	// ';' (X-Amz-SignedHeaders): the request must be sent with each of
	// r.Header's values, host aside.
	SignedHeaders string
	Signature     string // as in the URL
}

// Presign signs r in its query string (a presigned URL, the "query
// string" form of SigV4) as of t, valid for expires: 1 s to MaxExpires,
// whole seconds (a fraction is dropped). The parameters X-Amz-Algorithm,
// X-Amz-Credential, X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders and,
// with a session token, X-Amz-Security-Token (and for SigV4a,
// X-Amz-Region-Set) are appended to r.URL's query in that order, as
// botocore appends them, then X-Amz-Signature.
// r.Header is signed as Sign signs it (less the unsigned headers) and left
// unchanged; r.PayloadHash is signed as given: UnsignedPayload when the
// body is the sender's choice (S3).
func (s *Signer) Presign(r Request, t time.Time, expires time.Duration) (Presigned, error) {
	if expires < time.Second || expires > MaxExpires {
		return Presigned{}, fmt.Errorf("presigning: the expiry %s is not between 1s and %s (7 days)", expires, MaxExpires)
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		return Presigned{}, fmt.Errorf("presigning: %w", err)
	}
	amzDate := t.UTC().Format(timeFormat)
	day := amzDate[:8]
	scope := s.scope(day)
	hdrs := canonicalHeaders(u, r.Header)
	names := make([]string, len(hdrs))
	for i, h := range hdrs {
		names[i] = h.name
	}
	signed := strings.Join(names, ";")

	q := []byte(u.RawQuery)
	param := func(name, value string) {
		if len(q) > 0 {
			q = append(q, '&')
		}
		q = append(append(q, name...), '=')
		q = wire.AppendEscaped(q, value, false)
	}
	param("X-Amz-Algorithm", s.algorithm())
	param("X-Amz-Credential", s.Credentials.AccessKeyID+"/"+scope)
	param("X-Amz-Date", amzDate)
	param("X-Amz-Expires", strconv.FormatInt(int64(expires/time.Second), 10))
	param("X-Amz-SignedHeaders", signed)
	if s.Credentials.SessionToken != "" {
		param("X-Amz-Security-Token", s.Credentials.SessionToken)
	}
	if s.RegionSet != nil {
		param(RegionSetHeader, strings.Join(s.RegionSet, ","))
	}
	u.RawQuery = string(q)

	canon, _ := appendCanonical(nil, r.Method, u, hdrs, r.PayloadHash, !s.DisableURIPathEscaping, !s.DisableURIPathNormalization)
	var sigBuf [maxSignatureLen]byte
	sig, err := s.appendSignature(sigBuf[:0], day, stringToSign(s.algorithm(), amzDate, scope, canon))
	if err != nil {
		return Presigned{}, fmt.Errorf("presigning: %w", err)
	}
	param("X-Amz-Signature", string(sig))
	base, _, _ := strings.Cut(r.URL, "#")
	base, _, _ = strings.Cut(base, "?")
	return Presigned{URL: base + "?" + string(q), SignedHeaders: signed, Signature: string(sig)}, nil
}
