package cgen

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// Presigned requests of a service signed with SigV4 (aws.auth#sigv4), on
// the runtime's smithycurl_presign:
//
//	PREFIX_presigned              the request: url, method, expires, headers
//	PREFIX_presigned_free
//	PREFIX_presign_OP(client, input, expires_seconds, signing_time, &out, &err)
//
// Every operation gets one but those whose output is an event stream (the
// runtime refuses what it cannot presign: a body other than S3's or a
// query form). Their names are claimed after every other name, so a
// model's names stay as they were before these existed.

// planPresign claims the names of the presigned request and of each
// operation's presigner.
func (p *plan) planPresign() {
	if !p.svc.Shape.HasTrait(model.TraitSigV4) {
		return
	}
	for _, op := range p.ops {
		if op.x.events != "" {
			continue
		}
		if p.presigned == "" {
			p.presigned = p.global.claim(p.prefix+"_presigned", "_free")
		}
		op.presign = p.global.claim(p.prefix + "_presign_" + strings.TrimPrefix(op.fn, p.prefix+"_"))
	}
}

// headerPresigned declares the presigned request and its _free.
func (p *plan) headerPresigned(b *strings.Builder) {
	if p.presigned == "" {
		return
	}
	t := p.presigned
	comment(b, "", fmt.Sprintf("A presigned request (%s_presign_<operation>()): anyone may send method to url, with each header of header_names/header_values (the signed headers besides Host, which must be sent as given), without credentials until expires (UTC). Every pointer is owned by the value: free it with %s_free().", p.prefix, t))
	fmt.Fprintf(b, "typedef struct %s {\n    char *url;\n    char *method;\n    smithycurl_timestamp expires;\n    char **header_names;\n    char **header_values;\n    size_t n_headers;\n} %s;\n\n", t, t)
	fmt.Fprintf(b, "/** Frees a presigned request; NULL is ignored. */\nvoid %s_free(%s *presigned);\n\n", t, t)
}

func (p *plan) presignSignature(op *opPlan) string {
	in := ""
	if op.in != nil {
		in = fmt.Sprintf("const %s *input, ", op.in.name)
	}
	return fmt.Sprintf("int %s(smithycurl_client *client, %slong long expires_seconds,\n    long long signing_time, %s **out, smithycurl_result **err)", op.presign, in, p.presigned)
}

// headerPresign declares op's presigner.
func (p *plan) headerPresign(b *strings.Builder, op *opPlan) {
	if op.presign == "" {
		return
	}
	comment(b, "", deprecatedNote(op.op.Shape.Traits, fmt.Sprintf("Presigns %s (smithycurl_presign()): its request signed with SigV4 in the URL's query string, valid expires_seconds (1 to 604800) from signing_time (seconds since the Unix epoch; 0 for now). Nothing is sent; the input is read during the call only. On SMITHYCURL_OK *out is a new %s (free it with %s_free()). On failure *err as for %s(): SMITHYCURL_E_USAGE (expires_seconds out of range, no credentials, a request that cannot be presigned), SMITHYCURL_E_VALIDATION, SMITHYCURL_E_INVALID_ARGUMENT (%sout NULL). Thread-safety: any thread, concurrently on one client.",
		op.op.Name, p.presigned, p.presigned, op.fn, map[bool]string{true: "input or ", false: ""}[op.in != nil])))
	fmt.Fprintf(b, "%s%s;\n\n", p.deprecated(op.op.Shape.Traits), p.presignSignature(op))
}

