// The C API tests' runner and shared helpers (ctest.h); the tests are in
// bindings/c/test_*.c. They run against the real library and local
// services (testing/cmd/testserver), started by bindings/c/run.sh (make
// ctest), which sets:
//
//   SMITHYCURL_HTTPBIN_URL   base URL of go-httpbin
//   SMITHYCURL_PIZZA_URL     base URL of alloy's PizzaAdminService (and SMITHYCURL_SHARED)
//   SMITHYCURL_KV_URL        base URL of the RPC v2 key-value store (testing/servers/kvserver)
//   SMITHYCURL_MODEL_DIR     examples/httpbin (the httpbin model)
//   SMITHYCURL_EVENTS_URL    base URL of the event-stream Ticker service
//   SMITHYCURL_TODO_URL      base URL of the Todos service (paginators)
//   SMITHYCURL_BLOBS_URL     base URL of the blob service (testing/servers/blobserver)
//   SMITHYCURL_SIGV4A_URL    base URL of the fake SigV4a endpoint (testing/servers/sigv4aserver)
//   SMITHYCURL_S3PART_URL    base URL of the fake S3 of transfers (testing/servers/s3partserver)
//   SMITHYCURL_S3EXPRESS_URL base URL of the fake S3 Express endpoint (testing/servers/s3expressserver)
//   SMITHYCURL_ONCE_URL      the fault-injecting proxy of testing/servers/onceserver
//   SMITHYCURL_TEST_CALLS    calls per thread in the 8-thread test (500)
//   SMITHYCURL_TEST_SLOW     time multiplier (valgrind runs are slower)
//   SMITHYCURL_TEST_ASYNC_N        calls in flight in the async cancel and
//                                  free tests (1000)
//   SMITHYCURL_TEST_ASYNC_PENDING  calls pending on the slow server (10000)
//
// The runner is ours: one line per test ("ok name" or "FAIL name" after the
// failed checks), then "N passed, N failed" as the last line.
//
//   build/ctest [test-name-filter]

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ctest.h"

// ---- the runner (ctest.h: CHECK, CHECK_RC, CHECK_CONTAINS) ----

int failures; // failed checks in the current test
static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;

void failf(const char *file, int line, const char *fmt, ...) {
    pthread_mutex_lock(&fail_mu);
    if (failures < 20) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stdout, "    %s:%d: ", file, line);
        vfprintf(stdout, fmt, ap);
        fputc('\n', stdout);
        va_end(ap);
    }
    failures++;
    pthread_mutex_unlock(&fail_mu);
}

// ---- helpers ----

const char *httpbin_url;
const char *model_dir;
int slow = 1;

const char *need_env_at(const char *file, int line, const char *name) {
    const char *v = getenv(name);
    if (!v) failf(file, line, "%s is needed (bindings/c/run.sh sets it)", name);
    return v;
}

double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

smithycurl_model *load_httpbin(void) { return load_model(model_dir, NULL, 0); }

smithycurl_model *load_model(const char *path_or_name, const char *source, size_t len) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    if (source)
        CHECK_RC(smithycurl_loader_add_source(ld, path_or_name, source, len), SMITHYCURL_OK);
    else
        CHECK_RC(smithycurl_loader_add_path(ld, path_or_name), SMITHYCURL_OK);
    int rc = smithycurl_loader_load(ld, &m);
    if (rc != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_loader_errmsg(ld, &msg);
        failf(__FILE__, __LINE__, "load %s: %s", path_or_name, msg ? msg : "?");
        smithycurl_free(msg);
    }
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
    return m;
}

// load_shared loads the model file at $SMITHYCURL_SHARED/rel; NULL (after
// reporting) when it cannot.
smithycurl_model *load_shared(const char *rel) {
    const char *shared = need_env("SMITHYCURL_SHARED");
    if (!shared) return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", shared, rel);
    return load_model(path, NULL, 0);
}

