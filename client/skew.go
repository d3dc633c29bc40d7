package client

import (
	"sync/atomic"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

// clockSkew is what a client learned of the difference between the
// services' clocks and its own, as aws-sdk-go-v2 and the JavaScript SDK
// keep it: a signature (SigV4 dates its requests, and a service refuses
// one dated more than 5 minutes from its clock) is made as of the local
// time plus the offset. The zero value is no offset; it is safe for
// concurrent use.
type clockSkew struct {
	offset atomic.Int64 // nanoseconds: server time - local time
}

// now is the local time corrected by the offset learned.
func (s *clockSkew) now() time.Time {
	if d := s.offset.Load(); d != 0 {
		return time.Now().Add(time.Duration(d))
	}
	return time.Now()
}

// ClockOffset is the difference between the service's clock and the local one
// that the client learned from a clock skew error (0 until one): the time
// its signatures carry is the local time plus ClockOffset.
func (c *Client) ClockOffset() time.Duration { return time.Duration(c.skew.offset.Load()) }

// skewThreshold is how far a response's Date must be from the corrected
// local time for a skew error to be taken as one (aws-sdk-go-v2's
// skewThreshold; services refuse a signature 5 minutes off).
const skewThreshold = 4 * time.Minute

// skewCodes are the error codes a wrong clock causes, as aws-sdk-go-v2's
// definite and possible skew codes and the JavaScript SDK's
// CLOCK_SKEW_ERROR_CODES list them. A signature error has other causes
// too: here every one of them counts only with a far Date.
var skewCodes = map[string]bool{
	"RequestTimeTooSkewed": true, "RequestExpired": true, "RequestInTheFuture": true,
	"InvalidSignatureException": true, "SignatureDoesNotMatch": true, "AuthFailure": true,
}

// learn looks at a failed attempt's error and response header (received
// at local time at): on a skew error whose Date is further than
// skewThreshold from the corrected local time, it keeps the new offset
// and reports true: the request, signed again with it, may pass.
func (s *clockSkew) learn(e *Error, h wire.Header, at time.Time) bool {
	if e.Kind != KindService || !skewCodes[errorName(e)] {
		return false
	}
	date := h.Get("Date")
	if date == "" {
		return false
	}
	server, err := parseHTTPTime(date)
	if err != nil {
		return false
	}
	offset := server.Sub(at)
	if d := offset - time.Duration(s.offset.Load()); d > -skewThreshold && d < skewThreshold {
		return false // the clocks agree as corrected: the error has another cause
	}
	s.offset.Store(int64(offset))
	return true
}
