// Internal declarations shared by the Go implementation (*.go) and the C
// entry points (smithycurl.c). Not installed.
#ifndef SMITHYCURL_SCX_H
#define SMITHYCURL_SCX_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// Handle types (the low bits of every handle value carry one).
enum { SCX_LOADER = 1, SCX_MODEL, SCX_OPTIONS, SCX_CLIENT, SCX_RESULT, SCX_CANCEL, SCX_STREAM, SCX_PAGINATOR, SCX_QUEUE, SCX_STUBBER, SCX_MOCK };

// What scx_model_json writes, and how the descriptions (services,
// operation) give the documentation: or'ed in, SCX_JSON_DOCS_NONE leaves it
// out, SCX_JSON_DOCS_PLAIN converts it to plain text.
enum { SCX_JSON_SERVICES = 1, SCX_JSON_OPERATION, SCX_JSON_AST, SCX_SNAPSHOT };
enum { SCX_JSON_DOCS_NONE = 0x100, SCX_JSON_DOCS_PLAIN = 0x200 };

/* contract:options - generated from internal/contract by `make contract`; do not edit */
// What scx_options_set_int and scx_options_set_str set: one number per C
// setter (smithycurl_options_set_NAME or _add_NAME is SCX_OPT_NAME).
enum {
    SCX_OPT_TIMEOUT_MS = 1,
    SCX_OPT_CONNECT_TIMEOUT_MS,
    SCX_OPT_RETRIES,
    SCX_OPT_RETRY_MODE,
    SCX_OPT_VALIDATION,
    SCX_OPT_MAX_RESPONSE_BYTES,
    SCX_OPT_HEADER,
    SCX_OPT_USER_AGENT,
    SCX_OPT_BEARER_TOKEN,
    SCX_OPT_BASIC_AUTH,
    SCX_OPT_API_KEY,
    SCX_OPT_AWS_SIGV4,
    SCX_OPT_REQUEST_MIN_COMPRESSION_SIZE,
    SCX_OPT_DISABLE_REQUEST_COMPRESSION,
    SCX_OPT_APP_ID,
    SCX_OPT_FRONT_END,
    SCX_OPT_TLS,
    SCX_OPT_PROXY,
    SCX_OPT_HOST_PREFIX,
    SCX_OPT_REGION,
    SCX_OPT_PROFILE,
    SCX_OPT_REQUEST_CHECKSUM_CALCULATION,
    SCX_OPT_RESPONSE_CHECKSUM_VALIDATION,
    SCX_OPT_ENDPOINT_DISCOVERY,
    SCX_OPT_ENDPOINT_PARAM,
    SCX_OPT_WAITER_DELAYS,
    SCX_OPT_ASYNC_LIMITS,
    SCX_OPT_TRACE_SPANS,
    SCX_OPT_DIGEST_AUTH,
};
/* end contract:options */

// Result fields read by scx_result_get.
enum {
    SCX_RES_CODE = 1,
    SCX_RES_OUTPUT,
    SCX_RES_KIND,
    SCX_RES_STATUS,
    SCX_RES_ATTEMPTS,
    SCX_RES_SHAPE,
    SCX_RES_MESSAGE,
    SCX_RES_MEMBERS,
    SCX_RES_ERROR_CODE,
    SCX_RES_REQUEST_ID,
    SCX_RES_MAY_HAVE_REACHED
};

// What a payload call (payload.go) is given: SCX_PAYLOAD_CALL for any,
// or'ed with SCX_PAYLOAD_IN when it has an input payload, and
// SCX_PAYLOAD_COPY when that is copied before the call returns (async).
enum { SCX_PAYLOAD_CALL = 1, SCX_PAYLOAD_IN = 2, SCX_PAYLOAD_COPY = 4 };

// Scheduling hints of scx_call (sched.go), and the clock of their yields
// (transport.YieldClock, an int (*)(void)).
enum { SCX_HINT_NEW_THREAD = 1, SCX_HINT_YIELD = 2 };
void scx_set_yield_clock(void *fn);

void scx_trace_invoke(uintptr_t fn, uintptr_t user, const char *ev, size_t len);
// A hook or signer of an interceptor (hooks.go, hooks.c); ctx is the
// cgo.Handle of its context.
int scx_hook_invoke(uintptr_t fn, uintptr_t user, uintptr_t ctx);
// The callbacks of smithycurl_call_stream.
long long scx_read_invoke(uintptr_t fn, uintptr_t user, char *buf, size_t cap);
int scx_write_invoke(uintptr_t fn, uintptr_t user, const char *data, size_t len);
int scx_rewind_invoke(uintptr_t fn, uintptr_t user);
// The transfers of scx_s3_transfer, and their progress callback.
enum { SCX_XFER_UPLOAD_FILE = 1, SCX_XFER_DOWNLOAD_FILE, SCX_XFER_UPLOAD, SCX_XFER_DOWNLOAD };
int scx_progress_invoke(uintptr_t fn, uintptr_t user, long long done, long long total);

// The identity callbacks (identity.go): which one scx_options_set_identity
// sets, and the calls of a callback, which return its result and leave
// what it gave in the out-parameters (the strings are the callback's).
enum { SCX_ID_AWS = 1, SCX_ID_TOKEN, SCX_ID_API_KEY };
int scx_aws_invoke(uintptr_t fn, uintptr_t user, const char **strs, long long *expiration, char *err, size_t cap);
// Whether this thread is in an identity callback.
int scx_in_identity_callback(void);
int scx_token_invoke(uintptr_t fn, uintptr_t user, const char **value, long long *expiration, char *err, size_t cap);

// The completion of an asynchronous call (smithycurl_done_fn), and the
// eventfd of a completion queue (level-triggered: readable while its
// counter is non-zero).
void scx_done_invoke(uintptr_t fn, uintptr_t user, int code, uintptr_t result);
int scx_eventfd_new(void);
void scx_eventfd_signal(int fd);
void scx_eventfd_drain(int fd);
void scx_eventfd_close(int fd);

// scx_alloc is malloc that returns NULL on failure (C.malloc aborts instead).
void *scx_alloc(size_t n);

#endif