// aws_client makes a client of m's only service at url, signed with SigV4
// by key and secret in region; NULL (after reporting) when it cannot.
smithycurl_client *aws_client(smithycurl_model *m, const char *url, const char *key, const char *secret,
                              const char *region) {
    smithycurl_options *o = NULL;
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_aws_sigv4(o, key, secret, NULL, region), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, url, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    return c;
}

// new_client makes a client for httpbin (or endpoint) with fast retries off
// unless the options say otherwise.
smithycurl_client *new_client(smithycurl_model *m, const char *endpoint, smithycurl_options *o) {
    smithycurl_client *c = NULL;
    int rc = smithycurl_client_new(m, "smithycurl.examples.httpbin#HttpBin", endpoint ? endpoint : httpbin_url, o, &c);
    if (rc != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_model_errmsg(m, &msg);
        failf(__FILE__, __LINE__, "client_new: %s: %s", smithycurl_strerror(rc), msg ? msg : "?");
        smithycurl_free(msg);
    }
    return c;
}

// call_ok calls op and returns a malloc'd copy of the output ("" on failure,
// after reporting it).
char *call_ok_at(const char *file, int line, smithycurl_client *c, const char *op, const char *in) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call(c, op, in, in ? strlen(in) : 0, NULL, &r);
    const char *out = "";
    size_t n = 0;
    if (rc != SMITHYCURL_OK) {
        const char *msg = "";
        if (r) smithycurl_result_error_message(r, &msg);
        failf(file, line, "%s(%s) = %s: %s", op, in ? in : "", smithycurl_strerror(rc), msg);
    } else if (smithycurl_result_output(r, &out, &n) != SMITHYCURL_OK || strlen(out) != n) {
        failf(file, line, "%s: output length mismatch", op);
    }
    char *copy = strdup(out);
    smithycurl_result_free(r);
    return copy;
}

// call_err checks that op fails with code and kind, and returns the result
// (the caller frees it).
smithycurl_result *call_err_at(const char *file, int line, smithycurl_client *c, const char *op,
                                      const char *in, smithycurl_cancel_token *tok, int code,
                                      smithycurl_error_kind kind) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call(c, op, in, in ? strlen(in) : 0, tok, &r);
    if (rc != code) {
        const char *msg = "";
        if (r) smithycurl_result_error_message(r, &msg);
        failf(file, line, "%s(%s) = %d (%s), want %d (%s); message: %s", op, in ? in : "", rc,
              smithycurl_strerror(rc), code, smithycurl_strerror(code), msg);
    }
    if (!r) {
        failf(file, line, "%s: no result", op);
        return NULL;
    }
    smithycurl_error_kind k = SMITHYCURL_KIND_NONE;
    smithycurl_code stored = SMITHYCURL_OK;
    CHECK_RC(smithycurl_result_error_kind(r, &k), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_code(r, &stored), SMITHYCURL_OK);
    if (k != kind) failf(file, line, "%s: kind %s, want %s", op, smithycurl_error_kind_name(k), smithycurl_error_kind_name(kind));
    if ((int)stored != rc) failf(file, line, "%s: result code %d != call code %d", op, stored, rc);
    const char *out = "x";
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_E_NO_OUTPUT);
    return r;
}

// squash removes JSON whitespace outside strings, in place (go-httpbin
// echoes a request's JSON body as it was sent, spaces and newlines
// included).
char *squash(char *s) {
    char *w = s;
    int in_str = 0;
    for (char *r = s; *r; r++) {
        if (in_str) {
            if (*r == '\\' && r[1]) *w++ = *r++;
            else if (*r == '"') in_str = 0;
        } else if (*r == '"') {
            in_str = 1;
        } else if (*r == ' ' || *r == '\n' || *r == '\r' || *r == '\t') {
            continue;
        }
        *w++ = *r;
    }
    *w = 0;
    return s;
}

const char *message_of(smithycurl_result *r) {
    const char *s = NULL;
    if (!r || smithycurl_result_error_message(r, &s) != SMITHYCURL_OK) return "";
    return s;
}

void *cancel_later(void *arg) {
    struct canceller *cn = arg;
    usleep(cn->delay_ms * 1000);
    CHECK_RC(smithycurl_cancel_token_cancel(cn->tok), SMITHYCURL_OK);
    return NULL;
}

