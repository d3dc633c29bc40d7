package cgen

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// The typed functions an operation gets besides its call, on the runtime's
// paginators, waiters, streamed bodies and event streams:
//
//	@paginated           T_paginator (opaque): _new(input, ...), _next(&page), _free
//	smithy.waiters       PREFIX_wait_NAME(input, max_wait_ms, cancel, &out)
//	@streaming blob      OP_stream(input, read..., write..., cancel, &out)
//	@streaming union     T_events (opaque): _open(input, cancel, &initial), _next(&event), _free
//
// Their names are claimed after every type's, so a model's types keep the
// names they had before these existed.

// extras are an operation's typed functions besides its call.
type extras struct {
	paginator string // the cursor type; "" when not @paginated
	waiters   []waiterPlan
	stream    string // the call with streamed bodies; "" when none
	inStream  string // the input's streaming blob payload member ("" none)
	outStream string // the output's
	blobIn    string // the input's blob payload, streaming or not ("" none)
	blobOut   string // the output's
	events    string // the event stream cursor type; "" when none
	eventT    *typ   // the stream's union
}

type waiterPlan struct {
	name string // the waiter's name in the model
	fn   string
}

// streamMembers finds op's streaming blob payloads and its output event
// stream (the union's shape), as the runtime does.
func (p *plan) streamMembers(op *model.Operation) (in, out string, events *model.Shape) {
	for i, s := range []*model.Shape{op.Input, op.Output} {
		for _, mem := range s.Members {
			if _, ok := p.m.MemberTrait(mem, model.TraitStreaming); !ok {
				continue
			}
			target, ok := p.m.Shape(mem.Target)
			if !ok {
				continue
			}
			switch {
			case target.Type == model.BlobType && mem.Traits.Has(model.TraitHTTPPayload) && i == 0:
				in = mem.Name()
			case target.Type == model.BlobType && mem.Traits.Has(model.TraitHTTPPayload):
				out = mem.Name()
			case target.Type == model.UnionType && i == 1:
				events = target
			}
		}
	}
	return in, out, events
}

// eventErrors are the error structures an operation's event streams may
// send as exception events: they join the modeled errors (PREFIX_error_as_).
func (p *plan) eventErrors(op *model.Operation) []model.ShapeID {
	var ids []model.ShapeID
	for _, s := range []*model.Shape{op.Input, op.Output} {
		for _, mem := range s.Members {
			if _, ok := p.m.MemberTrait(mem, model.TraitStreaming); !ok {
				continue
			}
			u, ok := p.m.Shape(mem.Target)
			if !ok || u.Type != model.UnionType {
				continue
			}
			for _, um := range u.Members {
				if t, ok := p.m.Target(um); ok && t.HasTrait(model.TraitError) {
					ids = append(ids, t.ID)
				}
			}
		}
	}
	return ids
}

// planExtras names the extra functions of every operation.
func (p *plan) planExtras() {
	for _, op := range p.ops {
		base := op.fn
		// A malformed @paginated trait gets no paginator (the runtime's
		// paginator would refuse it): the client is still written.
		if _, ok, err := p.m.Pagination(p.svc, op.op); ok && err == nil && op.out != nil {
			op.x.paginator = p.global.claim(base+"_paginator", "_new", "_next", "_free")
		}
		if t, ok := op.op.Shape.Trait(model.TraitWaitable); ok {
			for _, name := range t.Keys() {
				op.x.waiters = append(op.x.waiters, waiterPlan{name: name, fn: p.global.claim(p.prefix + "_wait_" + Snake(name))})
			}
		}
		in, out, events := p.streamMembers(op.op)
		op.x.inStream, op.x.outStream = in, out
		op.x.blobIn, op.x.blobOut = protocol.BlobPayloads(p.m, p.svc, op.op)
		if in != "" || out != "" {
			op.x.stream = p.global.claim(base + "_stream")
		}
		if events != nil && op.out != nil {
			op.x.eventT = p.byID[events.ID]
			op.x.events = p.global.claim(base+"_events", "_open", "_next", "_free")
		}
	}
}

