package transport

import "fmt"

// Kind classifies a transport failure.
type Kind int

const (
	KindOther     Kind = iota // anything not listed below (reset, malformed reply, …)
	KindDNS                   // the host (or proxy) name could not be resolved
	KindConnect               // the TCP connection (or proxy tunnel) could not be opened
	KindTLS                   // the TLS handshake or certificate verification failed
	KindTimeout               // a connect or total timeout, or the ctx deadline, expired
	KindCancelled             // the ctx was cancelled, or the Transport closed
	KindTooLarge              // the response body exceeded MaxResponseBytes
)

func (k Kind) String() string {
	switch k {
	case KindDNS:
		return "dns"
	case KindConnect:
		return "connect"
	case KindTLS:
		return "tls"
	case KindTimeout:
		return "timeout"
	case KindCancelled:
		return "cancelled"
	case KindTooLarge:
		return "too large"
	}
	return "other"
}

// Error is the error returned by Transport.Do for every failure to obtain a
// complete HTTP response. HTTP error statuses are not errors at this layer.
type Error struct {
	Kind Kind
	// Code is libcurl's CURLcode (0 when the failure was detected before
	// libcurl ran, e.g. an invalid header).
	Code int
	// Message is libcurl's detailed message (CURLOPT_ERRORBUFFER) or, when
	// empty, curl_easy_strerror of Code.
	Message string
	// MayHaveReached reports whether any part of the request may have been
	// sent to the server. False means the server certainly did not see it
	// (DNS, connect and TLS failures, or nothing sent yet), so it is safe to
	// retry even a non-idempotent operation.
	MayHaveReached bool
	Method, URL    string
	// cause is context.Canceled / context.DeadlineExceeded when the ctx
	// caused the failure, or ErrClosed.
	cause error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("transport: %s %s: %s", e.Method, e.URL, e.Kind)
	if e.Code != 0 {
		s += fmt.Sprintf(" (curl %d)", e.Code)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.cause != nil && e.Code == 0 && e.Message == "" {
		s += ": " + e.cause.Error()
	}
	if e.MayHaveReached && e.Kind != KindTooLarge {
		s += MayHaveReachedNote
	}
	return s
}

// MayHaveReachedNote ends the text of every failure after which the server
// may have received the request (and acted on it): the same words for a
// reset, a truncated body, a reply that is not HTTP or a timeout.
const MayHaveReachedNote = " (the request may have reached the server)"

// Unwrap returns context.Canceled or context.DeadlineExceeded when the ctx
// caused the failure, so errors.Is works on them.
func (e *Error) Unwrap() error { return e.cause }

// Timeout reports whether the failure was a timeout (net.Error style).
func (e *Error) Timeout() bool { return e.Kind == KindTimeout }

// libcurl codes used in classification (curl/curl.h).
const (
	curleCouldntResolveProxy = 5
	curleCouldntResolveHost  = 6
	curleCouldntConnect      = 7
	curleWriteError          = 23
	curleOperationTimedout   = 28
	curleAbortedByCallback   = 42
	curleSSLConnectError     = 35
	curleSendError           = 55
	curleSSLCertProblem      = 58
	curleSSLCipher           = 59
	curlePeerFailedVerify    = 60
	curleFilesizeExceeded    = 63
	curleSSLCACertBadFile    = 77
	curleSSLShutdownFailed   = 80
	curleSSLCRLBadFile       = 82
	curleSSLIssuerError      = 83
	curleSSLPinnedPubKey     = 90
	curleSSLInvalidCertStat  = 91
	curleProxy               = 97
)

// classify maps a CURLcode to a Kind, and says whether the request may
// have reached the server: whether libcurl began to send it, whatever the
// code (a reply that is not HTTP fails with code 1, as an unsupported
// scheme does before anything is sent). sent is from libcurl's
// pre-request callback, which runs once the connection is ready and
// before any byte of the request is written (CURLOPT_PREREQFUNCTION), or
// a request size or pre-transfer time it reported.
func classify(code int, tooLarge, cancelled bool, sent bool) (Kind, bool) {
	switch {
	case tooLarge || code == curleFilesizeExceeded:
		return KindTooLarge, true
	case cancelled || code == curleAbortedByCallback:
		return KindCancelled, sent
	}
	switch code {
	case curleCouldntResolveHost, curleCouldntResolveProxy:
		return KindDNS, sent
	case curleCouldntConnect, curleProxy:
		return KindConnect, sent
	case curleSSLConnectError, curleSSLCertProblem, curleSSLCipher, curlePeerFailedVerify,
		curleSSLCACertBadFile, curleSSLCRLBadFile, curleSSLIssuerError,
		curleSSLPinnedPubKey, curleSSLInvalidCertStat, curleSSLShutdownFailed:
		return KindTLS, sent
	case curleOperationTimedout:
		return KindTimeout, sent
	}
	// Anything else (a reset, a reply that is not HTTP, a truncated body,
	// HTTP/2 stream errors, …) is a transport failure of its own kind.
	return KindOther, sent
}
