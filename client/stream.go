package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/smithycurl/smithycurl/client/awscustom"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/transport"
)

// streamingPayloads finds the operation's streaming blob payloads (input
// and output members with @streaming and @httpPayload targeting a blob:
// "" when none) and says why the operation cannot be called when another
// @streaming member (an event stream) is in its input or output.
func streamingPayloads(m *model.Model, op *model.Operation) (in, out, unsupported string) {
	for i, s := range []*model.Shape{op.Input, op.Output} {
		for _, mem := range s.Members {
			if _, ok := m.MemberTrait(mem, model.TraitStreaming); !ok {
				continue
			}
			target, ok := m.Shape(mem.Target)
			if !ok || target.Type != model.BlobType || !mem.Traits.Has(model.TraitHTTPPayload) {
				return "", "", fmt.Sprintf("operation %s: streaming member %s (an event stream) is not supported yet", op.Name, mem.Name())
			}
			if i == 0 {
				in = mem.Name()
			} else {
				out = mem.Name()
			}
		}
	}
	return in, out, ""
}

// callBody is one call's streamed bodies: the reader of the request's
// payload (rewound before a retry when it can be) and the writer of the
// response's, counted so that a call that wrote part of a body is never
// retried.
type callBody struct {
	r      io.Reader
	size   int64
	seeker io.Seeker // nil when r cannot be rewound
	pos    int64     // r's position when the call started
	read   bool      // a send has read r
	wrap   func(io.Reader) (io.Reader, int64)
	// placeholder: the input got an empty payload member for the reader
	// (a required one); the codec's Content-Length of it is not the size.
	placeholder bool
	w           *countingWriter
	payloadOut  *[]byte           // WithPayloadOutput
	outAlloc    protocol.Alloc    // WithOutputBuffer
	validate    *responseChecksum // nil when the response is not checked
	auth        *callAuth         // applied to each attempt; nil without it
	// custom is the operation's AWS customizations, input the document
	// sent (their Output hook compares the output with it).
	custom *awscustom.Hooks
	input  []byte
	// responder answers the call instead of the service (SetResponder).
	responder Responder
	// discovered: the call goes to a discovered endpoint (discovery.go).
	discovered *discoveredCall
}

// newCallBody checks the streams given to a call of op against its
// streaming payloads; into, when not nil, is the state filled and
// returned (a scratch's).
func newCallBody(op *model.Operation, plan *callPlan, co callOptions, into *callBody) (*callBody, error) {
	b := into
	if b == nil {
		b = new(callBody)
	}
	*b = callBody{payloadOut: co.payloadOut, outAlloc: co.outAlloc}
	switch {
	case co.payload != nil && plan.blobIn == "":
		return nil, usageError(op.Shape.ID, "WithPayload: operation %s has no blob input payload", op.Name)
	case co.payload != nil && co.bodyReader != nil:
		return nil, usageError(op.Shape.ID, "WithPayload and WithBodyReader both give the body of %s", op.Name)
	case co.payloadOut != nil && plan.blobOut == "":
		return nil, usageError(op.Shape.ID, "WithPayloadOutput: operation %s has no blob output payload", op.Name)
	case co.payloadOut != nil && co.bodyWriter != nil:
		b.payloadOut = nil // the writer takes the body
	}
	if co.bodyReader != nil {
		if plan.streamIn == "" {
			return nil, usageError(op.Shape.ID, "WithBodyReader: operation %s has no streaming blob input payload", op.Name)
		}
		if co.bodySize < -1 {
			return nil, usageError(op.Shape.ID, "WithBodyReader: size %d is neither a length nor -1 (unknown)", co.bodySize)
		}
		b.r, b.size = co.bodyReader, co.bodySize
		if s, ok := co.bodyReader.(io.Seeker); ok {
			if pos, err := s.Seek(0, io.SeekCurrent); err == nil {
				b.seeker, b.pos = s, pos
			}
		}
	}
	if co.bodyWriter != nil {
		if plan.streamOut == "" {
			return nil, usageError(op.Shape.ID, "WithBodyWriter: operation %s has no streaming blob output payload", op.Name)
		}
		b.w = &countingWriter{w: co.bodyWriter}
	}
	return b, nil
}

// hashBody returns a function that writes the body of req to ws: the
// encoded one, or the reader's, rewound after; false when the reader is
// no io.Seeker. It is the AWS customizations' awscustom.Request.HashBody.
func (b *callBody) hashBody(req *transport.Request) func(ws ...io.Writer) (bool, error) {
	return func(ws ...io.Writer) (bool, error) {
		w := io.MultiWriter(ws...)
		if b.r == nil {
			w.Write(req.Body)
			return true, nil
		}
		if b.seeker == nil {
			return false, nil
		}
		var n int64
		var err error
		if b.size >= 0 {
			n, err = io.CopyN(w, b.r, b.size)
		} else {
			n, err = io.Copy(w, b.r)
		}
		if err != nil {
			return false, fmt.Errorf("reading the body to hash it: %w", err)
		}
		if _, err := b.seeker.Seek(b.pos, io.SeekStart); err != nil {
			return false, fmt.Errorf("rewinding the body after hashing it: %w", err)
		}
		b.size = n
		b.set(req)
		return true, nil
	}
}

