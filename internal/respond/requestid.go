package respond

import "strings"

// RequestIDHeader is the header a service sends its request id in, in
// every protocol (S3's x-amz-request-id is the one exception, which
// clients read as well). The server sets it on each response it sends.
const RequestIDHeader = "X-Amzn-Requestid"

// IDInBody reports whether r's protocol also writes the request id in a
// response's body: ec2Query (<requestId>, an error's <RequestID>) and
// awsQuery (<ResponseMetadata><RequestId>, an error's <RequestId>).
func IDInBody(r Renderer) bool {
	switch r.(type) {
	case Query, EC2:
		return true
	}
	return false
}

// WithRequestID returns r writing request id id in the bodies of the
// protocols that carry one (IDInBody); the others' r is returned as it is.
func WithRequestID(r Renderer, id string) Renderer {
	switch p := r.(type) {
	case Query:
		p.RequestID = id
		return p
	case EC2:
		p.RequestID = id
		return p
	}
	return r
}

// idElement writes id between open and end, nothing when id is "".
func idElement(b *strings.Builder, open, id, end string) error {
	if id == "" {
		return nil
	}
	b.WriteString(open)
	if err := xmlText(b, id); err != nil {
		return err
	}
	b.WriteString(end)
	return nil
}