func (p *plan) headerExtras(b *strings.Builder, op *opPlan) {
	x := &op.x
	opName := op.op.Name
	inParam := ""
	if op.in != nil {
		inParam = fmt.Sprintf("const %s *input, ", op.in.name)
	}
	if x.paginator != "" {
		t := x.paginator
		comment(b, "", fmt.Sprintf("A cursor over the pages of %s (@paginated): each request carries the continuation token of the page before; the pages end at an absent or empty token or after max_items items. Opaque; one thread at a time.", opName))
		fmt.Fprintf(b, "typedef struct %s %s;\n\n", t, t)
		comment(b, "", fmt.Sprintf("Creates a paginator of %s; nothing is sent before the first %s_next(). The input is copied. max_items: 0 for no limit; page_size: 0 to leave the input's page size; flags: 0 or SMITHYCURL_PAGINATE_STOP_ON_REPEATED_TOKEN (SMITHYCURL_PAGINATE_ITEMS is refused: pages are typed). client and cancel (or NULL) must outlive the paginator. Returns SMITHYCURL_OK; SMITHYCURL_E_INVALID_ARGUMENT (input or out NULL, a bad flag or number), SMITHYCURL_E_INVALID_HANDLE, SMITHYCURL_E_NOMEM. Free it with %s_free().", opName, t, t))
		fmt.Fprintf(b, "int %s_new(smithycurl_client *client, %slong long max_items, long long page_size,\n    unsigned flags, smithycurl_cancel_token *cancel, %s **out);\n", t, inParam, t)
		comment(b, "", fmt.Sprintf("Sends the next request: *page receives the page as a new %s (free it with %s_free()). Returns SMITHYCURL_OK; SMITHYCURL_E_END when there are no more pages (*page NULL; again on every later call); a call failure as %s() returns it, with *err as there (the pages end there).", op.out.name, op.out.name, op.fn))
		fmt.Fprintf(b, "int %s_next(%s *paginator, %s **page, smithycurl_result **err);\n", t, t, op.out.name)
		fmt.Fprintf(b, "/** Frees the paginator; pages it gave stay valid. NULL is ignored. */\nvoid %s_free(%s *paginator);\n\n", t, t)
	}
	for _, w := range x.waiters {
		outParam, outText := "", ""
		if op.out != nil {
			outParam = fmt.Sprintf(", %s **out", op.out.name)
			outText = fmt.Sprintf(" On success *out (when out is not NULL) receives the output of the call that succeeded as a new %s (free it with %s_free(); empty when the success was an error).", op.out.name, op.out.name)
		}
		comment(b, "", fmt.Sprintf("Waits with the waiter %s (smithy.waiters#waitable): calls %s with input until an acceptor reaches the success state, sleeping between attempts as the Smithy specification says (smithycurl_options_set_waiter_delays() overrides the delays), at most max_wait_ms (> 0) in all; cancel (or NULL) stops it at any time.%s Returns SMITHYCURL_OK; SMITHYCURL_E_WAITER_FAILURE (a failure acceptor matched: *err's message says which); SMITHYCURL_E_WAITER_TIMEOUT (max_wait_ms ran out); an error no acceptor expected, as %s() returns it; *err as there. Thread-safety: as smithycurl_wait().", w.name, opName, outText, op.fn))
		fmt.Fprintf(b, "int %s(smithycurl_client *client, %slong long max_wait_ms,\n    smithycurl_cancel_token *cancel%s, smithycurl_result **err);\n\n", w.fn, inParam, outParam)
	}
	if x.stream != "" {
		var text string
		if x.inStream != "" {
			text += fmt.Sprintf("The request body (the input's %s, which must be absent: data NULL) is read from read (with read_data), body_size bytes, or -1 when unknown (chunked); read NULL sends the input's %s instead. ", x.inStream, x.inStream)
		}
		if x.outStream != "" {
			text += fmt.Sprintf("The body of a successful response (the output's %s, then absent) goes to write (with write_data) as it arrives; write NULL keeps it in the output. ", x.outStream)
		}
		comment(b, "", fmt.Sprintf("Calls %s with its streaming blob payload streamed, never held in memory (smithycurl_call_stream()). %sA streamed body is never sent or received twice: the call is not retried once a callback was called. Otherwise as %s(); cancel may be NULL.", opName, text, op.fn))
		fmt.Fprintf(b, "%s;\n\n", p.streamSignature(op))
	}
	if x.events != "" {
		t := x.events
		comment(b, "", fmt.Sprintf("The event stream of %s: its events (%s values) as they arrive. Opaque; one thread at a time.", opName, x.eventT.name))
		fmt.Fprintf(b, "typedef struct %s %s;\n\n", t, t)
		comment(b, "", fmt.Sprintf("Calls %s and waits for its initial response: *initial (when initial is not NULL) receives the output without its event stream; *stream the stream, to read with %s_next() and free with %s_free(). Not retried. cancel (or NULL) ends the stream too. Returns as %s(); *stream is NULL unless SMITHYCURL_OK.", opName, t, t, op.fn))
		fmt.Fprintf(b, "int %s_open(smithycurl_client *client, %ssmithycurl_cancel_token *cancel,\n    %s **initial, %s **stream, smithycurl_result **err);\n", t, inParam, op.out.name, t)
		comment(b, "", fmt.Sprintf("Waits for the next event: *event receives it as a new %s (free it with %s_free()). Returns SMITHYCURL_OK; SMITHYCURL_E_END when the stream ended (*event NULL; again on every later call); SMITHYCURL_E_SERVICE for an exception event (%s() of *err names a modeled one) or an error message; SMITHYCURL_E_DECODE, _TRANSPORT, _TIMEOUT, _CANCELLED; *err as for %s(). After a failure the stream is over.", x.eventT.name, x.eventT.name, p.which, op.fn))
		fmt.Fprintf(b, "int %s_next(%s *stream, %s **event, smithycurl_result **err);\n", t, t, x.eventT.name)
		fmt.Fprintf(b, "/** Ends the transfer if events are left and frees the stream; events it gave stay valid.\n * NULL is ignored. */\nvoid %s_free(%s *stream);\n\n", t, t)
	}
}

