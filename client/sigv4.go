package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// sigV4 signs requests with AWS Signature Version 4 (header form).
//
// The client signs, not libcurl: libcurl 7.88's CURLOPT_AWS_SIGV4 puts the
// request path into the canonical request as it is sent, encoded once, but
// every service except S3 expects each path segment encoded twice (a Lambda
// function ARN in the path was refused as a bad signature); it also signs
// header lines it never sends (Expect, "Name:" removals).
type sigV4 struct {
	region, service string
	creds           *AWSCredentials
	keys            *sigV4Keys // the client's cache of signing keys; nil: none
}

// sigV4Keys keeps the signing key last derived (four HMACs, half the cost
// of a signature), as the AWS SDKs do: a client signs for one secret,
// region and service, and the key changes once a day. Safe for concurrent
// use.
type sigV4Keys struct {
	mu                           sync.Mutex
	secret, day, region, service string
	key                          []byte // read-only once stored
}

// get returns the signing key of secret, day, region and service.
func (c *sigV4Keys) get(secret, day, region, service string) []byte {
	if c == nil {
		return signingKey(secret, day, region, service)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key == nil || c.day != day || c.secret != secret || c.region != region || c.service != service {
		c.key = signingKey(secret, day, region, service)
		c.secret, c.day, c.region, c.service = secret, day, region, service
	}
	return c.key
}

// sigV4Unsigned are the request headers left out of the signature, as the
// AWS SDKs leave them out: proxies and libcurl may change or drop them.
var sigV4Unsigned = map[string]bool{"authorization": true, "user-agent": true, "expect": true,
	"transfer-encoding": true, "x-amzn-trace-id": true, "content-length": true}

// s3 reports whether the signing name is one of S3's, whose paths are
// encoded once in the canonical request and which need X-Amz-Content-Sha256
// on every request.
func (s *sigV4) s3() bool {
	switch s.service {
	case "s3", "s3-object-lambda", "s3-outposts", "s3express":
		return true
	}
	return false
}

// canonicalHeader is one header of the canonical request: its lower-case
// name and its values, trimmed and joined by commas.
type canonicalHeader struct{ name, value string }

// sign sets X-Amz-Date, X-Amz-Content-Sha256 (S3, or a streamed body whose
// payload is not signed) and Authorization on req as of now. It is called
// again before each retry: the date moves on.
func (s *sigV4) sign(req *transport.Request, now time.Time) error {
	u, err := url.Parse(req.URL)
	if err != nil {
		return err
	}
	var dateBuf [16]byte
	amzDate := string(now.UTC().AppendFormat(dateBuf[:0], "20060102T150405Z"))
	req.Header.Set("X-Amz-Date", amzDate)
	payload := req.Header.Get("X-Amz-Content-Sha256")
	if payload == "" {
		if req.BodyReader != nil {
			// A streamed body is not read twice to hash it: sent unsigned,
			// as the AWS SDKs send S3 streaming uploads.
			payload = "UNSIGNED-PAYLOAD"
		} else {
			sum := sha256.Sum256(req.Body)
			payload = hex.EncodeToString(sum[:])
		}
		if req.BodyReader != nil || s.s3() {
			req.Header.Set("X-Amz-Content-Sha256", payload)
		}
	}

	// Canonical headers: host and every header of the request but the
	// unsigned ones, lower-case names in order, values trimmed with inner
	// runs of spaces made one and repeated values joined by commas.
	hdrs := make([]canonicalHeader, 1, len(req.Header)+1)
	hdrs[0] = canonicalHeader{"host", hostHeader(u)}
	for name, vs := range req.Header {
		lower := strings.ToLower(name)
		if sigV4Unsigned[lower] || len(vs) == 0 {
			continue
		}
		value := canonicalValue(vs)
		merged := false
		for i := range hdrs {
			if hdrs[i].name == lower { // the same name in another letter case
				hdrs[i].value += "," + value
				merged = true
				break
			}
		}
		if !merged {
			hdrs = append(hdrs, canonicalHeader{lower, value})
		}
	}
	sort.Slice(hdrs, func(i, j int) bool { return hdrs[i].name < hdrs[j].name })

	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	var canon []byte
	canon = append(canon, req.Method...)
	canon = append(canon, '\n')
	if s.s3() {
		canon = append(canon, path...)
	} else {
		canon = wire.AppendEscaped(canon, path, true)
	}
	canon = append(canon, '\n')
	canon = append(canon, canonicalQuery(u.RawQuery)...)
	canon = append(canon, '\n')
	for _, h := range hdrs {
		canon = append(canon, h.name...)
		canon = append(canon, ':')
		canon = append(canon, h.value...)
		canon = append(canon, '\n')
	}
	canon = append(canon, '\n')
	signedAt := len(canon)
	for i, h := range hdrs {
		if i > 0 {
			canon = append(canon, ';')
		}
		canon = append(canon, h.name...)
	}
	signed := string(canon[signedAt:])
	canon = append(canon, '\n')
	canon = append(canon, payload...)

	date := amzDate[:8]
	scope := date + "/" + s.region + "/" + s.service + "/aws4_request"
	hash := sha256.Sum256(canon)
	var hexBuf [64]byte
	hex.Encode(hexBuf[:], hash[:])
	toSign := make([]byte, 0, len("AWS4-HMAC-SHA256\n")+len(amzDate)+len(scope)+2+len(hexBuf))
	toSign = append(append(append(append(append(toSign, "AWS4-HMAC-SHA256\n"...), amzDate...), '\n'), scope...), '\n')
	toSign = append(toSign, hexBuf[:]...)
	mac := hmac.New(sha256.New, s.keys.get(s.creds.SecretAccessKey, date, s.region, s.service))
	mac.Write(toSign)
	var sum [sha256.Size]byte
	hex.Encode(hexBuf[:], mac.Sum(sum[:0]))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+s.creds.AccessKeyID+"/"+scope+
		", SignedHeaders="+signed+", Signature="+string(hexBuf[:]))
	return nil
}

