// Package wire holds the HTTP request and response as the protocol codecs
// produce and consume them, and as a transport sends and receives them.
// It has no network code: codecs are tested without a network and the
// libcurl transport without a codec.
package wire

import (
	"net/textproto"
	"strings"
)

// Request is an HTTP request built by a protocol codec.
type Request struct {
	Method string
	// Path is the percent-encoded path with its query ("/a/b?x=1"), relative
	// to the client's endpoint (whose own path is prepended by the client).
	Path string
	// HostPrefix is prepended to the endpoint's host (endpoint trait); "" for none.
	// protocol.JoinHost joins and checks the host name that results.
	HostPrefix string
	Header     Header
	Body       []byte
	// Input is the top-level members of the input the request was encoded
	// from, as the codec split and checked them: what reads a member
	// after encoding (endpoint parameters, discovery ids, checksum
	// members) takes it here rather than reading the input again.
	Input Members
}

// Members are the top-level members of an input object: Values[i] is the
// raw JSON of member Names[i], nil when absent or null.
type Members struct {
	Names  []string
	Values [][]byte
}

// Get returns the raw JSON of member name, nil when absent or null.
func (m Members) Get(name string) []byte {
	for i, n := range m.Names {
		if n == name {
			return m.Values[i]
		}
	}
	return nil
}

// Response is an HTTP response as received, body fully read.
type Response struct {
	Status int
	Header Header
	Body   []byte
	// Streamed is true when the body went to the caller's writer as it
	// arrived (a streaming payload, transport.Request.BodyWriter): Body is
	// then empty and the codec leaves the payload member out.
	Streamed bool
	// Names are the response's header names as they were spelled on the
	// wire, for those whose spelling is not their canonical form (Header's
	// keys): "x-amz-meta-color" (HTTP/2 sends every name in lower case).
	// The keys of an @httpPrefixHeaders map are taken from them.
	Names []string
}

// WireName is the spelling on the wire of the header named by canonical
// key k: from Names when one of them is k in another case, else k.
func (r *Response) WireName(k string) string {
	for _, n := range r.Names {
		if len(n) == len(k) && strings.EqualFold(n, k) {
			return n
		}
	}
	return k
}

// Header maps canonical header names (CanonicalHeaderKey) to their values,
// like net/http's Header, which it converts to and from (wire.Header(h),
// http.Header(h)). It is its own type so that the library does not link
// net/http and, through it, crypto/tls and x509: that import cost the C
// library ~3 ms of start-up CPU and 2.6 MB of .so.
type Header map[string][]string

// CanonicalHeaderKey returns the canonical form of a header name
// ("content-type" -> "Content-Type"), as net/http does.
func CanonicalHeaderKey(s string) string { return textproto.CanonicalMIMEHeaderKey(s) }

// Add appends value to the values of key.
func (h Header) Add(key, value string) { textproto.MIMEHeader(h).Add(key, value) }

// Set replaces the values of key with value.
func (h Header) Set(key, value string) { textproto.MIMEHeader(h).Set(key, value) }

// Get returns the first value of key, or "".
func (h Header) Get(key string) string { return textproto.MIMEHeader(h).Get(key) }

// Values returns the values of key (not a copy).
func (h Header) Values(key string) []string { return textproto.MIMEHeader(h).Values(key) }

// Del deletes key.
func (h Header) Del(key string) { textproto.MIMEHeader(h).Del(key) }

// Clone returns a deep copy of h, or nil when h is nil.
func (h Header) Clone() Header {
	if h == nil {
		return nil
	}
	n := 0
	for _, vs := range h {
		n += len(vs)
	}
	all := make([]string, n)
	out := make(Header, len(h))
	for k, vs := range h {
		if vs == nil {
			out[k] = nil
			continue
		}
		n := copy(all, vs)
		out[k] = all[:n:n]
		all = all[n:]
	}
	return out
}

// Unreserved reports whether c is an RFC 3986 unreserved character
// (A-Z a-z 0-9 - . _ ~), the ones percent-encoding leaves as they are.
func Unreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// IsToken reports whether s is an RFC 9110 token, the form of a method
// and a header name: one or more visible ASCII characters, none of them a
// delimiter ("(),/:;<=>?@[\]{}).
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// AppendEscaped appends s percent-encoded: every byte but the unreserved
// ones (and '/' when keepSlash is set) as %XX with upper-case hex digits,
// the encoding of Smithy's labels and query strings, of the endpoint rules'
// uriEncode and of SigV4's canonical requests.
func AppendEscaped(dst []byte, s string, keepSlash bool) []byte {
	const hexDigits = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if Unreserved(c) || (c == '/' && keepSlash) {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '%', hexDigits[c>>4], hexDigits[c&0xf])
	}
	return dst
}