// sourcePresigned writes the presigned request's _free and the reader of
// smithycurl_presign's output.
func (p *plan) sourcePresigned(b *strings.Builder) {
	if p.presigned == "" {
		return
	}
	fmt.Fprintf(b, `void %[1]s_free(%[1]s *presigned) {
    size_t i;
    if (!presigned) { return; }
    for (i = 0; i < presigned->n_headers; i++) {
        free(presigned->header_names[i]);
        free(presigned->header_values[i]);
    }
    free(presigned->header_names);
    free(presigned->header_values);
    free(presigned->url);
    free(presigned->method);
    free(presigned);
}

/* Reads the headers object of smithycurl_presign's output into v. */
static int %[2]s__presigned_headers(smithycurl_json_reader *r, %[1]s *v) {
    size_t cap = 0, vcap = 0;
    char *name;
    int more, rc = smithycurl_json_enter_object(r);
    while (!rc && (more = smithycurl_json_next_key_dup(r, &name)) == 1) {
        if (!name) { return SMITHYCURL_E_NOMEM; }
        if (v->n_headers == cap) {
            char **names = smithycurl_json_grow(v->header_names, &cap, sizeof *names), **values;
            if (!names) { free(name); return SMITHYCURL_E_NOMEM; }
            v->header_names = names;
            if (!(values = smithycurl_json_grow(v->header_values, &vcap, sizeof *values))) { free(name); return SMITHYCURL_E_NOMEM; }
            v->header_values = values;
        }
        v->header_names[v->n_headers] = name;
        rc = smithycurl_json_read_string(r, &v->header_values[v->n_headers]);
        v->n_headers++;
    }
    if (!rc && more < 0) { rc = SMITHYCURL_E_DECODE; }
    return rc;
}

/* Reads smithycurl_presign's output ({"url", "method", "headers", "expires"}) into a new value. */
static int %[2]s__presigned_read(smithycurl_result *res, %[1]s **out) {
    const char *json, *k;
    size_t len, n;
    smithycurl_json_reader r;
    int more = 0, rc;
    %[1]s *v = calloc(1, sizeof *v);
    if (!v) { return SMITHYCURL_E_NOMEM; }
    if (!(rc = smithycurl_result_output(res, &json, &len))) {
        smithycurl_json_reader_init(&r, json, len);
        rc = smithycurl_json_enter_object(&r);
    }
    while (!rc && (more = smithycurl_json_next_key(&r, &k, &n)) == 1) {
        if (n == 3 && !memcmp(k, "url", 3)) { rc = smithycurl_json_read_string(&r, &v->url); }
        else if (n == 6 && !memcmp(k, "method", 6)) { rc = smithycurl_json_read_string(&r, &v->method); }
        else if (n == 7 && !memcmp(k, "expires", 7)) { rc = smithycurl_json_read_timestamp(&r, &v->expires); }
        else if (n == 7 && !memcmp(k, "headers", 7)) { rc = %[2]s__presigned_headers(&r, v); }
        else { rc = smithycurl_json_skip(&r); }
    }
    if (!rc && more < 0) { rc = SMITHYCURL_E_DECODE; }
    if (!rc) { rc = smithycurl_json_reader_end(&r); }
    if (!rc && (!v->url || !v->method)) { rc = SMITHYCURL_E_DECODE; }
    if (rc) {
        %[1]s_free(v);
        return rc;
    }
    *out = v;
    return SMITHYCURL_OK;
}

`, p.presigned, p.prefix)
}

// sourcePresign writes op's presigner.
func (p *plan) sourcePresign(b *strings.Builder, op *opPlan) {
	if op.presign == "" {
		return
	}
	fmt.Fprintf(b, "%s {\n    smithycurl_json_writer w;\n    smithycurl_result *res = NULL;\n    int rc;\n    if (err) { *err = NULL; }\n    if (out) { *out = NULL; }\n", p.presignSignature(op))
	if op.in != nil {
		b.WriteString("    if (!input || !out) { return SMITHYCURL_E_INVALID_ARGUMENT; }\n")
	} else {
		b.WriteString("    if (!out) { return SMITHYCURL_E_INVALID_ARGUMENT; }\n")
	}
	writeInput(b, op, true)
	fmt.Fprintf(b, "    if (!rc) { rc = smithycurl_presign(client, %s, w.buf, w.len, expires_seconds, signing_time, &res); }\n    smithycurl_json_writer_reset(&w);\n", cString(string(op.op.Shape.ID)))
	p.failed(b)
	fmt.Fprintf(b, "    rc = %s__presigned_read(res, out);\n    smithycurl_result_free(res);\n    return rc;\n}\n\n", p.prefix)
}