// canonicalValue is a header's values as SigV4 signs them: each trimmed,
// inner runs of spaces and tabs made one space, joined by commas.
func canonicalValue(vs []string) string {
	if len(vs) == 1 && !needsTrim(vs[0]) {
		return vs[0]
	}
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		for j, f := range strings.Fields(v) {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f)
		}
	}
	return b.String()
}

// needsTrim reports whether v has leading or trailing white space, or a
// white space character other than a lone space inside.
func needsTrim(v string) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == ' ':
			if i == 0 || i == len(v)-1 || v[i+1] == ' ' {
				return true
			}
		case c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c >= 0x80:
			return true // strings.Fields also splits at Unicode spaces
		}
	}
	return false
}

// signingKey is the SigV4 signing key of a day (yyyymmdd), region and
// service.
func signingKey(secret, day, region, service string) []byte {
	key := hmacSHA256([]byte("AWS4"+secret), day)
	for _, part := range []string{region, service, "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	return key
}

func hmacSHA256(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}

// hostHeader is the Host header libcurl sends for u: the port only when it
// is not the scheme's default.
func hostHeader(u *url.URL) string {
	host, port := u.Hostname(), u.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "" || (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		return host
	}
	return host + ":" + port
}

// canonicalQuery sorts the query's parameters by name then value, each
// decoded and encoded again the SigV4 way ("k" without a value is "k=").
func canonicalQuery(raw string) string {
	if raw == "" {
		return ""
	}
	type pair struct{ k, v string }
	var pairs []pair
	for _, kv := range strings.Split(raw, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		if dk, err := url.PathUnescape(k); err == nil {
			k = dk
		}
		if dv, err := url.PathUnescape(v); err == nil {
			v = dv
		}
		pairs = append(pairs, pair{string(wire.AppendEscaped(nil, k, false)), string(wire.AppendEscaped(nil, v, false))})
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].k != pairs[j].k {
			return pairs[i].k < pairs[j].k
		}
		return pairs[i].v < pairs[j].v
	})
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p.k)
		b.WriteByte('=')
		b.WriteString(p.v)
	}
	return b.String()
}
