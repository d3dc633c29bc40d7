// Code generated from internal/contract by `make contract`; do not edit.

package client

// Kind classifies an error of Call. The set is closed and stable: the C API
// (smithycurl_error_kind) and the Python package expose the same kinds.
type Kind int

// The kinds of error; an error of Call has one of them.
const (
	// KindUsage: the call itself is wrong: unknown operation, malformed JSON,
	// a value of the wrong type, an unknown member, missing credentials.
	// Nothing was sent.
	KindUsage Kind = 1
	// KindValidation: a @required member is missing or, with validation on,
	// the input breaks the model's constraints (length, range, pattern, enum).
	// Nothing was sent.
	KindValidation Kind = 2
	// KindService: the service answered with an error response (modeled or
	// not).
	KindService Kind = 3
	// KindTransport: no complete response: DNS, connect, TLS, reset, response
	// too large.
	KindTransport Kind = 4
	// KindTimeout: a connect or total timeout expired, or the caller's
	// deadline.
	KindTimeout Kind = 5
	// KindCancelled: the call was cancelled (its cancel token or context), or
	// its client closed.
	KindCancelled Kind = 6
	// KindDecode: the response could not be decoded.
	KindDecode Kind = 7
	// KindWaiterFailure: a waiter reached its failure state: one of its
	// failure acceptors matched; the message says which.
	KindWaiterFailure Kind = 8
	// KindWaiterTimeout: a waiter was still retrying when the maximum time to
	// wait ran out.
	KindWaiterTimeout Kind = 9
)

// String is the kind's name, as smithycurl_error_kind_name gives it.
func (k Kind) String() string {
	switch k {
	case KindUsage:
		return "usage"
	case KindValidation:
		return "validation"
	case KindService:
		return "service"
	case KindTransport:
		return "transport"
	case KindTimeout:
		return "timeout"
	case KindCancelled:
		return "cancelled"
	case KindDecode:
		return "decode"
	case KindWaiterFailure:
		return "waiter_failure"
	case KindWaiterTimeout:
		return "waiter_timeout"
	}
	return "unknown"
}
