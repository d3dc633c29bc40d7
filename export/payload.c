// The C entry points of blob payloads as bytes (smithycurl_call_payload
// and its _async and _queued forms, smithycurl_result_payload): the
// payload struct is checked here, its fields go to Go (payload.go).

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "smithycurl.h"
#include "scx.h"
#include "entry.h"
#include "_cgo_export.h"

// payload_args reads p (NULL: no input payload) into the mode, data and
// length of a payload call; async says whether SMITHYCURL_PAYLOAD_COPY
// applies. SMITHYCURL_E_INVALID_ARGUMENT for a size or flags this library
// does not know.
static int payload_args(const smithycurl_payload *p, int async, int *mode, const void **data, size_t *len) {
    *mode = SCX_PAYLOAD_CALL;
    *data = NULL;
    *len = 0;
    if (!p) return SMITHYCURL_OK;
    smithycurl_payload v = SMITHYCURL_PAYLOAD_INIT;
    // The first version's fields end with flags; later ones add at the end.
    if (p->size < offsetof(smithycurl_payload, flags) + sizeof v.flags || p->size > sizeof v)
        return SMITHYCURL_E_INVALID_ARGUMENT;
    memcpy(&v, p, p->size);
    if (v.flags & ~SMITHYCURL_PAYLOAD_COPY) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (v.data) {
        *mode |= SCX_PAYLOAD_IN;
        *data = v.data;
        *len = v.len;
        if (async && (v.flags & SMITHYCURL_PAYLOAD_COPY)) *mode |= SCX_PAYLOAD_COPY;
    }
    return SMITHYCURL_OK;
}

smithycurl_code smithycurl_call_payload(smithycurl_client *client, const char *operation, const char *input,
                                        size_t input_len, const smithycurl_payload *payload,
                                        smithycurl_cancel_token *cancel, smithycurl_result **out) {
    if (out) *out = NULL;
    CALL_PROLOGUE(!out, SMITHYCURL_E_INVALID_ARGUMENT);
    int mode;
    const void *data;
    size_t len;
    int rc = payload_args(payload, 0, &mode, &data, &len);
    if (rc != SMITHYCURL_OK) return rc;
    uintptr_t h = 0;
    rc = scx_call_payload(H(client), (char *)operation, (char *)input, input_len, mode, (void *)data, len, H(cancel),
                          hints, threads, &h);
    *out = (smithycurl_result *)h;
    return rc;
}

smithycurl_code smithycurl_call_payload_async(smithycurl_client *client, const char *operation, const char *input,
                                              size_t input_len, const smithycurl_payload *payload,
                                              smithycurl_cancel_token *cancel, smithycurl_done_fn done,
                                              void *user_data) {
    ASYNC_PROLOGUE(!done, SMITHYCURL_E_INVALID_ARGUMENT);
    int mode;
    const void *data;
    size_t len;
    int rc = payload_args(payload, 1, &mode, &data, &len);
    if (rc != SMITHYCURL_OK) return rc;
    return scx_call_async(H(client), (char *)operation, (char *)input, input_len, H(cancel), (uintptr_t)done,
                          (uintptr_t)user_data, 0, 0, mode, (void *)data, len, hints, threads);
}

smithycurl_code smithycurl_call_payload_queued(smithycurl_client *client, const char *operation, const char *input,
                                               size_t input_len, const smithycurl_payload *payload,
                                               smithycurl_cancel_token *cancel, smithycurl_queue *queue, void *tag) {
    ASYNC_PROLOGUE(!queue, SMITHYCURL_E_INVALID_HANDLE);
    int mode;
    const void *data;
    size_t len;
    int rc = payload_args(payload, 1, &mode, &data, &len);
    if (rc != SMITHYCURL_OK) return rc;
    return scx_call_async(H(client), (char *)operation, (char *)input, input_len, H(cancel), 0, 0, H(queue),
                          (uintptr_t)tag, mode, (void *)data, len, hints, threads);
}

static smithycurl_code result_payload(smithycurl_result *result, int take, void **data, size_t *len) {
    FORK_CHECK();
    if (!data || !len) return SMITHYCURL_E_INVALID_ARGUMENT;
    void *p = NULL;
    size_t n = 0;
    int rc = scx_result_payload(H(result), take, &p, &n);
    if (rc == SMITHYCURL_OK) {
        *data = p;
        *len = n;
    }
    return rc;
}

smithycurl_code smithycurl_result_payload(smithycurl_result *result, const void **data, size_t *len) {
    void *p = NULL;
    int rc = result_payload(result, 0, data ? &p : NULL, len);
    if (rc == SMITHYCURL_OK) *data = p;
    return rc;
}

smithycurl_code smithycurl_result_take_payload(smithycurl_result *result, void **data, size_t *len) {
    return result_payload(result, 1, data, len);
}
