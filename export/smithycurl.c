// The public C symbols of libsmithycurl. Each one checks, in C and before
// entering the Go runtime, that the process has not forked since the library
// was loaded (a forked child has no Go runtime threads: entering Go there can
// hang), then calls the Go implementation (scx_* in *.go) with its handles as
// integers. Compiling this file against include/smithycurl.h is what keeps
// the public header and the library in agreement.

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "smithycurl.h"
#include "scx.h"
#include "entry.h"
#include "_cgo_export.h"

// The process id when the library was loaded, and whether this process is a
// child forked since. A pthread_atfork handler compares the ids in the child
// of every fork(), so the check on each call is one load (getpid() is a
// system call, and costs a microsecond or more in a sandbox or VM).
static pid_t loaded_pid;
volatile int scx_forked;

static void smithycurl_atfork_child(void) {
    if (getpid() != loaded_pid) scx_forked = 1;
}

__attribute__((constructor)) static void smithycurl_record_pid(void) {
    loaded_pid = getpid();
    pthread_atfork(NULL, NULL, smithycurl_atfork_child);
}

// Scheduling hints passed to Go with each call (CALL_PROLOGUE, entry.h; see
// sched.go), kept in C where thread-local storage is one load: whether this
// is the thread's first call, or whether it is due a yield to the Go
// scheduler (the transport's per-thread clock, sc_yield_due in
// transport/shim.h, which its transfers on this thread share: set by
// sched.go's init through scx_set_yield_clock), and how many threads that
// have made a call are alive (a pthread key's destructor counts them out).
static __thread int scx_thread_seen;
static int (*volatile scx_yield_due)(void); // NULL until the Go runtime's init ran
static int scx_call_threads;
static pthread_key_t scx_thread_key;
static pthread_once_t scx_thread_once = PTHREAD_ONCE_INIT;

void scx_set_yield_clock(void *fn) { scx_yield_due = (int (*)(void))fn; }

static void scx_thread_exit(void *p) {
    (void)p;
    __atomic_sub_fetch(&scx_call_threads, 1, __ATOMIC_RELAXED);
}

static void scx_thread_key_init(void) { pthread_key_create(&scx_thread_key, scx_thread_exit); }

int scx_sched_hints(int *threads) {
    int (*due)(void) = scx_yield_due;
    int hints = due && due() ? SCX_HINT_YIELD : 0;
    if (!scx_thread_seen) {
        scx_thread_seen = 1;
        pthread_once(&scx_thread_once, scx_thread_key_init);
        *threads = __atomic_add_fetch(&scx_call_threads, 1, __ATOMIC_RELAXED);
        pthread_setspecific(scx_thread_key, (void *)1);
        hints |= SCX_HINT_NEW_THREAD;
    }
    return hints;
}

// scx_library_thread is set on the Go runtime's threads that run a
// completion callback (scx_done_invoke): a thread of the runtime stays one.
static __thread int scx_library_thread;

// scx_async_hints: scx_sched_hints, but on a library thread the yield hint
// alone, the thread not counted (see ASYNC_PROLOGUE in entry.h).
int scx_async_hints(int *threads) {
    if (!scx_library_thread) return scx_sched_hints(threads);
    int (*due)(void) = scx_yield_due;
    return due && due() ? SCX_HINT_YIELD : 0;
}

// ---- version, codes, memory: pure C, usable anywhere ----

const char *smithycurl_version(void) { return SMITHYCURL_VERSION; }

int smithycurl_version_number(void) { return SMITHYCURL_VERSION_NUMBER; }

// smithycurl_strerror and smithycurl_error_kind_name: contract.c.

void smithycurl_free(void *ptr) { free(ptr); }

// scx_trace_invoke calls a caller's trace callback (Go cannot call C function
// pointers itself).
void scx_trace_invoke(uintptr_t fn, uintptr_t user, const char *ev, size_t len) {
    ((smithycurl_trace_fn)fn)((void *)user, ev, len);
}

long long scx_read_invoke(uintptr_t fn, uintptr_t user, char *buf, size_t cap) {
    return ((smithycurl_read_fn)fn)((void *)user, buf, cap);
}

int scx_rewind_invoke(uintptr_t fn, uintptr_t user) {
    return ((smithycurl_rewind_fn)fn)((void *)user);
}

int scx_write_invoke(uintptr_t fn, uintptr_t user, const char *data, size_t len) {
    return ((smithycurl_write_fn)fn)((void *)user, data, len);
}

int scx_progress_invoke(uintptr_t fn, uintptr_t user, long long done, long long total) {
    return ((smithycurl_progress_fn)fn)((void *)user, done, total);
}

// The identity callbacks: the struct is the library's, zeroed each time.
static __thread int scx_identity_depth; // > 0 in an identity callback

int scx_in_identity_callback(void) { return scx_identity_depth > 0; }

