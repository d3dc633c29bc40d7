package client

import (
	"strings"

	"github.com/smithycurl/smithycurl/wire"
)

// The AWS SDKs' recursion detection: a call made inside an AWS Lambda
// function carries the invocation's X-Ray trace id (_X_AMZN_TRACE_ID) in
// X-Amzn-Trace-Id, so that a function triggered by its own calls can be
// told apart. As botocore's add_recursion_detection_header: only where
// AWS_LAMBDA_FUNCTION_NAME is set, never over a header the caller set, the
// id percent-encoded except for its own punctuation. The id changes with
// each invocation, so it is read at each call.
const (
	traceIDHeader = "X-Amzn-Trace-Id"
	traceIDEnv    = "_X_AMZN_TRACE_ID"
	lambdaEnv     = "AWS_LAMBDA_FUNCTION_NAME"
)

// setTraceID sets X-Amzn-Trace-Id from the environment where the client
// was created in a Lambda function (c.lambda).
func (c *Client) setTraceID(h wire.Header) {
	if c.lambda == nil || h.Get(traceIDHeader) != "" {
		return
	}
	if id, _ := c.lambda.Var(traceIDEnv); id != "" {
		h.Set(traceIDHeader, quoteTraceID(id))
	}
}

// quoteTraceID is Python's urllib.parse.quote(id, safe='-=;:+&[]{}"\',').
func quoteTraceID(id string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		ch := id[i]
		if wire.Unreserved(ch) || strings.IndexByte("=;:+&[]{}\"',", ch) >= 0 {
			b.WriteByte(ch)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[ch>>4])
		b.WriteByte(hex[ch&15])
	}
	return b.String()
}
