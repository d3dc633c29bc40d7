package cgen

import (
	"fmt"
	"strings"
)

// The asynchronous call of an operation, on the runtime's completion API
// (smithycurl_call_async):
//
//	OP_done_fn   the completion's type: (user_data, rc, out, err)
//	OP_async     starts the call: (client, input, cancel, done, user_data)
//
// The completion runs on a library thread with what OP() would have
// returned. An operation whose output is an event stream gets none (its
// call fails with SMITHYCURL_E_USAGE). Their names are claimed after every
// other name, so a model's names stay as they were before these existed.

// planAsync claims the names of each operation's asynchronous call.
func (p *plan) planAsync() {
	for _, op := range p.ops {
		if op.x.events == "" {
			op.async = p.global.claim(op.fn+"_async", "__done")
			op.done = p.global.claim(op.fn+"_done_fn", "")
		}
	}
}

// headerAsync declares op's completion type and asynchronous call.
func (p *plan) headerAsync(b *strings.Builder, op *opPlan) {
	if op.async == "" {
		return
	}
	s := op.op.Shape
	outArg, outText := "", ""
	if op.out != nil {
		outArg = fmt.Sprintf("%s *out, ", op.out.name)
		outText = fmt.Sprintf(" On SMITHYCURL_OK out is the output, yours: free it with %s_free(); otherwise out is NULL.", op.out.name)
	}
	comment(b, "", fmt.Sprintf("The completion of %s(): called exactly once, on a library thread (never inside %s()), with rc as %s() returns it.%s On failure err (yours: free it with smithycurl_result_free(); NULL when there is no result) holds the details, read as %s()'s *err (%s() names a modeled error). It runs as a smithycurl_done_fn does (see there: its thread, and what it may call).",
		op.async, op.async, op.fn, outText, op.fn, p.which))
	fmt.Fprintf(b, "typedef void (*%s)(void *user_data, int rc, %ssmithycurl_result *err);\n\n", op.done, outArg)
	inArg, inNull := "", ""
	if op.in != nil {
		inArg, inNull = fmt.Sprintf("const %s *input, ", op.in.name), "input or "
	}
	comment(b, "", deprecatedNote(s.Traits, fmt.Sprintf("Starts %s without waiting for it (smithycurl_call_async()): the input is encoded and copied before this returns (a blob payload too, as bytes: smithycurl_call_payload_async() with SMITHYCURL_PAYLOAD_COPY); the call runs on the client's engine, with its retries and timeouts, and done(user_data, ...) is called once it ends. cancel (or NULL; it must outlive the call) ends it early with SMITHYCURL_E_CANCELLED. Returns SMITHYCURL_OK when the call started; otherwise done is never called and the return is SMITHYCURL_E_INVALID_ARGUMENT (%sdone NULL), SMITHYCURL_E_INVALID_HANDLE, SMITHYCURL_E_FORKED or SMITHYCURL_E_NOMEM. An input that cannot be encoded is refused as %s() refuses it, through done: rc its code, err its message naming the member. Thread-safety: any thread, concurrently on one client.", op.op.Name, inNull, op.fn)))
	fmt.Fprintf(b, "%sint %s(smithycurl_client *client, %ssmithycurl_cancel_token *cancel,\n    %s done, void *user_data);\n\n", p.deprecated(s.Traits), op.async, inArg, op.done)
}