int scx_aws_invoke(uintptr_t fn, uintptr_t user, const char **strs, long long *expiration, char *err, size_t cap) {
    smithycurl_aws_credentials c;
    memset(&c, 0, sizeof c);
    err[0] = 0;
    scx_identity_depth++;
    int rc = ((smithycurl_aws_credentials_fn)fn)((void *)user, &c, err, cap);
    scx_identity_depth--;
    err[cap - 1] = 0;
    strs[0] = c.access_key_id;
    strs[1] = c.secret_access_key;
    strs[2] = c.session_token;
    *expiration = c.expiration;
    return rc;
}

int scx_token_invoke(uintptr_t fn, uintptr_t user, const char **value, long long *expiration, char *err, size_t cap) {
    smithycurl_token t;
    memset(&t, 0, sizeof t);
    err[0] = 0;
    scx_identity_depth++;
    int rc = ((smithycurl_token_fn)fn)((void *)user, &t, err, cap);
    scx_identity_depth--;
    err[cap - 1] = 0;
    *value = t.value;
    *expiration = t.expiration;
    return rc;
}

// ---- loaders ----

smithycurl_code smithycurl_loader_new(smithycurl_loader **out) {
    FORK_CHECK();
    if (!out) return SMITHYCURL_E_INVALID_ARGUMENT;
    uintptr_t h = 0;
    int rc = scx_loader_new(&h);
    if (rc == SMITHYCURL_OK) *out = (smithycurl_loader *)h;
    return rc;
}

smithycurl_code smithycurl_loader_add_path(smithycurl_loader *loader, const char *path) {
    FORK_CHECK();
    return scx_loader_add_path(H(loader), (char *)path);
}

smithycurl_code smithycurl_loader_add_source(smithycurl_loader *loader, const char *name, const char *source,
                                             size_t source_len) {
    FORK_CHECK();
    return scx_loader_add_source(H(loader), (char *)name, (char *)source, source_len);
}

smithycurl_code smithycurl_loader_set_cache(smithycurl_loader *loader, const char *mode, const char *dir) {
    FORK_CHECK();
    return scx_loader_set_cache(H(loader), (char *)mode, (char *)dir);
}

smithycurl_code smithycurl_loader_load(smithycurl_loader *loader, smithycurl_model **out) {
    FORK_CHECK();
    uintptr_t h = 0;
    int rc = scx_loader_load(H(loader), out != NULL, &h);
    if (rc == SMITHYCURL_OK) *out = (smithycurl_model *)h;
    return rc;
}

smithycurl_code smithycurl_loader_errmsg(smithycurl_loader *loader, char **msg) {
    FORK_CHECK();
    return scx_errmsg(H(loader), SCX_LOADER, msg);
}

smithycurl_code smithycurl_loader_free(smithycurl_loader *loader) {
    FORK_CHECK();
    return scx_free(H(loader), SCX_LOADER);
}

// ---- models ----

/* The SCX_JSON_DOCS_* of SMITHYCURL_DESCRIBE_* flags (leaving it out wins). */
static int describe_docs(unsigned flags) {
    if (flags & SMITHYCURL_DESCRIBE_NO_DOCUMENTATION) return SCX_JSON_DOCS_NONE;
    if (flags & SMITHYCURL_DESCRIBE_PLAIN_DOCUMENTATION) return SCX_JSON_DOCS_PLAIN;
    return 0;
}

smithycurl_code smithycurl_model_services_json(smithycurl_model *model, char **json, size_t *len) {
    FORK_CHECK();
    return scx_model_json(H(model), SCX_JSON_SERVICES, NULL, NULL, json, len);
}

smithycurl_code smithycurl_model_services_json_v2(smithycurl_model *model, unsigned flags, char **json,
                                                 size_t *len) {
    FORK_CHECK();
    if (flags & ~(unsigned)(SMITHYCURL_DESCRIBE_NO_DOCUMENTATION | SMITHYCURL_DESCRIBE_PLAIN_DOCUMENTATION))
        return SMITHYCURL_E_INVALID_ARGUMENT;
    return scx_model_json(H(model), SCX_JSON_SERVICES | describe_docs(flags), NULL, NULL, json, len);
}

smithycurl_code smithycurl_model_operation_json(smithycurl_model *model, const char *service_id,
                                                const char *operation, char **json, size_t *len) {
    FORK_CHECK();
    if (!operation) return SMITHYCURL_E_INVALID_ARGUMENT;
    return scx_model_json(H(model), SCX_JSON_OPERATION, (char *)service_id, (char *)operation, json,
                         len);
}

smithycurl_code smithycurl_model_operation_json_v2(smithycurl_model *model, const char *service_id,
                                                   const char *operation, unsigned flags, char **json,
                                                   size_t *len) {
    FORK_CHECK();
    if (!operation) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (flags & ~(unsigned)(SMITHYCURL_DESCRIBE_NO_DOCUMENTATION | SMITHYCURL_DESCRIBE_PLAIN_DOCUMENTATION))
        return SMITHYCURL_E_INVALID_ARGUMENT;
    return scx_model_json(H(model), SCX_JSON_OPERATION | describe_docs(flags), (char *)service_id,
                          (char *)operation, json, len);
}

smithycurl_code smithycurl_model_ast_json(smithycurl_model *model, char **json, size_t *len) {
    FORK_CHECK();
    return scx_model_json(H(model), SCX_JSON_AST, NULL, NULL, json, len);
}