func (p *plan) streamSignature(op *opPlan) string {
	args := []string{"smithycurl_client *client"}
	if op.in != nil {
		args = append(args, fmt.Sprintf("const %s *input", op.in.name))
	}
	if op.x.inStream != "" {
		args = append(args, "smithycurl_read_fn read", "void *read_data", "long long body_size")
	}
	if op.x.outStream != "" {
		args = append(args, "smithycurl_write_fn write", "void *write_data")
	}
	args = append(args, "smithycurl_cancel_token *cancel")
	if op.out != nil {
		args = append(args, fmt.Sprintf("%s **out", op.out.name))
	}
	args = append(args, "smithycurl_result **err")
	return fmt.Sprintf("int %s(%s)", op.x.stream, strings.Join(args, ",\n    "))
}

// writeInput writes the statements that put the input in the writer w,
// setting rc; with res, an input the writer refused is a result in res
// naming the member.
func writeInput(b *strings.Builder, op *opPlan, res bool) {
	b.WriteString("    smithycurl_json_writer_init(&w);\n")
	if op.in != nil {
		fmt.Fprintf(b, "    %s__w(&w, input);\n", op.in.name)
	} else {
		b.WriteString("    smithycurl_json_begin_object(&w);\n    smithycurl_json_end_object(&w);\n")
	}
	b.WriteString("    rc = smithycurl_json_writer_status(&w);\n")
	if res {
		fmt.Fprintf(b, "    if (rc) { smithycurl_result_new_input_error(rc, %s, smithycurl_json_writer_message(&w), &res); }\n", cString(string(op.op.Shape.ID)))
	}
}

// readResult writes the statements that read the output of the result res
// into a new t at *dst (dst may be NULL: nothing read), setting rc, and
// free res.
func readResult(b *strings.Builder, t *typ, dst string) { readResultTaking(b, t, dst, nil) }

// readResultTaking is readResult with more statements (take, when not nil)
// run on the output o_ after it was read.
func readResultTaking(b *strings.Builder, t *typ, dst string, take func(*strings.Builder)) {
	fmt.Fprintf(b, "    if (%s) {\n        %s *o_ = %s_new();\n        const char *json;\n        size_t len;\n        smithycurl_json_reader r;\n", dst, t.name, t.name)
	b.WriteString("        if (!o_) {\n            rc = SMITHYCURL_E_NOMEM;\n        } else if (!(rc = smithycurl_result_output(res, &json, &len))) {\n")
	fmt.Fprintf(b, "            smithycurl_json_reader_init(&r, json, len);\n            if (!(rc = %s__r(&r, o_))) { rc = smithycurl_json_reader_end(&r); }\n        }\n", t.name)
	if take != nil {
		take(b)
	}
	fmt.Fprintf(b, "        if (rc) {\n            %s_free(o_);\n        } else {\n            *%s = o_;\n        }\n    }\n    smithycurl_result_free(res);\n", t.name, dst)
}

// readResultPayload is readResult of op's output, its blob payload taken
// from the result (a payload call) before the result is freed.
func readResultPayload(b *strings.Builder, op *opPlan, dst string) {
	if op.x.blobOut == "" {
		readResult(b, op.out, dst)
		return
	}
	readResultTaking(b, op.out, dst, func(b *strings.Builder) { takePayload(b, op, "o_", "        ") })
}