// ---- asynchronous calls (ctest.h) ----

int env_int(const char *name, int def) {
    const char *s = getenv(name);
    int n = s ? atoi(s) : def;
    return n > 0 ? n : def;
}

int async_n(void) { return env_int("SMITHYCURL_TEST_ASYNC_N", 1000); }

void tally_init(struct tally *t, struct slot *slots) {
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    t->done = 0;
    t->slots = slots;
}

void tally_destroy(struct tally *t) {
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
}

void record(struct tally *t, struct slot *s, smithycurl_code code, smithycurl_result *r) {
    char *out = NULL, *msg = NULL;
    smithycurl_error_kind kind = SMITHYCURL_KIND_NONE;
    const char *json = NULL, *m = NULL;
    size_t n = 0;
    if (r && smithycurl_result_output(r, &json, &n) == SMITHYCURL_OK) out = strndup(json, n);
    if (r && smithycurl_result_error_message(r, &m) == SMITHYCURL_OK && *m) msg = strdup(m);
    if (r) smithycurl_result_error_kind(r, &kind);
    smithycurl_result_free(r);
    pthread_mutex_lock(&t->mu);
    if (s->hits++ == 0) {
        s->code = code;
        s->output = out;
        s->message = msg;
        s->kind = kind;
        s->result_null = r == NULL;
        s->thread = pthread_self();
        out = msg = NULL;
    }
    t->done++;
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    free(out);
    free(msg);
}

int wait_done(struct tally *t, int n, double secs) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long long ns = ts.tv_nsec + (long long)((secs - (long long)secs) * 1e9);
    ts.tv_sec += (time_t)secs + ns / 1000000000;
    ts.tv_nsec = ns % 1000000000;
    pthread_mutex_lock(&t->mu);
    while (t->done < n && pthread_cond_timedwait(&t->cv, &t->mu, &ts) != ETIMEDOUT) {
    }
    int done = t->done;
    pthread_mutex_unlock(&t->mu);
    return done;
}

void on_done(void *user, smithycurl_code code, smithycurl_result *r) {
    struct cb_arg *a = user;
    record(a->t, a->s, code, r);
}

int drain(smithycurl_queue *q, struct tally *t, int want, double secs) {
    int fd = -1;
    CHECK_RC(smithycurl_queue_fd(q, &fd), SMITHYCURL_OK);
    double end = now_s() + secs;
    int got = 0;
    while (got < want && now_s() < end) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int ready = poll(&p, 1, 100);
        if (ready < 0 && errno != EINTR) {
            failf(__FILE__, __LINE__, "poll: %s", strerror(errno));
            break;
        }
        void *tag = NULL;
        smithycurl_code code = SMITHYCURL_OK;
        smithycurl_result *r = NULL;
        int rc;
        while ((rc = smithycurl_queue_next(q, 0, &tag, &code, &r)) == SMITHYCURL_OK) {
            if (!tag) { // every call of these tests has a slot
                failf(__FILE__, __LINE__, "a completion without a tag");
                smithycurl_result_free(r);
                continue;
            }
            record(t, tag, code, r);
            got++;
        }
        CHECK_RC(rc, SMITHYCURL_E_END);
        if (ready > 0 && got == 0) failf(__FILE__, __LINE__, "the fd was readable with no completion");
    }
    return got;
}

void check_slots_at(const char *file, int line, struct slot *s, int n, smithycurl_code code) {
    int bad_hits = 0, bad_code = 0, first = -1;
    for (int i = 0; i < n; i++) {
        if (s[i].hits != 1) bad_hits++;
        if (s[i].hits >= 1 && s[i].code != code) {
            if (first < 0) first = i;
            bad_code++;
        }
        free(s[i].output);
        free(s[i].message);
        s[i].output = s[i].message = NULL;
    }
    if (bad_hits) failf(file, line, "%d of %d calls did not complete exactly once", bad_hits, n);
    if (bad_code)
        failf(file, line, "%d of %d calls completed with another code than %s (call %d: %s)", bad_code, n,
              smithycurl_strerror(code), first, smithycurl_strerror(s[first].code));
}

