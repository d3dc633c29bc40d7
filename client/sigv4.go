package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"sort"
	"strings"
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

// sign sets X-Amz-Date, X-Amz-Content-Sha256 (S3, or a streamed body whose
// payload is not signed) and Authorization on req as of now. It is called
// again before each retry: the date moves on.
func (s *sigV4) sign(req *transport.Request, now time.Time) error {
	u, err := url.Parse(req.URL)
	if err != nil {
		return err
	}
	amzDate := now.UTC().Format("20060102T150405Z")
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
	names := []string{"host"}
	values := map[string]string{"host": hostHeader(u)}
	for name, vs := range req.Header {
		lower := strings.ToLower(name)
		if sigV4Unsigned[lower] || len(vs) == 0 {
			continue
		}
		trimmed := make([]string, len(vs))
		for i, v := range vs {
			trimmed[i] = strings.Join(strings.Fields(v), " ")
		}
		if _, seen := values[lower]; !seen {
			names = append(names, lower)
			values[lower] = strings.Join(trimmed, ",")
		} else {
			values[lower] += "," + strings.Join(trimmed, ",")
		}
	}
	sort.Strings(names)
	signed := strings.Join(names, ";")

	var canon strings.Builder
	canon.WriteString(req.Method)
	canon.WriteByte('\n')
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if !s.s3() {
		path = string(wire.AppendEscaped(nil, path, true))
	}
	canon.WriteString(path)
	canon.WriteByte('\n')
	canon.WriteString(canonicalQuery(u.RawQuery))
	canon.WriteByte('\n')
	for _, n := range names {
		canon.WriteString(n)
		canon.WriteByte(':')
		canon.WriteString(values[n])
		canon.WriteByte('\n')
	}
	canon.WriteByte('\n')
	canon.WriteString(signed)
	canon.WriteByte('\n')
	canon.WriteString(payload)

	date := amzDate[:8]
	scope := date + "/" + s.region + "/" + s.service + "/aws4_request"
	hash := sha256.Sum256([]byte(canon.String()))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex.EncodeToString(hash[:])
	key := signingKey(s.creds.SecretAccessKey, date, s.region, s.service)
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+s.creds.AccessKeyID+"/"+scope+
		", SignedHeaders="+signed+", Signature="+hex.EncodeToString(hmacSHA256(key, toSign)))
	return nil
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
