// Package wire holds the HTTP request and response as the protocol codecs
// produce and consume them, and as a transport sends and receives them.
// It has no network code: codecs are tested without a network and the
// libcurl transport without a codec.
package wire

import "net/http"

// Request is an HTTP request built by a protocol codec.
type Request struct {
	Method string
	// Path is the percent-encoded path with its query ("/a/b?x=1"), relative
	// to the client's endpoint (whose own path is prepended by the client).
	Path string
	// HostPrefix is prepended to the endpoint's host (endpoint trait); "" for none.
	HostPrefix string
	Header     http.Header
	Body       []byte
}

// Response is an HTTP response as received, body fully read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}