// sourceAsyncHelpers writes what every asynchronous call shares: the
// completion's context and the start of a call.
func (p *plan) sourceAsyncHelpers(b *strings.Builder, unused string) {
	fmt.Fprintf(b, `/* The context of an asynchronous call: the caller's completion (cast back to
   its own type before it is called) and its user data. */
typedef struct %[2]s__async_ctx {
    void (*done)(void);
    void *user_data;
} %[2]s__async_ctx;

/* Starts the call of the input w holds (rc: its status), with its blob payload
   as bytes when payload is not NULL; its completion trampoline gets a
   new context for done. An input the writer refused completes the call
   with a result naming the member (smithycurl_complete_async()), as the
   library's own input errors do. On failure nothing was started and
   nothing is kept. */
%[1]s static int %[2]s__call_async(smithycurl_client *c, const char *op, int rc, smithycurl_json_writer *w,
                                      const smithycurl_payload *payload, smithycurl_cancel_token *cancel,
                                      smithycurl_done_fn trampoline, void (*done)(void), void *user_data) {
    smithycurl_result *err = NULL;
    %[2]s__async_ctx *a = malloc(sizeof *a);
    if (!a) {
        rc = SMITHYCURL_E_NOMEM;
    } else {
        a->done = done;
        a->user_data = user_data;
        if (rc == SMITHYCURL_OK && payload) {
            rc = smithycurl_call_payload_async(c, op, w->buf, w->len, payload, cancel, trampoline, a);
        } else if (rc == SMITHYCURL_OK) {
            rc = smithycurl_call_async(c, op, w->buf, w->len, cancel, trampoline, a);
        } else if (smithycurl_result_new_input_error(rc, op, smithycurl_json_writer_message(w), &err) == SMITHYCURL_OK) {
            rc = smithycurl_complete_async(c, err, trampoline, a);
            if (rc != SMITHYCURL_OK) {
                smithycurl_result_free(err);
            }
        }
        if (rc != SMITHYCURL_OK) {
            free(a);
        }
    }
    smithycurl_json_writer_reset(w);
    return rc;
}

`, unused, p.prefix)
}

// sourceAsync writes op's completion trampoline and asynchronous call.
func (p *plan) sourceAsync(b *strings.Builder, op *opPlan) {
	if op.async == "" {
		return
	}
	tramp := op.async + "__done"
	fmt.Fprintf(b, "static void %s(void *ud, smithycurl_code code, smithycurl_result *res) {\n", tramp)
	fmt.Fprintf(b, "    %s__async_ctx *a = ud;\n    %s done = (%s)a->done;\n    void *user_data = a->user_data;\n    int rc = code;\n    free(a);\n", p.prefix, op.done, op.done)
	if op.out == nil {
		b.WriteString("    if (rc != SMITHYCURL_OK) {\n        done(user_data, rc, res);\n        return;\n    }\n")
		b.WriteString("    smithycurl_result_free(res);\n    done(user_data, SMITHYCURL_OK, NULL);\n}\n\n")
	} else {
		fmt.Fprintf(b, "    %s *out = NULL, **outp = &out;\n", op.out.name)
		b.WriteString("    if (rc != SMITHYCURL_OK) {\n        done(user_data, rc, NULL, res);\n        return;\n    }\n")
		readResultPayload(b, op, "outp")
		b.WriteString("    done(user_data, rc, out, NULL);\n}\n\n")
	}
	inArg, inNull := "", ""
	if op.in != nil {
		inArg, inNull = fmt.Sprintf("const %s *input, ", op.in.name), "!input || "
	}
	fmt.Fprintf(b, "int %s(smithycurl_client *client, %ssmithycurl_cancel_token *cancel,\n    %s done, void *user_data) {\n", op.async, inArg, op.done)
	b.WriteString("    smithycurl_json_writer w;\n    int rc;\n")
	fmt.Fprintf(b, "    if (%s!done) { return SMITHYCURL_E_INVALID_ARGUMENT; }\n", inNull)
	payload := "NULL"
	if p.payloadCall(op) {
		payload = "&payload"
	}
	writePayloadInput(b, op, "SMITHYCURL_PAYLOAD_COPY")
	b.WriteString("    rc = smithycurl_json_writer_status(&w);\n")
	fmt.Fprintf(b, "    return %s__call_async(client, %s, rc, &w, %s, cancel, %s, (void (*)(void))done, user_data);\n}\n\n",
		p.prefix, cString(string(op.op.Shape.ID)), payload, tramp)
}
