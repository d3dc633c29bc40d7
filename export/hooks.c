// The public C symbols of interceptors, custom auth schemes, digest auth
// and trace spans (include/smithycurl.h); their Go side is hooks.go.

#include <stddef.h>
#include <stdint.h>

#include "smithycurl.h"
#include "scx.h"
#include "entry.h"
#include "_cgo_export.h"

int scx_hook_invoke(uintptr_t fn, uintptr_t user, uintptr_t ctx) {
    return ((smithycurl_hook_fn)fn)((void *)user, (smithycurl_hook_context *)ctx);
}

smithycurl_code smithycurl_options_set_trace_spans(smithycurl_options *o, int on) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_TRACE_SPANS, on, 0);
}

smithycurl_code smithycurl_options_set_digest_auth(smithycurl_options *o, const char *user, const char *password) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_DIGEST_AUTH, (char *)user, (char *)password, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_add_interceptor(smithycurl_options *o, const smithycurl_interceptor *in) {
    FORK_CHECK();
    if (!in || in->size != sizeof *in) return SMITHYCURL_E_INVALID_ARGUMENT;
    // The hooks in smithycurl_hook order, as hooks.go reads them.
    uintptr_t fns[] = {
        (uintptr_t)in->read_before_execution,       (uintptr_t)in->modify_before_serialization,
        (uintptr_t)in->read_before_serialization,   (uintptr_t)in->read_after_serialization,
        (uintptr_t)in->modify_before_retry_loop,    (uintptr_t)in->read_before_attempt,
        (uintptr_t)in->modify_before_signing,       (uintptr_t)in->read_before_signing,
        (uintptr_t)in->read_after_signing,          (uintptr_t)in->modify_before_transmit,
        (uintptr_t)in->read_before_transmit,        (uintptr_t)in->read_after_transmit,
        (uintptr_t)in->modify_before_deserialization, (uintptr_t)in->read_before_deserialization,
        (uintptr_t)in->read_after_deserialization,  (uintptr_t)in->modify_before_attempt_completion,
        (uintptr_t)in->read_after_attempt,          (uintptr_t)in->modify_before_completion,
        (uintptr_t)in->read_after_execution,
    };
    _Static_assert(sizeof fns / sizeof fns[0] == SMITHYCURL_HOOK_READ_AFTER_EXECUTION + 1, "one hook per point");
    return scx_options_add_interceptor(H(o), fns, (uintptr_t)in->user_data);
}

smithycurl_code smithycurl_options_add_auth_scheme(smithycurl_options *o, const char *scheme_id, smithycurl_sign_fn fn,
                                                   void *user_data) {
    FORK_CHECK();
    return scx_options_add_auth_scheme(H(o), (char *)scheme_id, (uintptr_t)fn, (uintptr_t)user_data);
}

smithycurl_hook smithycurl_hook_point(const smithycurl_hook_context *ctx) {
    return (smithycurl_hook)scx_hook_point(H(ctx));
}

smithycurl_code smithycurl_hook_get(smithycurl_hook_context *ctx, smithycurl_hook_field field, const char *name,
                                    const char **value, size_t *len) {
    return scx_hook_get(H(ctx), field, (char *)name, (char **)value, len);
}

smithycurl_code smithycurl_hook_set(smithycurl_hook_context *ctx, smithycurl_hook_field field, const char *name,
                                    const char *value, size_t len) {
    return scx_hook_set(H(ctx), field, (char *)name, (char *)value, len);
}