smithycurl_code smithycurl_model_snapshot(smithycurl_model *model, char **data, size_t *len) {
    FORK_CHECK();
    if (!len) return SMITHYCURL_E_INVALID_ARGUMENT;
    return scx_model_json(H(model), SCX_SNAPSHOT, NULL, NULL, data, len);
}

smithycurl_code smithycurl_model_errmsg(smithycurl_model *model, char **msg) {
    FORK_CHECK();
    return scx_errmsg(H(model), SCX_MODEL, msg);
}

smithycurl_code smithycurl_model_free(smithycurl_model *model) {
    FORK_CHECK();
    return scx_free(H(model), SCX_MODEL);
}

// ---- options ----

smithycurl_code smithycurl_options_new(smithycurl_options **out) {
    FORK_CHECK();
    if (!out) return SMITHYCURL_E_INVALID_ARGUMENT;
    uintptr_t h = 0;
    int rc = scx_options_new(&h);
    if (rc == SMITHYCURL_OK) *out = (smithycurl_options *)h;
    return rc;
}

smithycurl_code smithycurl_options_set_timeout_ms(smithycurl_options *o, long timeout_ms) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_TIMEOUT_MS, timeout_ms, 0);
}

smithycurl_code smithycurl_options_set_connect_timeout_ms(smithycurl_options *o, long timeout_ms) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_CONNECT_TIMEOUT_MS, timeout_ms, 0);
}

smithycurl_code smithycurl_options_set_retries(smithycurl_options *o, int enabled, int max_attempts) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_RETRIES, enabled, max_attempts);
}

smithycurl_code smithycurl_options_set_validation(smithycurl_options *o, int enabled) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_VALIDATION, enabled, 0);
}

smithycurl_code smithycurl_options_set_host_prefix(smithycurl_options *o, int enabled) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_HOST_PREFIX, enabled, 0);
}

smithycurl_code smithycurl_options_set_max_response_bytes(smithycurl_options *o, long long max_bytes) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_MAX_RESPONSE_BYTES, max_bytes, 0);
}

smithycurl_code smithycurl_options_set_waiter_delays(smithycurl_options *o, long long min_delay_ms, long long max_delay_ms) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_WAITER_DELAYS, min_delay_ms, max_delay_ms);
}

smithycurl_code smithycurl_options_add_header(smithycurl_options *o, const char *name, const char *value) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_HEADER, (char *)name, (char *)value, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_user_agent(smithycurl_options *o, const char *user_agent) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_USER_AGENT, (char *)user_agent, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_bearer_token(smithycurl_options *o, const char *token) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_BEARER_TOKEN, (char *)token, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_basic_auth(smithycurl_options *o, const char *user, const char *password) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_BASIC_AUTH, (char *)user, (char *)password, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_api_key(smithycurl_options *o, const char *key) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_API_KEY, (char *)key, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_aws_sigv4(smithycurl_options *o, const char *access_key_id,
                                                 const char *secret_access_key, const char *session_token,
                                                 const char *region) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_AWS_SIGV4, (char *)access_key_id, (char *)secret_access_key,
                              (char *)session_token, (char *)region, 0);
}

smithycurl_code smithycurl_options_set_tls(smithycurl_options *o, const char *ca_file, const char *cert_file,
                                           const char *key_file, int insecure) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_TLS, (char *)ca_file, (char *)cert_file,
                              (char *)key_file, NULL, insecure);
}

smithycurl_code smithycurl_options_set_proxy(smithycurl_options *o, const char *proxy_url) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_PROXY, (char *)proxy_url, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_region(smithycurl_options *o, const char *region) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_REGION, (char *)region, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_endpoint_param(smithycurl_options *o, const char *name, const char *value) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_ENDPOINT_PARAM, (char *)name, (char *)value, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_trace(smithycurl_options *o, smithycurl_trace_fn fn, void *user_data) {
    FORK_CHECK();
    return scx_options_set_trace(H(o), (uintptr_t)fn, (uintptr_t)user_data);
}

smithycurl_code smithycurl_options_set_aws_credentials_fn(smithycurl_options *o, smithycurl_aws_credentials_fn fn,
                                                          void *user_data) {
    FORK_CHECK();
    return scx_options_set_identity(H(o), SCX_ID_AWS, (uintptr_t)fn, (uintptr_t)user_data);
}

smithycurl_code smithycurl_options_set_token_fn(smithycurl_options *o, smithycurl_token_fn fn, void *user_data) {
    FORK_CHECK();
    return scx_options_set_identity(H(o), SCX_ID_TOKEN, (uintptr_t)fn, (uintptr_t)user_data);
}

smithycurl_code smithycurl_options_set_api_key_fn(smithycurl_options *o, smithycurl_token_fn fn, void *user_data) {
    FORK_CHECK();
    return scx_options_set_identity(H(o), SCX_ID_API_KEY, (uintptr_t)fn, (uintptr_t)user_data);
}