// failed hands a failed call's result to *err, or frees it.
func (p *plan) failed(b *strings.Builder) {
	fmt.Fprintf(b, "    if (rc) { return %s__fail(rc, res, err); }\n", p.prefix)
}

func (p *plan) sourceExtras(b *strings.Builder, op *opPlan) {
	x := &op.x
	id := cString(string(op.op.Shape.ID))
	inParam, inNull := "", ""
	if op.in != nil {
		inParam, inNull = fmt.Sprintf("const %s *input, ", op.in.name), "!input || "
	}
	if x.paginator != "" {
		t, o := x.paginator, op.out.name
		fmt.Fprintf(b, "struct %s {\n    smithycurl_paginator *p;\n};\n\n", t)
		fmt.Fprintf(b, "int %s_new(smithycurl_client *client, %slong long max_items, long long page_size,\n    unsigned flags, smithycurl_cancel_token *cancel, %s **out) {\n", t, inParam, t)
		fmt.Fprintf(b, "    smithycurl_json_writer w;\n    %s *v;\n    int rc;\n", t)
		fmt.Fprintf(b, "    if (out) { *out = NULL; }\n    if (%s!out || (flags & SMITHYCURL_PAGINATE_ITEMS)) { return SMITHYCURL_E_INVALID_ARGUMENT; }\n", inNull)
		b.WriteString("    if (!(v = calloc(1, sizeof *v))) { return SMITHYCURL_E_NOMEM; }\n")
		writeInput(b, op, false)
		fmt.Fprintf(b, "    if (!rc) { rc = smithycurl_paginator_new(client, %s, w.buf, w.len, max_items, page_size, flags, cancel, &v->p); }\n", id)
		b.WriteString("    smithycurl_json_writer_reset(&w);\n    if (rc) {\n        free(v);\n        return rc;\n    }\n    *out = v;\n    return SMITHYCURL_OK;\n}\n\n")
		fmt.Fprintf(b, "int %s_next(%s *paginator, %s **page, smithycurl_result **err) {\n", t, t, o)
		fmt.Fprintf(b, "    const char *json;\n    size_t len;\n    smithycurl_result *e = NULL;\n    smithycurl_json_reader r;\n    %s *v;\n    int rc;\n", o)
		b.WriteString("    if (err) { *err = NULL; }\n    if (page) { *page = NULL; }\n    if (!paginator || !page) { return SMITHYCURL_E_INVALID_ARGUMENT; }\n")
		fmt.Fprintf(b, "    if ((rc = smithycurl_paginator_next(paginator->p, &json, &len, &e))) { return %s__fail(rc, e, err); }\n", p.prefix)
		fmt.Fprintf(b, "    if (!(v = %s_new())) { return SMITHYCURL_E_NOMEM; }\n    smithycurl_json_reader_init(&r, json, len);\n", o)
		fmt.Fprintf(b, "    if (!(rc = %s__r(&r, v))) { rc = smithycurl_json_reader_end(&r); }\n", o)
		fmt.Fprintf(b, "    if (rc) {\n        %s_free(v);\n        return rc;\n    }\n    *page = v;\n    return SMITHYCURL_OK;\n}\n\n", o)
		fmt.Fprintf(b, "void %s_free(%s *paginator) {\n    if (!paginator) { return; }\n    smithycurl_paginator_free(paginator->p);\n    free(paginator);\n}\n\n", t, t)
	}
	for _, w := range x.waiters {
		outParam, dst := "", "0"
		if op.out != nil {
			outParam, dst = fmt.Sprintf(", %s **out", op.out.name), "out"
		}
		fmt.Fprintf(b, "int %s(smithycurl_client *client, %slong long max_wait_ms,\n    smithycurl_cancel_token *cancel%s, smithycurl_result **err) {\n", w.fn, inParam, outParam)
		b.WriteString("    smithycurl_json_writer w;\n    smithycurl_result *res = NULL;\n    int rc;\n    if (err) { *err = NULL; }\n")
		if op.out != nil {
			b.WriteString("    if (out) { *out = NULL; }\n")
		}
		if op.in != nil {
			b.WriteString("    if (!input) { return SMITHYCURL_E_INVALID_ARGUMENT; }\n")
		}
		writeInput(b, op, true)
		fmt.Fprintf(b, "    if (!rc) { rc = smithycurl_wait(client, %s, w.buf, w.len, max_wait_ms, cancel, &res); }\n    smithycurl_json_writer_reset(&w);\n", cString(w.name))
		p.failed(b)
		if op.out != nil {
			readResult(b, op.out, dst)
			b.WriteString("    return rc;\n")
		} else {
			b.WriteString("    smithycurl_result_free(res);\n    return SMITHYCURL_OK;\n")
		}
		b.WriteString("}\n\n")
	}
	if x.stream != "" {
		fmt.Fprintf(b, "%s {\n    smithycurl_json_writer w;\n    smithycurl_result *res = NULL;\n    int rc;\n    if (err) { *err = NULL; }\n", p.streamSignature(op))
		var nulls []string
		if op.in != nil {
			nulls = append(nulls, "!input")
		}
		if op.out != nil {
			nulls = append(nulls, "!out")
			b.WriteString("    if (out) { *out = NULL; }\n")
		}
		if len(nulls) > 0 {
			fmt.Fprintf(b, "    if (%s) { return SMITHYCURL_E_INVALID_ARGUMENT; }\n", strings.Join(nulls, " || "))
		}
		writeInput(b, op, true)
		rd, wr := "NULL, NULL, 0", "NULL, NULL"
		if x.inStream != "" {
			rd = "read, read_data, body_size"
		}
		if x.outStream != "" {
			wr = "write, write_data"
		}
		fmt.Fprintf(b, "    if (!rc) { rc = smithycurl_call_stream(client, %s, w.buf, w.len, %s, %s, cancel, &res); }\n    smithycurl_json_writer_reset(&w);\n", id, rd, wr)
		p.failed(b)
		if op.out != nil {
			readResult(b, op.out, "out")
			b.WriteString("    return rc;\n")
		} else {
			b.WriteString("    smithycurl_result_free(res);\n    return SMITHYCURL_OK;\n")
		}
		b.WriteString("}\n\n")
	}
	if x.events != "" {
		t, u := x.events, x.eventT.name
		fmt.Fprintf(b, "struct %s {\n    smithycurl_event_stream *s;\n};\n\n", t)
		fmt.Fprintf(b, "int %s_open(smithycurl_client *client, %ssmithycurl_cancel_token *cancel,\n    %s **initial, %s **stream, smithycurl_result **err) {\n", t, inParam, op.out.name, t)
		fmt.Fprintf(b, "    smithycurl_json_writer w;\n    smithycurl_result *res = NULL;\n    %s *v;\n    int rc;\n", t)
		b.WriteString("    if (err) { *err = NULL; }\n    if (initial) { *initial = NULL; }\n    if (stream) { *stream = NULL; }\n")
		fmt.Fprintf(b, "    if (%s!stream) { return SMITHYCURL_E_INVALID_ARGUMENT; }\n", inNull)
		b.WriteString("    if (!(v = calloc(1, sizeof *v))) { return SMITHYCURL_E_NOMEM; }\n")
		writeInput(b, op, true)
		fmt.Fprintf(b, "    if (!rc) { rc = smithycurl_event_stream_open(client, %s, w.buf, w.len, cancel, &res, &v->s); }\n    smithycurl_json_writer_reset(&w);\n", id)
		b.WriteString("    if (rc) {\n        free(v);\n")
		fmt.Fprintf(b, "        return %s__fail(rc, res, err);\n    }\n", p.prefix)
		readResult(b, op.out, "initial")
		fmt.Fprintf(b, "    if (rc) {\n        %s_free(v);\n        return rc;\n    }\n    *stream = v;\n    return SMITHYCURL_OK;\n}\n\n", t)
		fmt.Fprintf(b, "int %s_next(%s *stream, %s **event, smithycurl_result **err) {\n", t, t, u)
		b.WriteString("    smithycurl_result *res = NULL;\n    int rc;\n    if (err) { *err = NULL; }\n    if (event) { *event = NULL; }\n    if (!stream || !event) { return SMITHYCURL_E_INVALID_ARGUMENT; }\n")
		b.WriteString("    rc = smithycurl_event_stream_next(stream->s, &res);\n")
		p.failed(b)
		readResult(b, x.eventT, "event")
		b.WriteString("    return rc;\n}\n\n")
		fmt.Fprintf(b, "void %s_free(%s *stream) {\n    if (!stream) { return; }\n    smithycurl_event_stream_free(stream->s);\n    free(stream);\n}\n\n", t, t)
	}
}

// sourceFail is the helper that hands a failed call's result to *err.
func (p *plan) sourceFail(b *strings.Builder, unused string) {
	fmt.Fprintf(b, `/* Returns rc after handing res to *err (or freeing it). */
%s static int %s__fail(int rc, smithycurl_result *res, smithycurl_result **err) {
    if (err) {
        *err = res;
    } else {
        smithycurl_result_free(res);
    }
    return rc;
}

`, unused, p.prefix)
}
