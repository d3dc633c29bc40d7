package sigv4

import (
	"net/url"
	"sort"
	"strings"

	"github.com/smithycurl/smithycurl/wire"
)

// unsignedHeaders are the request headers left out of the signature, as
// the AWS SDKs leave them out: proxies and libcurl may change or drop them.
var unsignedHeaders = map[string]bool{"authorization": true, "user-agent": true, "expect": true,
	"transfer-encoding": true, "x-amzn-trace-id": true, "content-length": true}

// canonicalHeader is one header of the canonical request: its lower-case
// name and its values, trimmed and joined by commas.
type canonicalHeader struct{ name, value string }

// canonicalRequest is the canonical request of a request to u with
// header and the payload hash payload, and its signed headers (names
// joined by ';'). escapePath encodes the path once more; normalize removes
// its dot segments and empty segments.
func canonicalRequest(method string, u *url.URL, header wire.Header, payload string, escapePath, normalize bool) (canon []byte, signed string) {
	return appendCanonical(nil, method, u, canonicalHeaders(u, header), payload, escapePath, normalize)
}

// canonicalHeaders are the headers a request to u with header signs:
// host and every header of the request but the unsigned ones, lower-case
// names in order, values trimmed with inner runs of spaces made one and
// repeated values joined by commas.
func canonicalHeaders(u *url.URL, header wire.Header) []canonicalHeader {
	hdrs := make([]canonicalHeader, 1, len(header)+1)
	hdrs[0] = canonicalHeader{"host", hostHeader(u)}
	for name, vs := range header {
		lower := strings.ToLower(name)
		if unsignedHeaders[lower] || len(vs) == 0 {
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
	return hdrs
}

// appendCanonical appends the canonical request of a request to u with
// the canonical headers hdrs to canon, and returns its signed headers.
func appendCanonical(canon []byte, method string, u *url.URL, hdrs []canonicalHeader, payload string, escapePath, normalize bool) ([]byte, string) {
	path := u.EscapedPath()
	if normalize {
		path = normalizePath(path)
	}
	if path == "" {
		path = "/"
	}
	canon = append(canon, method...)
	canon = append(canon, '\n')
	if escapePath {
		canon = wire.AppendEscaped(canon, path, true)
	} else {
		canon = append(canon, path...)
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
	return canon, signed
}

// normalizePath removes the "." and ".." segments and the empty segments
// of an escaped path, as RFC 3986 resolves them, keeping a trailing slash:
// the canonical path of every service but S3.
func normalizePath(p string) string {
	if !strings.Contains(p, "/.") && !strings.Contains(p, "//") {
		return p
	}
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	for _, seg := range segs {
		switch seg {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, seg)
		}
	}
	norm := "/" + strings.Join(out, "/")
	if last := segs[len(segs)-1]; len(out) > 0 && (last == "" || last == "." || last == "..") {
		norm += "/"
	}
	return norm
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