const char *slow_in = "{\"seconds\": 10}";

void settle(void) {
    int ms = 300 * slow;
    usleep((useconds_t)(ms > 2500 ? 2500 : ms) * 1000);
}

// ---- a server that never answers (ctest.h) ----

int hole_open(struct hole *h) {
    h->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t n = sizeof a;
    if (h->fd < 0 || bind(h->fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(h->fd, 4096) != 0 ||
        getsockname(h->fd, (struct sockaddr *)&a, &n) != 0) {
        failf(__FILE__, __LINE__, "listen on 127.0.0.1: %s", strerror(errno));
        return -1;
    }
    snprintf(h->url, sizeof h->url, "http://127.0.0.1:%d", ntohs(a.sin_port));
    return 0;
}

void hole_close(struct hole *h) {
    if (h->fd >= 0) close(h->fd);
}

// A client of the blob service (testing/servers/blobserver) at
// SMITHYCURL_BLOBS_URL; NULL after a failed check.
smithycurl_client *blobs_client(smithycurl_model **m) {
    const char *url = need_env("SMITHYCURL_BLOBS_URL");
    smithycurl_loader *ld = NULL;
    smithycurl_client *c = NULL;
    *m = NULL;
    if (!url) return NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, "testing/servers/blobserver/blobs.smithy"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_timeout_ms(o, 120000L * slow), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(*m, NULL, url, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    return c;
}

// ---- the tests, in the order they run (each test_NAME is in a test_*.c) ----

#define TESTS(X) \
    X(version) X(load) X(load_errors) X(snapshot) X(model_cache) X(operations) X(error_kinds) X(output_types) X(cancel) \
    X(free_in_flight) X(options) X(credentials) X(identity) X(sigv4a) X(presign) X(s3_transfer) X(s3_transfer_stream) X(s3express) X(host_prefix) X(endpoint_rules) X(bad_handles) \
    X(threads) X(exactly_once) X(fork) X(pizza) X(rpcv2) X(exact) X(unknown_union) X(wait) X(event_stream) X(event_stream_rpc) \
    X(streaming) X(streaming_retry) X(streaming_memory) X(payload) X(payload_blob) X(payload_async) X(checksums) X(sdk_options) X(paginator) X(async_paginator) \
    X(async_callback) X(async_queue) X(async_cancel_many) X(async_client_free) X(async_queue_free) \
    X(async_reentrant) X(async_threads) X(async_slow_timeout) X(async_fork) X(async_bad_args) X(stub) X(mock) X(mock_kv) X(interceptors) X(custom_auth) X(trace_spans) X(endpoint_discovery)

#define DECLARE(name) void test_##name(void);
TESTS(DECLARE)

static const struct test {
    const char *name;
    void (*fn)(void);
} tests[] = {
#define ENTRY(name) {#name, test_##name},
    TESTS(ENTRY)
};

int main(int argc, char **argv) {
    httpbin_url = getenv("SMITHYCURL_HTTPBIN_URL");
    model_dir = getenv("SMITHYCURL_MODEL_DIR");
    if (!model_dir) model_dir = "examples/httpbin";
    if (getenv("SMITHYCURL_TEST_SLOW")) slow = atoi(getenv("SMITHYCURL_TEST_SLOW"));
    if (slow < 1) slow = 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    int passed = 0, failed = 0;
    if (!httpbin_url) {
        printf("SMITHYCURL_HTTPBIN_URL is not set (run bindings/c/run.sh)\n");
        printf("0 passed, 1 failed\n");
        return 1;
    }
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        failures = 0;
        double t0 = now_s();
        tests[i].fn();
        if (failures) {
            printf("FAIL %s (%d failed checks, %.2f s)\n", tests[i].name, failures, now_s() - t0);
            failed++;
        } else {
            printf("ok   %s (%.2f s)\n", tests[i].name, now_s() - t0);
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