smithycurl_code smithycurl_options_set_profile(smithycurl_options *o, const char *profile) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_PROFILE, (char *)profile, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_endpoint_discovery(smithycurl_options *o, const char *mode) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_ENDPOINT_DISCOVERY, (char *)mode, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_request_checksum_calculation(smithycurl_options *o, const char *when) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_REQUEST_CHECKSUM_CALCULATION, (char *)when, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_response_checksum_validation(smithycurl_options *o, const char *when) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_RESPONSE_CHECKSUM_VALIDATION, (char *)when, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_retry_mode(smithycurl_options *o, const char *mode) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_RETRY_MODE, (char *)mode, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_request_min_compression_size(smithycurl_options *o, long long min_bytes) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_REQUEST_MIN_COMPRESSION_SIZE, min_bytes, 0);
}

smithycurl_code smithycurl_options_set_disable_request_compression(smithycurl_options *o, int disable) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_DISABLE_REQUEST_COMPRESSION, disable, 0);
}

smithycurl_code smithycurl_options_set_app_id(smithycurl_options *o, const char *app_id) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_APP_ID, (char *)app_id, NULL, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_front_end(smithycurl_options *o, const char *name, const char *version) {
    FORK_CHECK();
    return scx_options_set_str(H(o), SCX_OPT_FRONT_END, (char *)name, (char *)version, NULL, NULL, 0);
}

smithycurl_code smithycurl_options_set_async_limits(smithycurl_options *o, int max_transfers,
                                                    int max_host_connections) {
    FORK_CHECK();
    return scx_options_set_int(H(o), SCX_OPT_ASYNC_LIMITS, max_transfers, max_host_connections);
}

smithycurl_code smithycurl_options_errmsg(smithycurl_options *o, char **msg) {
    FORK_CHECK();
    return scx_errmsg(H(o), SCX_OPTIONS, msg);
}

smithycurl_code smithycurl_options_free(smithycurl_options *o) {
    FORK_CHECK();
    return scx_free(H(o), SCX_OPTIONS);
}

// ---- clients, cancel tokens, calls ----

smithycurl_code smithycurl_client_new(smithycurl_model *model, const char *service_id, const char *endpoint,
                                      smithycurl_options *options, smithycurl_client **out) {
    FORK_CHECK();
    uintptr_t h = 0;
    int rc = scx_client_new(H(model), (char *)service_id, (char *)endpoint, H(options), out != NULL,
                           &h);
    if (rc == SMITHYCURL_OK) *out = (smithycurl_client *)h;
    return rc;
}

smithycurl_code smithycurl_client_free(smithycurl_client *client) {
    FORK_CHECK();
    return scx_free(H(client), SCX_CLIENT);
}

smithycurl_code smithycurl_cancel_token_new(smithycurl_cancel_token **out) {
    FORK_CHECK();
    if (!out) return SMITHYCURL_E_INVALID_ARGUMENT;
    uintptr_t h = 0;
    int rc = scx_cancel_new(&h);
    if (rc == SMITHYCURL_OK) *out = (smithycurl_cancel_token *)h;
    return rc;
}

smithycurl_code smithycurl_cancel_token_cancel(smithycurl_cancel_token *token) {
    FORK_CHECK();
    return scx_cancel(H(token));
}

smithycurl_code smithycurl_cancel_token_free(smithycurl_cancel_token *token) {
    FORK_CHECK();
    return scx_free(H(token), SCX_CANCEL);
}

smithycurl_code smithycurl_call(smithycurl_client *client, const char *operation, const char *input,
                                size_t input_len, smithycurl_cancel_token *cancel, smithycurl_result **out) {
    if (out) *out = NULL;
    CALL_PROLOGUE(!out, SMITHYCURL_E_INVALID_ARGUMENT);
    uintptr_t h = 0;
    int rc = scx_call(H(client), (char *)operation, (char *)input, input_len, H(cancel), hints, threads, &h);
    *out = (smithycurl_result *)h;
    return rc;
}

smithycurl_code smithycurl_wait(smithycurl_client *client, const char *waiter, const char *input, size_t input_len,
                                long long max_wait_ms, smithycurl_cancel_token *cancel, smithycurl_result **out) {
    if (out) *out = NULL;
    CALL_PROLOGUE(!out, SMITHYCURL_E_INVALID_ARGUMENT);
    uintptr_t h = 0;
    int rc = scx_wait(H(client), (char *)waiter, (char *)input, input_len, max_wait_ms, H(cancel), hints, threads, &h);
    *out = (smithycurl_result *)h;
    return rc;
}

smithycurl_code smithycurl_presign(smithycurl_client *client, const char *operation, const char *input,
                                   size_t input_len, long long expires_seconds, long long signing_time,
                                   smithycurl_result **out) {
    if (out) *out = NULL;
    CALL_PROLOGUE(!out, SMITHYCURL_E_INVALID_ARGUMENT);
    uintptr_t h = 0;
    int rc = scx_presign(H(client), (char *)operation, (char *)input, input_len, expires_seconds, signing_time, hints,
                         threads, &h);
    *out = (smithycurl_result *)h;
    return rc;
}