// attach puts the streams on req. The request must not also carry the
// payload from the input document.
func (b *callBody) attach(op *model.Operation, plan *callPlan, req *transport.Request) error {
	if b.w != nil {
		req.BodyWriter = b.w
	}
	if b.payloadOut != nil {
		req.BodyBuffer = (*b.payloadOut)[:0] // reused when it has the room
	}
	if b.r == nil {
		// The body is the encoded one: a member bound to Content-Length
		// (S3's ContentLength) cannot announce bytes that are not sent.
		// (Get on the canonical name, and the length written on the
		// stack: nothing allocated when the two agree, as they do unless
		// a member gave the header.)
		var n [20]byte
		if vs := req.Header["Content-Length"]; len(vs) > 0 && vs[0] != "" && vs[0] != string(strconv.AppendInt(n[:0], int64(len(req.Body)), 10)) {
			req.Header.Set("Content-Length", strconv.Itoa(len(req.Body)))
		}
		return nil
	}
	if len(req.Body) > 0 {
		return usageError(op.Shape.ID, "member %s is given both in the input and with WithBodyReader", plan.streamIn)
	}
	req.Body = nil
	if b.placeholder {
		delete(req.Header, "Content-Length")
	}
	// A Content-Length from the input (S3's ContentLength member) is the
	// size when none was given; libcurl writes the header itself.
	if cl := req.Header.Get("Content-Length"); cl != "" {
		n, err := strconv.ParseInt(cl, 10, 64)
		if err != nil || n < 0 {
			return usageError(op.Shape.ID, "Content-Length %q is not a length", cl)
		}
		if b.size >= 0 && n != b.size {
			return usageError(op.Shape.ID, "Content-Length %d from the input differs from the size %d given with WithBodyReader", n, b.size)
		}
		b.size = n
		delete(req.Header, "Content-Length")
	}
	b.set(req)
	return nil
}

// set gives req the body reader for the next send.
func (b *callBody) set(req *transport.Request) {
	req.BodyReader, req.BodySize = b.r, b.size
	if b.wrap != nil {
		req.BodyReader, req.BodySize = b.wrap(b.r)
	}
	req.BodyReader = &markReader{r: req.BodyReader, read: &b.read}
}

// rewind prepares the next send of req; the error says why the call
// cannot be retried.
func (b *callBody) rewind(req *transport.Request) error {
	if b.w != nil && b.w.calls > 0 {
		return fmt.Errorf("not retried: the response body's writer was already given %d bytes", b.w.n)
	}
	if b.r == nil || !b.read {
		if b.r != nil {
			b.set(req)
		}
		return nil
	}
	if b.seeker == nil {
		return errors.New("not retried: the body reader cannot be rewound (it is no io.Seeker)")
	}
	if _, err := b.seeker.Seek(b.pos, io.SeekStart); err != nil {
		return fmt.Errorf("not retried: rewinding the body reader: %w", err)
	}
	b.read = false
	b.set(req)
	return nil
}

// withEmptyMember returns the input object with member name first, as an
// empty string.
func withEmptyMember(input []byte, name string) []byte {
	out := append([]byte(`{"`), name...)
	out = append(out, `":""`...)
	t := bytes.TrimSpace(input)
	if len(t) == 0 || t[0] != '{' {
		if len(t) == 0 {
			return append(out, '}')
		}
		return input // not an object: the codec says so
	}
	rest := bytes.TrimSpace(t[1:])
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...)
}

// markReader records that a send read from r.
type markReader struct {
	r    io.Reader
	read *bool
}

func (m *markReader) Read(p []byte) (int, error) {
	*m.read = true
	return m.r.Read(p)
}

type countingWriter struct {
	w     io.Writer
	n     int64
	calls int // a failed Write may have taken part of p
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.calls++
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// noRetry adds why a failed call was not retried to its error.
func noRetry(e *Error, why error) *Error {
	e.err = fmt.Errorf("%w (%v)", e.err, why)
	e.notRetried = why
	return e
}

// StreamingPayloads names operation's streaming blob payload members (an
// input and an output member with @streaming bound to @httpPayload, S3
// PutObject's and GetObject's Body; "" when none): those WithBodyReader
// and WithBodyWriter carry.
func (c *Client) StreamingPayloads(operation string) (in, out string, err error) {
	op, err := c.svc.Operation(operation)
	if err != nil {
		return "", "", err
	}
	p := c.plan(op)
	return p.streamIn, p.streamOut, nil
}

// BlobPayloads names operation's blob payload members, streaming or not
// (Lambda Invoke's Payload too; "" when none): those WithPayload and
// WithPayloadOutput carry. The C API uses it to take an output payload as
// bytes beside the document; protocol.BlobPayloads gives the same names
// to what has no client (the operation JSON, the typed generators).
func (c *Client) BlobPayloads(operation string) (in, out string, err error) {
	op, err := c.svc.Operation(operation)
	if err != nil {
		return "", "", err
	}
	p := c.plan(op)
	return p.blobIn, p.blobOut, nil
}
