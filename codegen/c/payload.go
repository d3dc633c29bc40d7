package cgen

import (
	"fmt"
	"strings"
)

// Blob payloads as bytes: an operation with a blob payload, streaming or
// not (S3 PutObject's and GetObject's Body, Lambda Invoke's Payload; the
// runtime's rule, protocol.BlobPayloads), is called with smithycurl_call_payload
// (and _async): the input member's smithycurl_blob goes as its pointer and
// length beside the JSON, which leaves it out, and the output's is handed
// over to the output struct (smithycurl_result_take_payload), never
// through base64 text.

// payloadCall reports whether op's call passes its blob payloads as bytes.
func (p *plan) payloadCall(op *opPlan) bool { return op.x.blobIn != "" || op.x.blobOut != "" }

// memberField is the C field of t's member name.
func memberField(t *typ, name string) string {
	for _, f := range t.fields {
		if f.mem != nil && f.mem.Name() == name {
			return f.name
		}
	}
	panic(fmt.Sprintf("cgen: %s has no member %s", t.name, name))
}

// writePayloadInput writes the statements that encode op's input into w
// (declared by the caller) and, for a payload call, declare payload: the
// input member's bytes (flags: SMITHYCURL_PAYLOAD_* for the asynchronous
// call, "0" otherwise), left out of the JSON.
func writePayloadInput(b *strings.Builder, op *opPlan, flags string) {
	b.WriteString("    smithycurl_json_writer_init(&w);\n")
	if op.x.blobIn != "" || op.x.blobOut != "" {
		b.WriteString("    smithycurl_payload payload = SMITHYCURL_PAYLOAD_INIT;\n")
		if flags != "0" {
			fmt.Fprintf(b, "    payload.flags = %s;\n", flags)
		}
	}
	switch {
	case op.in == nil:
		b.WriteString("    smithycurl_json_begin_object(&w);\n    smithycurl_json_end_object(&w);\n")
	case op.x.blobIn != "":
		f := memberField(op.in, op.x.blobIn)
		fmt.Fprintf(b, "    %s in_ = *input; /* the payload goes beside the JSON */\n", op.in.name)
		fmt.Fprintf(b, "    payload.data = input->%s.data;\n    payload.len = input->%s.len;\n    in_.%s.data = NULL;\n", f, f, f)
		fmt.Fprintf(b, "    %s__w(&w, &in_);\n", op.in.name)
	default:
		fmt.Fprintf(b, "    %s__w(&w, input);\n", op.in.name)
	}
}

// takePayload writes the statements that hand the output payload of the
// result res over to the output struct dst (a pointer) once rc is 0.
func takePayload(b *strings.Builder, op *opPlan, dst, indent string) {
	if op.x.blobOut == "" || op.out == nil {
		return
	}
	f := memberField(op.out, op.x.blobOut)
	fmt.Fprintf(b, "%sif (!rc) {\n%s    void *data_ = NULL;\n%s    size_t n_ = 0;\n", indent, indent, indent)
	fmt.Fprintf(b, "%s    if (!(rc = smithycurl_result_take_payload(res, &data_, &n_)) && data_) {\n", indent)
	fmt.Fprintf(b, "%s        free(%s->%s.data);\n%s        %s->%s.data = data_;\n%s        %s->%s.len = n_;\n%s    }\n%s}\n",
		indent, dst, f, indent, dst, f, indent, dst, f, indent, indent)
}