// s3_transfer is smithycurl_s3_upload_file, _download_file, _upload and
// _download (mode SCX_XFER_*): path for a file, fn and data for a callback.
static smithycurl_code s3_transfer(int mode, smithycurl_client *client, const char *bucket, const char *key,
                                   const char *path, uintptr_t fn, void *data, long long size,
                                   const smithycurl_transfer_options *opts, smithycurl_cancel_token *cancel,
                                   smithycurl_result **out) {
    if (out) *out = NULL;
    CALL_PROLOGUE(!out, SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_transfer_options o = SMITHYCURL_TRANSFER_OPTIONS_INIT;
    if (opts) {
        // The first version's fields end with concurrency; later ones add at the end.
        if (opts->size < offsetof(smithycurl_transfer_options, concurrency) + sizeof(int) || opts->size > sizeof o)
            return SMITHYCURL_E_INVALID_ARGUMENT;
        memcpy(&o, opts, opts->size);
        if (opts->size < offsetof(smithycurl_transfer_options, progress_data) + sizeof(void *)) {
            o.progress = NULL;
            o.progress_data = NULL;
        }
    }
    uintptr_t h = 0;
    int rc = scx_s3_transfer(H(client), mode, (char *)bucket, (char *)key, (char *)path, fn, (uintptr_t)data, size,
                             o.part_size, o.threshold, o.concurrency, (uintptr_t)o.progress,
                             (uintptr_t)o.progress_data, H(cancel), hints, threads, &h);
    *out = (smithycurl_result *)h;
    return rc;
}

smithycurl_code smithycurl_s3_upload_file(smithycurl_client *client, const char *bucket, const char *key,
                                          const char *path, const smithycurl_transfer_options *opts,
                                          smithycurl_cancel_token *cancel, smithycurl_result **out) {
    return s3_transfer(SCX_XFER_UPLOAD_FILE, client, bucket, key, path, 0, NULL, -1, opts, cancel, out);
}

smithycurl_code smithycurl_s3_download_file(smithycurl_client *client, const char *bucket, const char *key,
                                            const char *path, const smithycurl_transfer_options *opts,
                                            smithycurl_cancel_token *cancel, smithycurl_result **out) {
    return s3_transfer(SCX_XFER_DOWNLOAD_FILE, client, bucket, key, path, 0, NULL, -1, opts, cancel, out);
}

smithycurl_code smithycurl_s3_upload(smithycurl_client *client, const char *bucket, const char *key,
                                     smithycurl_read_fn read, void *read_data, long long size,
                                     const smithycurl_transfer_options *opts, smithycurl_cancel_token *cancel,
                                     smithycurl_result **out) {
    return s3_transfer(SCX_XFER_UPLOAD, client, bucket, key, NULL, (uintptr_t)read, read_data, size, opts, cancel,
                       out);
}

smithycurl_code smithycurl_s3_download(smithycurl_client *client, const char *bucket, const char *key,
                                       smithycurl_write_fn write, void *write_data,
                                       const smithycurl_transfer_options *opts, smithycurl_cancel_token *cancel,
                                       smithycurl_result **out) {
    return s3_transfer(SCX_XFER_DOWNLOAD, client, bucket, key, NULL, (uintptr_t)write, write_data, -1, opts, cancel,
                       out);
}

smithycurl_code smithycurl_call_stream(smithycurl_client *client, const char *operation, const char *input,
                                       size_t input_len, smithycurl_read_fn read, void *read_data,
                                       long long body_size, smithycurl_write_fn write, void *write_data,
                                       smithycurl_cancel_token *cancel, smithycurl_result **out) {
    return smithycurl_call_stream_v2(client, operation, input, input_len, read, NULL, read_data, body_size, write,
                                     write_data, cancel, out);
}

smithycurl_code smithycurl_call_stream_v2(smithycurl_client *client, const char *operation, const char *input,
                                          size_t input_len, smithycurl_read_fn read, smithycurl_rewind_fn rewind,
                                          void *read_data, long long body_size, smithycurl_write_fn write,
                                          void *write_data, smithycurl_cancel_token *cancel, smithycurl_result **out) {
    if (out) *out = NULL;
    CALL_PROLOGUE(!out, SMITHYCURL_E_INVALID_ARGUMENT);
    uintptr_t h = 0;
    int rc = scx_call_stream(H(client), (char *)operation, (char *)input, input_len, (uintptr_t)read,
                             (uintptr_t)rewind, (uintptr_t)read_data, body_size, (uintptr_t)write, (uintptr_t)write_data,
                             H(cancel), hints, threads, &h);
    *out = (smithycurl_result *)h;
    return rc;
}


// ---- event streams ----

smithycurl_code smithycurl_event_stream_open(smithycurl_client *client, const char *operation, const char *input,
                                             size_t input_len, smithycurl_cancel_token *cancel,
                                             smithycurl_result **out, smithycurl_event_stream **stream) {
    if (out) *out = NULL;
    if (stream) *stream = NULL;
    CALL_PROLOGUE(!out || !stream, SMITHYCURL_E_INVALID_ARGUMENT);
    uintptr_t r = 0, s = 0;
    int rc = scx_stream_open(H(client), (char *)operation, (char *)input, input_len, H(cancel), hints, threads, &r, &s);
    *out = (smithycurl_result *)r;
    *stream = (smithycurl_event_stream *)s;
    return rc;
}

smithycurl_code smithycurl_event_stream_next(smithycurl_event_stream *stream, smithycurl_result **event) {
    if (event) *event = NULL;
    CALL_PROLOGUE(!event, SMITHYCURL_E_INVALID_ARGUMENT);
    uintptr_t r = 0;
    int rc = scx_stream_next(H(stream), hints, threads, &r);
    *event = (smithycurl_result *)r;
    return rc;
}

smithycurl_code smithycurl_event_stream_free(smithycurl_event_stream *stream) {
    FORK_CHECK();
    return scx_free(H(stream), SCX_STREAM);
}

// ---- paginators ----

smithycurl_code smithycurl_paginator_new(smithycurl_client *client, const char *operation, const char *input,
                                         size_t input_len, long long max_items, long long page_size,
                                         unsigned flags, smithycurl_cancel_token *cancel,
                                         smithycurl_paginator **out) {
    FORK_CHECK();
    if (!out) return SMITHYCURL_E_INVALID_ARGUMENT;
    uintptr_t h = 0;
    int rc = scx_paginator_new(H(client), (char *)operation, (char *)input, input_len, max_items, page_size,
                               flags, H(cancel), &h);
    if (rc == SMITHYCURL_OK) *out = (smithycurl_paginator *)h;
    return rc;
}

smithycurl_code smithycurl_paginator_next(smithycurl_paginator *paginator, const char **json, size_t *len,
                                          smithycurl_result **error) {
    if (json) *json = NULL;
    if (len) *len = 0;
    if (error) *error = NULL;
    CALL_PROLOGUE(!json || !error, SMITHYCURL_E_INVALID_ARGUMENT);
    char *p = NULL;
    size_t n = 0;
    uintptr_t r = 0;
    int rc = scx_paginator_next(H(paginator), hints, threads, &p, &n, &r);
    *json = p;
    if (len) *len = n;
    *error = (smithycurl_result *)r;
    return rc;
}

smithycurl_code smithycurl_paginator_free(smithycurl_paginator *paginator) {
    FORK_CHECK();
    return scx_free(H(paginator), SCX_PAGINATOR);
}

// ---- asynchronous calls and completion queues (async.go) ----

void scx_done_invoke(uintptr_t fn, uintptr_t user, int code, uintptr_t result) {
    scx_library_thread = 1;
    ((smithycurl_done_fn)fn)((void *)user, (smithycurl_code)code, (smithycurl_result *)result);
}

int scx_eventfd_new(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void scx_eventfd_signal(int fd) {
    uint64_t one = 1;
    while (write(fd, &one, sizeof one) < 0 && errno == EINTR) {
    }
}

void scx_eventfd_drain(int fd) {
    uint64_t n;
    while (read(fd, &n, sizeof n) < 0 && errno == EINTR) {
    }
}

void scx_eventfd_close(int fd) { close(fd); }

smithycurl_code smithycurl_call_async(smithycurl_client *client, const char *operation, const char *input,
                                      size_t input_len, smithycurl_cancel_token *cancel, smithycurl_done_fn done,
                                      void *user_data) {
    ASYNC_PROLOGUE(!done, SMITHYCURL_E_INVALID_ARGUMENT);
    return scx_call_async(H(client), (char *)operation, (char *)input, input_len, H(cancel), (uintptr_t)done,
                          (uintptr_t)user_data, 0, 0, 0, NULL, 0, hints, threads);
}

smithycurl_code smithycurl_complete_async(smithycurl_client *client, smithycurl_result *result, smithycurl_done_fn done,
                                          void *user_data) {
    FORK_CHECK();
    if (!done) return SMITHYCURL_E_INVALID_ARGUMENT;
    return scx_complete_async(H(client), H(result), (uintptr_t)done, (uintptr_t)user_data);
}

smithycurl_code smithycurl_call_queued(smithycurl_client *client, const char *operation, const char *input,
                                       size_t input_len, smithycurl_cancel_token *cancel, smithycurl_queue *queue,
                                       void *tag) {
    ASYNC_PROLOGUE(!queue, SMITHYCURL_E_INVALID_HANDLE);
    return scx_call_async(H(client), (char *)operation, (char *)input, input_len, H(cancel), 0, 0, H(queue),
                          (uintptr_t)tag, 0, NULL, 0, hints, threads);
}

smithycurl_code smithycurl_paginator_next_queued(smithycurl_paginator *paginator, smithycurl_queue *queue, void *tag) {
    ASYNC_PROLOGUE(0, SMITHYCURL_OK); // the handles are checked in Go
    return scx_paginator_next_queued(H(paginator), H(queue), (uintptr_t)tag, hints, threads);
}

smithycurl_code smithycurl_queue_new(smithycurl_queue **out) {
    FORK_CHECK();
    if (!out) return SMITHYCURL_E_INVALID_ARGUMENT;
    uintptr_t h = 0;
    int rc = scx_queue_new(&h);
    if (rc == SMITHYCURL_OK) *out = (smithycurl_queue *)h;
    return rc;
}

smithycurl_code smithycurl_queue_fd(smithycurl_queue *queue, int *fd) {
    FORK_CHECK();
    if (!fd) return SMITHYCURL_E_INVALID_ARGUMENT;
    int v = -1;
    int rc = scx_queue_fd(H(queue), &v);
    if (rc == SMITHYCURL_OK) *fd = v;
    return rc;
}

static long long monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

// smithycurl_queue_next takes a completion from Go without waiting and,
// when none is there, waits in C (poll on the queue's eventfd, outside the
// Go runtime) until one may be.
smithycurl_code smithycurl_queue_next(smithycurl_queue *queue, long timeout_ms, void **tag, smithycurl_code *code,
                                      smithycurl_result **result) {
    if (tag) *tag = NULL;
    if (result) *result = NULL;
    FORK_CHECK();
    if (!tag || !code || !result) return SMITHYCURL_E_INVALID_ARGUMENT;
    int fd = -1, rc;
    long long deadline = 0;
    for (;;) {
        uintptr_t t = 0, r = 0;
        int c = 0;
        rc = scx_queue_pop(H(queue), &t, &c, &r);
        if (rc == SMITHYCURL_OK) {
            *tag = (void *)t;
            *code = (smithycurl_code)c;
            *result = (smithycurl_result *)r;
            return rc;
        }
        if (rc != SMITHYCURL_E_END || timeout_ms == 0) return rc;
        if (fd < 0) { // the first wait
            rc = scx_queue_fd(H(queue), &fd);
            if (rc != SMITHYCURL_OK) return rc;
            if (timeout_ms > 0) deadline = monotonic_ms() + timeout_ms;
        }
        int wait = -1;
        if (timeout_ms > 0) {
            long long left = deadline - monotonic_ms();
            if (left <= 0) return SMITHYCURL_E_END;
            wait = left > INT_MAX ? INT_MAX : (int)left;
        }
        // Readable, interrupted, or the fd closed by a queue_free racing
        // this call (POLLNVAL): the next pop tells which.
        struct pollfd p = {.fd = fd, .events = POLLIN};
        poll(&p, 1, wait);
    }
}

smithycurl_code smithycurl_queue_free(smithycurl_queue *queue) {
    FORK_CHECK();
    return scx_free(H(queue), SCX_QUEUE);
}

// ---- results ----

static int result_str(smithycurl_result *r, int field, const char **s, size_t *len) {
    FORK_CHECK();
    if (!s) return SMITHYCURL_E_INVALID_ARGUMENT;
    char *p = NULL;
    size_t n = 0;
    long long num = 0;
    int rc = scx_result_get(H(r), field, &p, &n, &num);
    if (rc != SMITHYCURL_OK) return rc;
    *s = p;
    if (len) *len = n;
    return rc;
}

static int result_num(smithycurl_result *r, int field, long long *num) {
    FORK_CHECK();
    char *p = NULL;
    size_t n = 0;
    return scx_result_get(H(r), field, &p, &n, num);
}

smithycurl_code smithycurl_result_code(smithycurl_result *r, smithycurl_code *code) {
    if (!code) return SMITHYCURL_E_INVALID_ARGUMENT;
    long long v = 0;
    int rc = result_num(r, SCX_RES_CODE, &v);
    if (rc == SMITHYCURL_OK) *code = (smithycurl_code)v;
    return rc;
}

smithycurl_code smithycurl_result_output(smithycurl_result *r, const char **json, size_t *len) {
    return result_str(r, SCX_RES_OUTPUT, json, len);
}

smithycurl_code smithycurl_result_error_kind(smithycurl_result *r, smithycurl_error_kind *kind) {
    if (!kind) return SMITHYCURL_E_INVALID_ARGUMENT;
    long long v = 0;
    int rc = result_num(r, SCX_RES_KIND, &v);
    if (rc == SMITHYCURL_OK) *kind = (smithycurl_error_kind)v;
    return rc;
}

smithycurl_code smithycurl_result_http_status(smithycurl_result *r, int *status) {
    if (!status) return SMITHYCURL_E_INVALID_ARGUMENT;
    long long v = 0;
    int rc = result_num(r, SCX_RES_STATUS, &v);
    if (rc == SMITHYCURL_OK) *status = (int)v;
    return rc;
}

smithycurl_code smithycurl_result_attempts(smithycurl_result *r, int *attempts) {
    if (!attempts) return SMITHYCURL_E_INVALID_ARGUMENT;
    long long v = 0;
    int rc = result_num(r, SCX_RES_ATTEMPTS, &v);
    if (rc == SMITHYCURL_OK) *attempts = (int)v;
    return rc;
}

smithycurl_code smithycurl_result_may_have_reached(smithycurl_result *r, int *reached) {
    if (!reached) return SMITHYCURL_E_INVALID_ARGUMENT;
    long long v = 0;
    int rc = result_num(r, SCX_RES_MAY_HAVE_REACHED, &v);
    if (rc == SMITHYCURL_OK) *reached = (int)v;
    return rc;
}

smithycurl_code smithycurl_result_error_shape(smithycurl_result *r, const char **shape_id) {
    return result_str(r, SCX_RES_SHAPE, shape_id, NULL);
}

smithycurl_code smithycurl_result_error_message(smithycurl_result *r, const char **message) {
    return result_str(r, SCX_RES_MESSAGE, message, NULL);
}

smithycurl_code smithycurl_result_error_members(smithycurl_result *r, const char **json, size_t *len) {
    return result_str(r, SCX_RES_MEMBERS, json, len);
}

smithycurl_code smithycurl_result_error_code(smithycurl_result *r, const char **code) {
    return result_str(r, SCX_RES_ERROR_CODE, code, NULL);
}

smithycurl_code smithycurl_result_request_id(smithycurl_result *r, const char **request_id) {
    return result_str(r, SCX_RES_REQUEST_ID, request_id, NULL);
}

smithycurl_code smithycurl_result_free(smithycurl_result *r) {
    FORK_CHECK();
    return scx_free(H(r), SCX_RESULT);
}

smithycurl_code smithycurl_result_new_input_error(smithycurl_code code, const char *operation, const char *message,
                                                  smithycurl_result **out) {
    if (out) *out = NULL;
    FORK_CHECK();
    if (!out || !operation || !message || code == SMITHYCURL_OK) return SMITHYCURL_E_INVALID_ARGUMENT;
    uintptr_t h = 0;
    int rc = scx_result_new_input_error(code, (char *)operation, (char *)message, &h);
    if (rc == SMITHYCURL_OK) *out = (smithycurl_result *)h;
    return rc;
}

// ---- stubs (stub.go) ----

smithycurl_code smithycurl_stubber_new(smithycurl_client *client, smithycurl_stubber **out) {
    if (out) *out = NULL;
    FORK_CHECK();
    if (!out) return SMITHYCURL_E_INVALID_ARGUMENT;
    uintptr_t h = 0;
    int rc = scx_stubber_new(H(client), &h);
    if (rc == SMITHYCURL_OK) *out = (smithycurl_stubber *)h;
    return rc;
}

smithycurl_code smithycurl_stubber_activate(smithycurl_stubber *s) {
    FORK_CHECK();
    return scx_stubber_activate(H(s), 1);
}

smithycurl_code smithycurl_stubber_deactivate(smithycurl_stubber *s) {
    FORK_CHECK();
    return scx_stubber_activate(H(s), 0);
}

smithycurl_code smithycurl_stubber_add_response(smithycurl_stubber *s, const char *operation, const char *output,
                                                const char *expected_input) {
    FORK_CHECK();
    return scx_stubber_add(H(s), (char *)operation, (char *)output, NULL, 0, (char *)expected_input);
}

smithycurl_code smithycurl_stubber_add_error(smithycurl_stubber *s, const char *operation,
                                             const char *error_shape, const char *members, int http_status,
                                             const char *expected_input) {
    FORK_CHECK();
    if (!error_shape) return SMITHYCURL_E_INVALID_ARGUMENT;
    return scx_stubber_add(H(s), (char *)operation, (char *)members, (char *)error_shape, http_status,
                           (char *)expected_input);
}

smithycurl_code smithycurl_stubber_pending(smithycurl_stubber *s, size_t *count) {
    FORK_CHECK();
    if (!count) return SMITHYCURL_E_INVALID_ARGUMENT;
    return scx_stubber_pending(H(s), count);
}

smithycurl_code smithycurl_stubber_done(smithycurl_stubber *s) {
    FORK_CHECK();
    return scx_stubber_done(H(s));
}

smithycurl_code smithycurl_stubber_errmsg(smithycurl_stubber *s, char **msg) {
    FORK_CHECK();
    return scx_errmsg(H(s), SCX_STUBBER, msg);
}

smithycurl_code smithycurl_stubber_free(smithycurl_stubber *s) {
    FORK_CHECK();
    return scx_free(H(s), SCX_STUBBER);
}

// ---- mock servers (mock.go) ----

smithycurl_code smithycurl_mock_start(smithycurl_model *model, const char *service_id,
                                      const smithycurl_mock_options *options, smithycurl_mock **out,
                                      const char **url) {
    if (out) *out = NULL;
    if (url) *url = NULL;
    FORK_CHECK();
    smithycurl_mock_options o = SMITHYCURL_MOCK_OPTIONS_INIT;
    if (options) {
        // Fields are only ever added at the end: a smaller size is an older caller's.
        if (options->size < offsetof(smithycurl_mock_options, max_body) + sizeof(long long) ||
            options->size > sizeof o)
            return SMITHYCURL_E_INVALID_ARGUMENT;
        memcpy(&o, options, options->size);
    }
    uintptr_t h = 0;
    char *u = NULL;
    int rc = scx_mock_start(H(model), (char *)service_id, (char *)o.fixtures_file, (char *)o.fixtures_json, o.seed,
                            o.max_body, out != NULL, &h, &u);
    if (rc == SMITHYCURL_OK) {
        *out = (smithycurl_mock *)h;
        if (url) *url = u;
    }
    return rc;
}

smithycurl_code smithycurl_mock_stop(smithycurl_mock *mock) {
    FORK_CHECK();
    return scx_mock_stop(H(mock));
}

void *scx_alloc(size_t n) { return malloc(n ? n : 1); }
