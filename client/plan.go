package client

// What a client learns once per operation: its call plan.

import (
	"fmt"

	"github.com/smithycurl/smithycurl/client/awscustom"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// callPlan is what the client precomputes per operation.
type callPlan struct {
	auth       authPlan
	idempotent bool
	// sensitiveURL is the URI template shown instead of a URL that carries
	// @sensitive values ("" when it carries none).
	sensitiveURL string
	// secretHeaders are the headers bound to @sensitive members.
	secretHeaders []string
	// unsupported is why the operation cannot be called ("" when it can).
	unsupported string
	// streamIn and streamOut are the streaming blob payload members of the
	// input and output ("" when none).
	streamIn, streamOut string
	streamInRequired    bool // streamIn is @required
	checksum            checksumPlan
	// eventStream is set when op's output is an event stream the codec
	// reads and nothing else streams but an input event stream
	// (inEvents, "" when none): CallStream can call it.
	eventStream bool
	inEvents    string
	// rawBody: the output's payload is a blob (@httpPayload, streaming or
	// not, in a REST protocol): its bytes are passed on as sent, in their
	// Content-Encoding (transport.Request.RawBody).
	rawBody bool
	// blobIn and blobOut are the blob payload members (streaming or not,
	// in a REST protocol) of the input and output, "" when none: what
	// WithPayload and WithPayloadOutput give and take as bytes.
	blobIn, blobOut string
	// custom is what the AWS SDKs add for this operation (nil: nothing).
	custom *awscustom.Hooks
}

func (c *Client) plan(op *model.Operation) *callPlan {
	if p, ok := c.plans.Load(op); ok {
		return p.(*callPlan)
	}
	p := &callPlan{auth: planAuth(c.svc.Shape, op.Shape, customSchemes(c.svc.Shape, c.opts.schemes)), idempotent: idempotent(c.model, op.Shape, op.Input),
		sensitiveURL: sensitiveURL(c.model, op), secretHeaders: sensitiveHeaders(c.model, op),
		checksum: planChecksum(c.model, op), custom: awscustom.For(c.model, c.svc, op)}
	if p.custom.Unsigned() {
		p.auth = authPlan{optional: true}
	}
	p.streamIn, p.streamOut, p.unsupported = streamingPayloads(c.model, op)
	p.blobIn = protocol.BlobPayload(c.model, c.codec.Protocol(), op, false)
	p.blobOut = protocol.BlobPayload(c.model, c.codec.Protocol(), op, true)
	p.rawBody = p.blobOut != ""
	if es, ok := c.codec.(protocol.EventStreams); ok && p.unsupported != "" {
		in, _ := es.InputEventStream(op)
		if member, ok := es.OutputEventStream(op); ok && onlyStreamingMember(c.model, op, member, in) {
			p.eventStream, p.inEvents = true, in
			p.unsupported = fmt.Sprintf("operation %s: its output is an event stream (member %s): open it as a stream (CallStream in Go, smithycurl_event_stream_open in C, .stream() in Python)", op.Name, member)
		}
	}
	for _, mem := range op.Input.Members {
		if mem.Name() == p.streamIn {
			_, p.streamInRequired = c.model.MemberTrait(mem, model.TraitRequired)
		}
	}
	c.plans.Store(op, p)
	return p
}

// onlyStreamingMember reports whether output member is the only @streaming
// member of op's output, and input member (when not "") the only one of
// its input.
func onlyStreamingMember(m *model.Model, op *model.Operation, member, input string) bool {
	for _, s := range []*model.Shape{op.Input, op.Output} {
		for _, mem := range s.Members {
			_, ok := m.MemberTrait(mem, model.TraitStreaming)
			if ok && !(s == op.Output && mem.Name() == member) && !(s == op.Input && input != "" && mem.Name() == input) {
				return false
			}
		}
	}
	return true
}

// sensitiveURL returns the operation's @http URI template when a @sensitive
// member is bound to the path or the query, else "".
func sensitiveURL(m *model.Model, op *model.Operation) string {
	h, ok := op.Shape.Trait(model.TraitHTTP)
	if !ok {
		return ""
	}
	for _, mem := range op.Input.Members {
		inURL := mem.Traits.Has(model.TraitHTTPLabel) || mem.Traits.Has(model.TraitHTTPQuery) ||
			mem.Traits.Has(model.TraitHTTPQueryParams)
		if _, sensitive := m.MemberTrait(mem, model.TraitSensitive); inURL && sensitive {
			uri, _ := h.Get("uri")
			return uri.Str()
		}
	}
	return ""
}

// sensitiveHeaders returns the headers bound to @sensitive input members.
func sensitiveHeaders(m *model.Model, op *model.Operation) []string {
	var names []string
	for _, mem := range op.Input.Members {
		h, ok := mem.Traits.Get(model.TraitHTTPHeader)
		if _, sensitive := m.MemberTrait(mem, model.TraitSensitive); ok && sensitive {
			names = append(names, h.Str())
		}
	}
	return names
}
