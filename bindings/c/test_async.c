// Tests of the asynchronous calls (smithycurl_call_async, the completion
// queue) against go-httpbin; run with the others by bindings/c/run.sh (the
// runner and helpers are in test_smithycurl.c, see ctest.h).
//
//   SMITHYCURL_TEST_ASYNC_N        calls in flight in the cancel and free
//                                  tests (default 1000)
//   SMITHYCURL_TEST_ASYNC_PENDING  calls pending on the slow server (default
//                                  10000)

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ctest.h"
#include "smithycurl.h"

// ---- helpers ----

static int env_int(const char *name, int def) {
    const char *s = getenv(name);
    int n = s ? atoi(s) : def;
    return n > 0 ? n : def;
}

static int async_n(void) { return env_int("SMITHYCURL_TEST_ASYNC_N", 1000); }

// A slot records the completions of one call (callback or queue form).
struct slot {
    int hits;             // completions seen: must end at 1
    smithycurl_code code; // of the first
    char *output;         // malloc'd copy of the output (success), or NULL
    char *message;        // malloc'd copy of the error message, or NULL
    smithycurl_error_kind kind;
    int result_null;
    pthread_t thread; // where the callback ran
};

// A tally counts completions, for waiting on them.
struct tally {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;
    struct slot *slots;
};

static void tally_init(struct tally *t, struct slot *slots) {
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    t->done = 0;
    t->slots = slots;
}

static void tally_destroy(struct tally *t) {
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
}

// record stores a completion in s, frees r and counts it on t.
static void record(struct tally *t, struct slot *s, smithycurl_code code, smithycurl_result *r) {
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

// wait_done waits up to secs for t to count n completions; returns the count.
static int wait_done(struct tally *t, int n, double secs) {
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

// A callback's user_data: the tally and the slot.
struct cb_arg {
    struct tally *t;
    struct slot *s;
};

static void on_done(void *user, smithycurl_code code, smithycurl_result *r) {
    struct cb_arg *a = user;
    record(a->t, a->s, code, r);
}

// drain takes every completion of q into the slots (tags are slot
// pointers) until want have come or secs ran out; returns how many came.
static int drain(smithycurl_queue *q, struct tally *t, int want, double secs) {
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

// check_slots checks that each of the n slots completed exactly once with
// code; it frees their outputs and messages.
static void check_slots_at(const char *file, int line, struct slot *s, int n, smithycurl_code code) {
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
#define check_slots(s, n, code) check_slots_at(__FILE__, __LINE__, s, n, code)

// A call that stays in flight 10 s (httpbin's longest delay).
static const char *slow_in = "{\"seconds\": 10}";

// settle gives calls just started time to be on the wire (or in the
// engine's queue): 300 ms, longer under valgrind.
static void settle(void) {
    int ms = 300 * slow;
    usleep((useconds_t)(ms > 2500 ? 2500 : ms) * 1000);
}

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

// ---- tests ----

// The callback form: outputs, errors that smithycurl_call reports with a
// result, the callback's thread, and the input copied before the call
// returns.
void test_async_callback(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    enum { N = 20 };
    struct slot s[N + 2];
    memset(s, 0, sizeof s);
    struct tally t;
    tally_init(&t, s);
    struct cb_arg args[N + 2];
    for (int i = 0; i < N; i++) {
        char in[96];
        int n = snprintf(in, sizeof in, "{\"id\": %d, \"test\": \"cb-%d\"}", i, i);
        args[i] = (struct cb_arg){&t, &s[i]};
        CHECK_RC(smithycurl_call_async(c, "Anything", in, (size_t)n, NULL, on_done, &args[i]), SMITHYCURL_OK);
        memset(in, 'x', sizeof in); // the library has its own copy
    }
    args[N] = (struct cb_arg){&t, &s[N]};
    CHECK_RC(smithycurl_call_async(c, "NoSuchOp", NULL, 0, NULL, on_done, &args[N]), SMITHYCURL_OK);
    args[N + 1] = (struct cb_arg){&t, &s[N + 1]};
    CHECK_RC(smithycurl_call_async(c, "Anything", "{\"id\":", 6, NULL, on_done, &args[N + 1]), SMITHYCURL_OK);
    CHECK(wait_done(&t, N + 2, 20.0 * slow) == N + 2);
    for (int i = 0; i < N; i++) {
        char want[64];
        snprintf(want, sizeof want, "\"json\":{\"id\":%d,\"test\":\"cb-%d\"}", i, i);
        CHECK_RC(s[i].code, SMITHYCURL_OK);
        CHECK_CONTAINS(s[i].output ? squash(s[i].output) : NULL, want);
        CHECK(!pthread_equal(s[i].thread, pthread_self()));
    }
    CHECK_RC(s[N].code, SMITHYCURL_E_NOT_FOUND);
    CHECK(!s[N].result_null && s[N].kind == SMITHYCURL_KIND_USAGE);
    CHECK_RC(s[N + 1].code, SMITHYCURL_E_INVALID_JSON);
    CHECK(!s[N + 1].result_null);
    usleep(50 * 1000);
    check_slots(s, N, SMITHYCURL_OK);
    CHECK_CONTAINS(s[N].message, "NoSuchOp");
    check_slots(&s[N], 1, SMITHYCURL_E_NOT_FOUND);
    check_slots(&s[N + 1], 1, SMITHYCURL_E_INVALID_JSON);
    tally_destroy(&t);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// The queue form: outputs by tag, the fd readable exactly while
// completions wait (level-triggered), queue_next's timeout.
void test_async_queue(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    smithycurl_queue *q = NULL;
    CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
    int fd = -1;
    CHECK_RC(smithycurl_queue_fd(q, &fd), SMITHYCURL_OK);
    CHECK(fd >= 0);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    CHECK(poll(&p, 1, 0) == 0); // empty: not readable

    enum { N = 50 };
    struct slot s[N];
    memset(s, 0, sizeof s);
    struct tally t;
    tally_init(&t, s);
    for (int i = 0; i < N; i++) {
        char in[64];
        int n = snprintf(in, sizeof in, "{\"id\": %d}", 1000 + i);
        CHECK_RC(smithycurl_call_queued(c, "Anything", in, (size_t)n, NULL, q, &s[i]), SMITHYCURL_OK);
    }
    CHECK(drain(q, &t, N, 20.0 * slow) == N);
    for (int i = 0; i < N; i++) {
        char want[32];
        snprintf(want, sizeof want, "\"json\":{\"id\":%d}", 1000 + i);
        CHECK_CONTAINS(s[i].output ? squash(s[i].output) : NULL, want);
    }
    check_slots(s, N, SMITHYCURL_OK);
    CHECK(poll(&p, 1, 0) == 0); // all taken: not readable

    // Two completions: readable after taking the first, not after the second.
    struct slot two[2];
    memset(two, 0, sizeof two);
    t.slots = two;
    t.done = 0;
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, q, &two[0]), SMITHYCURL_OK);
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, q, &two[1]), SMITHYCURL_OK);
    void *tag = NULL;
    smithycurl_code code = SMITHYCURL_E_INTERNAL;
    smithycurl_result *r = NULL;
    // Wait for both to be on the queue: no limit on the first take, then
    // poll until the second is there too.
    CHECK_RC(smithycurl_queue_next(q, -1, &tag, &code, &r), SMITHYCURL_OK);
    CHECK(tag == &two[0] || tag == &two[1]);
    if (tag) record(&t, tag, code, r);
    CHECK(poll(&p, 1, 10000 * slow) == 1);
    CHECK_RC(smithycurl_queue_next(q, 0, &tag, &code, &r), SMITHYCURL_OK);
    if (tag) record(&t, tag, code, r);
    check_slots(two, 2, SMITHYCURL_OK);
    CHECK(poll(&p, 1, 0) == 0);

    // Nothing in flight: END at once with 0, after the timeout with one.
    tag = (void *)1;
    r = (smithycurl_result *)1;
    CHECK_RC(smithycurl_queue_next(q, 0, &tag, &code, &r), SMITHYCURL_E_END);
    CHECK(tag == NULL && r == NULL);
    double t0 = now_s();
    CHECK_RC(smithycurl_queue_next(q, 150, &tag, &code, &r), SMITHYCURL_E_END);
    double took = now_s() - t0;
    CHECK(took >= 0.14 && took < 2.0 * slow);

    // A waiting queue_next wakes when a completion arrives.
    t0 = now_s();
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, q, (void *)&t), SMITHYCURL_OK);
    CHECK_RC(smithycurl_queue_next(q, 10000 * slow, &tag, &code, &r), SMITHYCURL_OK);
    CHECK(tag == (void *)&t && code == SMITHYCURL_OK && r != NULL);
    CHECK(now_s() - t0 < 5.0 * slow);
    smithycurl_result_free(r);

    tally_destroy(&t);
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_OK);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// N calls in flight on a server that never answers, cancelled at once by
// one token:
// each completes with SMITHYCURL_E_CANCELLED exactly once, half by
// callback, half by queue, promptly.
void test_async_cancel_many(void) {
    smithycurl_model *m = load_httpbin();
    struct hole hole;
    if (hole_open(&hole) != 0) return;
    smithycurl_client *c = new_client(m, hole.url, NULL);
    smithycurl_queue *q = NULL;
    CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
    smithycurl_cancel_token *tok = NULL;
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
    int n = async_n();
    struct slot *s = calloc((size_t)n, sizeof *s);
    struct cb_arg *args = calloc((size_t)n, sizeof *args);
    struct tally t;
    tally_init(&t, s);
    int queued = 0;
    for (int i = 0; i < n; i++) {
        if (i % 2) {
            CHECK_RC(smithycurl_call_queued(c, "Delay", slow_in, strlen(slow_in), tok, q, &s[i]), SMITHYCURL_OK);
            queued++;
        } else {
            args[i] = (struct cb_arg){&t, &s[i]};
            CHECK_RC(smithycurl_call_async(c, "Delay", slow_in, strlen(slow_in), tok, on_done, &args[i]), SMITHYCURL_OK);
        }
    }
    settle();
    CHECK(t.done == 0);
    double t0 = now_s();
    CHECK_RC(smithycurl_cancel_token_cancel(tok), SMITHYCURL_OK);
    CHECK(drain(q, &t, queued, 4.0 * slow) == queued);
    CHECK(wait_done(&t, n, 4.0 * slow) == n);
    double took = now_s() - t0;
    CHECK(took < 4.0 * slow);
    usleep(100 * 1000);
    CHECK(wait_done(&t, n + 1, 0) == n); // no second completion
    int not_cancelled_kind = 0;
    for (int i = 0; i < n; i++) not_cancelled_kind += s[i].hits && s[i].kind != SMITHYCURL_KIND_CANCELLED;
    CHECK(not_cancelled_kind == 0);
    check_slots(s, n, SMITHYCURL_E_CANCELLED);
    printf("    %d calls cancelled in %.3f s\n", n, took);
    // Calls with the cancelled token complete CANCELLED at once.
    struct slot late = {0};
    struct cb_arg la = {&t, &late};
    CHECK_RC(smithycurl_call_async(c, "GetIp", NULL, 0, tok, on_done, &la), SMITHYCURL_OK);
    CHECK(wait_done(&t, n + 1, 5.0 * slow) == n + 1);
    check_slots(&late, 1, SMITHYCURL_E_CANCELLED);
    tally_destroy(&t);
    free(s);
    free(args);
    CHECK_RC(smithycurl_cancel_token_free(tok), SMITHYCURL_OK);
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_OK);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
    hole_close(&hole);
}

// Freeing a client with N calls in flight (callbacks and a queue, on a
// server that never answers): each
// completes with SMITHYCURL_E_CANCELLED exactly once; the queue and other
// clients are unaffected; the freed client's handle is refused.
void test_async_client_free(void) {
    smithycurl_model *m = load_httpbin();
    struct hole hole;
    if (hole_open(&hole) != 0) return;
    smithycurl_client *c = new_client(m, hole.url, NULL);
    smithycurl_client *other = new_client(m, NULL, NULL);
    smithycurl_queue *q = NULL;
    CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
    int n = async_n();
    struct slot *s = calloc((size_t)n + 1, sizeof *s);
    struct cb_arg *args = calloc((size_t)n, sizeof *args);
    struct tally t;
    tally_init(&t, s);
    int queued = 0;
    for (int i = 0; i < n; i++) {
        if (i % 2) {
            CHECK_RC(smithycurl_call_queued(c, "Delay", slow_in, strlen(slow_in), NULL, q, &s[i]), SMITHYCURL_OK);
            queued++;
        } else {
            args[i] = (struct cb_arg){&t, &s[i]};
            CHECK_RC(smithycurl_call_async(c, "Delay", slow_in, strlen(slow_in), NULL, on_done, &args[i]), SMITHYCURL_OK);
        }
    }
    // One call of another client on the same queue: it must succeed.
    CHECK_RC(smithycurl_call_queued(other, "Delay", "{\"seconds\": 1}", 14, NULL, q, &s[n]), SMITHYCURL_OK);
    settle();
    double t0 = now_s();
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    CHECK(now_s() - t0 < 1.0 * slow); // it does not wait for the calls
    CHECK(drain(q, &t, queued + 1, 10.0 * slow) == queued + 1);
    CHECK(wait_done(&t, n + 1, 5.0 * slow) == n + 1);
    usleep(100 * 1000);
    CHECK(wait_done(&t, n + 2, 0) == n + 1);
    CHECK_RC(s[n].code, SMITHYCURL_OK);
    int unexplained = 0;
    for (int i = 0; i < n; i++) unexplained += !s[i].message || !strstr(s[i].message, "the client was freed");
    CHECK(unexplained == 0);
    check_slots(s, n, SMITHYCURL_E_CANCELLED);
    free(s[n].output);
    CHECK_RC(smithycurl_call_async(c, "GetIp", NULL, 0, NULL, on_done, &args[0]), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, q, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(wait_done(&t, n + 2, 0.1) == n + 1); // refused calls never complete
    tally_destroy(&t);
    free(s);
    free(args);
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_OK);
    smithycurl_client_free(other);
    smithycurl_model_free(m);
    hole_close(&hole);
}

// The trace of a client's requests: requests sent, and responses that
// failed (trace_count).
static int trace_requests, trace_failures;
static pthread_mutex_t trace_mu = PTHREAD_MUTEX_INITIALIZER;

static void trace_count(void *user, const char *ev, size_t len) {
    (void)user;
    (void)len;
    pthread_mutex_lock(&trace_mu);
    if (strstr(ev, "\"phase\":\"request\"")) trace_requests++;
    if (strstr(ev, "\"phase\":\"response\"") && strstr(ev, "\"error\":")) trace_failures++;
    pthread_mutex_unlock(&trace_mu);
}

static void trace_now(int *requests, int *failures) {
    pthread_mutex_lock(&trace_mu);
    *requests = trace_requests;
    *failures = trace_failures;
    pthread_mutex_unlock(&trace_mu);
}

// Freeing a queue with calls in flight (on a server that never answers)
// and completions not taken: the calls are aborted (their transfers fail
// at once: the trace sees them), the library frees every result
// (valgrind: no leak), a callback call of the same client is not
// cancelled, and the clients go on working.
void test_async_queue_free(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    struct hole hole;
    if (hole_open(&hole) != 0) return;
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_trace(o, trace_count, NULL), SMITHYCURL_OK);
    smithycurl_client *hc = new_client(m, hole.url, o);
    smithycurl_options_free(o);
    smithycurl_queue *q = NULL;
    CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
    int fd = -1;
    CHECK_RC(smithycurl_queue_fd(q, &fd), SMITHYCURL_OK);
    // Completions left on the queue, untaken.
    for (int i = 0; i < 5; i++) CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, q, NULL), SMITHYCURL_OK);
    // Calls in flight.
    int n = 200;
    for (int i = 0; i < n; i++)
        CHECK_RC(smithycurl_call_queued(hc, "Delay", slow_in, strlen(slow_in), NULL, q, NULL), SMITHYCURL_OK);
    // A callback call of the same client, in flight until its token is cancelled.
    smithycurl_cancel_token *tok = NULL;
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
    struct slot cb = {0};
    struct tally t;
    tally_init(&t, &cb);
    struct cb_arg a = {&t, &cb};
    CHECK_RC(smithycurl_call_async(hc, "Delay", slow_in, strlen(slow_in), tok, on_done, &a), SMITHYCURL_OK);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    CHECK(poll(&p, 1, 10000 * slow) == 1); // some GetIp completed
    settle();
    // The requests on the wire (the callback call's among them, unless the
    // engine holds it back with the calls beyond its transfer limit) end
    // when the queue is freed; those that had not started never do.
    int sent = 0, failed = 0;
    trace_now(&sent, &failed);
    CHECK(sent > 0 && failed == 0);
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_OK);
    double t0 = now_s();
    int cb_sent = 1; // how many of sent may be the callback call's (still in flight)
    while (failed < sent - cb_sent && now_s() - t0 < 5.0 * slow) {
        usleep(10 * 1000);
        trace_now(&sent, &failed);
    }
    usleep(200 * 1000);
    int sent2 = 0, failed2 = 0;
    trace_now(&sent2, &failed2);
    CHECK(failed2 >= sent - cb_sent && failed2 <= sent); // aborted, all but maybe the callback call
    CHECK(sent2 - failed2 <= cb_sent);                   // nothing of the queue's left on the wire
    CHECK(wait_done(&t, 1, 0) == 0);
    void *tag;
    smithycurl_code code;
    smithycurl_result *r;
    CHECK_RC(smithycurl_queue_next(q, 0, &tag, &code, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_queue_fd(q, &fd), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, q, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_cancel_token_cancel(tok), SMITHYCURL_OK);
    CHECK(wait_done(&t, 1, 5.0 * slow) == 1);
    check_slots(&cb, 1, SMITHYCURL_E_CANCELLED);
    char *out = call_ok(c, "GetIp", NULL);
    free(out);
    tally_destroy(&t);
    CHECK_RC(smithycurl_cancel_token_free(tok), SMITHYCURL_OK);
    smithycurl_client_free(hc);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
    hole_close(&hole);
}

// Callbacks that call back into the library: a chain of calls each
// started from the completion of the one before (with a synchronous call
// inside the callback too), a callback that frees the client of the other
// calls in flight, and one that frees a queue.
struct chain {
    struct tally *t;
    struct slot *s;
    smithycurl_client *c;
    int left;       // calls still to start from callbacks
    int sync_ok;    // synchronous calls made in callbacks that succeeded
    int start_fail; // smithycurl_call_async failures inside callbacks
};

static void chain_done(void *user, smithycurl_code code, smithycurl_result *r) {
    struct chain *ch = user;
    CHECK_RC(code, SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_free(r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_free(r), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_result *sr = NULL;
    if (smithycurl_call(ch->c, "GetIp", NULL, 0, NULL, &sr) == SMITHYCURL_OK) ch->sync_ok++;
    smithycurl_result_free(sr);
    if (ch->left > 0) {
        ch->left--;
        char in[32];
        int n = snprintf(in, sizeof in, "{\"id\": %d}", ch->left);
        if (smithycurl_call_async(ch->c, "Anything", in, (size_t)n, NULL, chain_done, ch) != SMITHYCURL_OK) {
            ch->start_fail++;
            record(ch->t, ch->s, SMITHYCURL_E_INTERNAL, NULL);
        }
        return;
    }
    record(ch->t, ch->s, code, NULL);
}

struct freer {
    struct tally *t;
    struct slot *s;
    smithycurl_client *c;
};

static void free_client_done(void *user, smithycurl_code code, smithycurl_result *r) {
    struct freer *f = user;
    CHECK_RC(smithycurl_client_free(f->c), SMITHYCURL_OK);
    record(f->t, f->s, code, r);
}

struct qfreer {
    struct tally *t;
    struct slot *s;
    smithycurl_queue *q;
};

static void free_queue_done(void *user, smithycurl_code code, smithycurl_result *r) {
    struct qfreer *f = user;
    CHECK_RC(smithycurl_queue_free(f->q), SMITHYCURL_OK);
    record(f->t, f->s, code, r);
}

void test_async_reentrant(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    struct slot s[12];
    memset(s, 0, sizeof s);
    struct tally t;
    tally_init(&t, s);
    struct chain ch = {&t, &s[0], c, 5, 0, 0};
    CHECK_RC(smithycurl_call_async(c, "GetIp", NULL, 0, NULL, chain_done, &ch), SMITHYCURL_OK);
    CHECK(wait_done(&t, 1, 20.0 * slow) == 1);
    CHECK(ch.left == 0 && ch.sync_ok == 6 && ch.start_fail == 0);
    check_slots(&s[0], 1, SMITHYCURL_OK);

    // A callback frees the client: the client's 10 slow calls complete
    // CANCELLED, each once.
    smithycurl_client *c2 = new_client(m, NULL, NULL);
    t.done = 0;
    t.slots = &s[1];
    struct cb_arg args[10];
    for (int i = 0; i < 10; i++) {
        args[i] = (struct cb_arg){&t, &s[2 + i]};
        CHECK_RC(smithycurl_call_async(c2, "Delay", slow_in, strlen(slow_in), NULL, on_done, &args[i]), SMITHYCURL_OK);
    }
    struct freer f = {&t, &s[1], c2};
    CHECK_RC(smithycurl_call_async(c2, "GetIp", NULL, 0, NULL, free_client_done, &f), SMITHYCURL_OK);
    CHECK(wait_done(&t, 11, 10.0 * slow) == 11);
    usleep(50 * 1000);
    check_slots(&s[1], 1, SMITHYCURL_OK);
    check_slots(&s[2], 10, SMITHYCURL_E_CANCELLED);

    // A callback frees a queue with calls in flight on it (to a server
    // that never answers): they are cancelled and their results freed.
    struct hole hole;
    if (hole_open(&hole) == 0) {
        smithycurl_client *hc = new_client(m, hole.url, NULL);
        smithycurl_queue *q = NULL;
        CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
        for (int i = 0; i < 10; i++)
            CHECK_RC(smithycurl_call_queued(hc, "Delay", slow_in, strlen(slow_in), NULL, q, NULL), SMITHYCURL_OK);
        t.done = 0;
        memset(&s[0], 0, sizeof s[0]);
        t.slots = &s[0];
        struct qfreer f2 = {&t, &s[0], q};
        CHECK_RC(smithycurl_call_async(c, "GetIp", NULL, 0, NULL, free_queue_done, &f2), SMITHYCURL_OK);
        CHECK(wait_done(&t, 1, 10.0 * slow) == 1);
        check_slots(&s[0], 1, SMITHYCURL_OK);
        CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_E_INVALID_HANDLE);
        smithycurl_client_free(hc);
        hole_close(&hole);
    }
    tally_destroy(&t);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// A slow server, 10,000 calls pending (more than the engine's transfer
// limit: most wait their turn) and a total timeout of 500 ms: every call
// completes with SMITHYCURL_E_TIMEOUT, once, in bounded time.
void test_async_slow_timeout(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_timeout_ms(o, 500), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(o, 0, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_async_limits(o, 100, 16), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, o);
    smithycurl_options_free(o);
    smithycurl_queue *q = NULL;
    CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
    int n = env_int("SMITHYCURL_TEST_ASYNC_PENDING", 10000);
    struct slot *s = calloc((size_t)n, sizeof *s);
    struct tally t;
    tally_init(&t, s);
    double t0 = now_s();
    for (int i = 0; i < n; i++)
        CHECK_RC(smithycurl_call_queued(c, "Delay", "{\"seconds\": 3}", 14, NULL, q, &s[i]), SMITHYCURL_OK);
    CHECK(drain(q, &t, n, 20.0 * slow) == n);
    double took = now_s() - t0;
    CHECK(took < 20.0 * slow);
    CHECK(took >= 0.5); // none before its time: those that waited for a turn count from when they were made
    int bad_kind = 0;
    for (int i = 0; i < n; i++) bad_kind += s[i].kind != SMITHYCURL_KIND_TIMEOUT;
    CHECK(bad_kind == 0);
    check_slots(s, n, SMITHYCURL_E_TIMEOUT);
    printf("    %d pending calls timed out in %.3f s\n", n, took);
    tally_destroy(&t);
    free(s);
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_OK);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// fork() with calls in flight: the child cannot start calls or read the
// queue (SMITHYCURL_E_FORKED) and gets none of the parent's completions;
// it then execs (valgrind: no leak in either process); the parent's calls
// complete as usual.
void test_async_fork(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    smithycurl_queue *q = NULL;
    CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
    enum { N = 20 };
    struct slot s[N];
    memset(s, 0, sizeof s);
    struct cb_arg args[N];
    struct tally t;
    tally_init(&t, s);
    const char *in = "{\"seconds\": 2}";
    for (int i = 0; i < N; i++) {
        if (i % 2) {
            CHECK_RC(smithycurl_call_queued(c, "Delay", in, strlen(in), NULL, q, &s[i]), SMITHYCURL_OK);
        } else {
            args[i] = (struct cb_arg){&t, &s[i]};
            CHECK_RC(smithycurl_call_async(c, "Delay", in, strlen(in), NULL, on_done, &args[i]), SMITHYCURL_OK);
        }
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        // The child has one thread: it reads the tally without its lock (a
        // thread of the parent may have held it at the fork).
        int done0 = t.done;
        void *tag = (void *)1;
        smithycurl_code code = SMITHYCURL_OK;
        smithycurl_result *r = (smithycurl_result *)1;
        smithycurl_queue *q2 = NULL;
        int fd = -1, failed = 0; // failed: the first check that failed
        if (smithycurl_call_async(c, "GetIp", NULL, 0, NULL, on_done, &args[0]) != SMITHYCURL_E_FORKED) failed = 1;
        else if (smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, q, NULL) != SMITHYCURL_E_FORKED) failed = 2;
        else if (smithycurl_queue_next(q, 100, &tag, &code, &r) != SMITHYCURL_E_FORKED || tag || r) failed = 3;
        else if (smithycurl_queue_fd(q, &fd) != SMITHYCURL_E_FORKED || fd != -1) failed = 4;
        else if (smithycurl_queue_new(&q2) != SMITHYCURL_E_FORKED || q2) failed = 5;
        else if (smithycurl_queue_free(q) != SMITHYCURL_E_FORKED) failed = 6;
        else if (smithycurl_options_set_async_limits(NULL, 1, 1) != SMITHYCURL_E_FORKED) failed = 7;
        // No callback of the parent's calls runs in the child.
        usleep(1500 * 1000);
        if (!failed && t.done != done0) failed = 8;
        // exec, as the header advises: the memory of the parent's calls in
        // flight, copied into the child, goes with it (after _exit,
        // valgrind would count it as the child's leak).
        char status[8];
        snprintf(status, sizeof status, "%d", failed);
        execl("/bin/sh", "sh", "-c", "exit \"$1\"", "sh", status, (char *)NULL);
        _exit(100);
    }
    CHECK(pid > 0);
    CHECK(drain(q, &t, N / 2, 20.0 * slow) == N / 2);
    CHECK(wait_done(&t, N, 20.0 * slow) == N);
    check_slots(s, N, SMITHYCURL_OK);
    int st = 0;
    double t0 = now_s();
    while (pid > 0 && waitpid(pid, &st, WNOHANG) == 0) {
        if (now_s() - t0 > 10.0 * slow) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            failf(__FILE__, __LINE__, "forked child hung");
            break;
        }
        usleep(10000);
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        failf(__FILE__, __LINE__, "child: %s %d", WIFEXITED(st) ? "failed check" : "killed by signal",
              WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    // The parent goes on as before.
    struct slot after = {0};
    t.slots = &after;
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, q, &after), SMITHYCURL_OK);
    CHECK(drain(q, &t, 1, 10.0 * slow) == 1);
    check_slots(&after, 1, SMITHYCURL_OK);
    tally_destroy(&t);
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_OK);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// NULL, freed and wrong-type handles and bad arguments: refused at once,
// and a refused call never completes.
void test_async_bad_args(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    smithycurl_queue *q = NULL;
    CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
    struct slot s = {0};
    struct tally t;
    tally_init(&t, &s);
    struct cb_arg a = {&t, &s};
    smithycurl_cancel_token *tok = NULL;
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
    CHECK_RC(smithycurl_cancel_token_free(tok), SMITHYCURL_OK);

    CHECK_RC(smithycurl_call_async(NULL, "GetIp", NULL, 0, NULL, on_done, &a), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_async((smithycurl_client *)q, "GetIp", NULL, 0, NULL, on_done, &a),
             SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_async(c, "GetIp", NULL, 0, tok, on_done, &a), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_async(c, NULL, NULL, 0, NULL, on_done, &a), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_call_async(c, "GetIp", NULL, 3, NULL, on_done, &a), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_call_async(c, "GetIp", NULL, 0, NULL, NULL, &a), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, NULL, &s), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, (smithycurl_queue *)c, &s),
             SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_queued(NULL, "GetIp", NULL, 0, NULL, q, &s), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_queued(c, NULL, NULL, 0, NULL, q, &s), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 1, NULL, q, &s), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, tok, q, &s), SMITHYCURL_E_INVALID_HANDLE);

    CHECK_RC(smithycurl_queue_new(NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    int fd = -7;
    CHECK_RC(smithycurl_queue_fd(q, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_queue_fd(NULL, &fd), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_queue_fd((smithycurl_queue *)c, &fd), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(fd == -7);
    void *tag = (void *)1;
    smithycurl_code code = SMITHYCURL_OK;
    smithycurl_result *r = (smithycurl_result *)1;
    CHECK_RC(smithycurl_queue_next(q, 0, NULL, &code, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_RC(smithycurl_queue_next(q, 0, &tag, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_queue_next(q, 0, &tag, &code, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(tag == NULL);
    CHECK_RC(smithycurl_queue_next(NULL, 0, &tag, &code, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_queue_next((smithycurl_queue *)c, -1, &tag, &code, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_queue_free(NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_queue_free((smithycurl_queue *)c), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_result_free((smithycurl_result *)q), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_client_free((smithycurl_client *)q), SMITHYCURL_E_INVALID_HANDLE);

    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_async_limits(o, -1, 0), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_async_limits(o, 0, -1), SMITHYCURL_E_INVALID_ARGUMENT);
    char *msg = NULL;
    CHECK_RC(smithycurl_options_errmsg(o, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "async limits");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_options_set_async_limits(o, 0, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_async_limits(o, 4, 2), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_async_limits(NULL, 4, 2), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_options_set_async_limits((smithycurl_options *)q, 4, 2), SMITHYCURL_E_INVALID_HANDLE);
    // A client with limits works, by either form.
    smithycurl_client *lc = new_client(m, NULL, o);
    smithycurl_options_free(o);
    CHECK_RC(smithycurl_call_queued(lc, "GetIp", NULL, 0, NULL, q, &s), SMITHYCURL_OK);
    CHECK(drain(q, &t, 1, 10.0 * slow) == 1);
    check_slots(&s, 1, SMITHYCURL_OK);
    smithycurl_client_free(lc);

    // The queue freed: stale; the refused calls above never completed.
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_OK);
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_queue_next(q, 0, &tag, &code, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_queued(c, "GetIp", NULL, 0, NULL, q, &s), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(wait_done(&t, 2, 0.2) == 1);
    tally_destroy(&t);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// ---- smithycurl_paginator_next_queued ----

// qnext takes one completion of q (waiting up to 10 s, times slow); the
// result goes to *r (the caller frees it). SMITHYCURL_E_END of queue_next
// (nothing in time) shows as -1.
static int qnext(smithycurl_queue *q, void *want_tag, smithycurl_result **r) {
    void *tag = NULL;
    smithycurl_code code = SMITHYCURL_OK;
    *r = NULL;
    int rc = smithycurl_queue_next(q, 10000L * slow, &tag, &code, r);
    if (rc != SMITHYCURL_OK) return -1;
    CHECK(tag == want_tag);
    return code;
}

static smithycurl_client *todo_client(const char *url) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, "examples/todo"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    CHECK_RC(smithycurl_client_new(m, "smithycurl.examples.todo#Todos", url, NULL, &c), SMITHYCURL_OK);
    smithycurl_model_free(m);
    return c;
}

// Pages and items of the Todos service's ListTodos on a completion queue:
// in order, then E_END with a NULL result; a failure with its result; one
// next at a time; cancel token, paginator free and queue free while a next
// is pending (a server that never answers): CANCELLED, once.
void test_async_paginator(void) {
    const char *url = getenv("SMITHYCURL_TODO_URL");
    if (!url) {
        if (getenv("CI")) failf(__FILE__, __LINE__, "SMITHYCURL_TODO_URL is needed in CI");
        else printf("    skipped: SMITHYCURL_TODO_URL not set\n");
        return;
    }
    smithycurl_client *c = todo_client(url);
    for (int i = 0; i < 5; i++) {
        char in[64];
        snprintf(in, sizeof in, "{\"title\": \"qpg-%d\"}", i);
        free(call_ok(c, "CreateTodo", in));
    }
    smithycurl_queue *q = NULL;
    CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
    smithycurl_paginator *pg = NULL;
    smithycurl_result *r = NULL;
    const char *json = NULL;
    size_t n = 0;

    // Pages in order, each checked against the blocking paginator's.
    smithycurl_paginator *sync = NULL;
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 2, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 2, 0, NULL, &sync), SMITHYCURL_OK);
    int pages = 0, code, seen = 0;
    for (; pages < 100; pages++) {
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, &pages), SMITHYCURL_OK);
        code = qnext(q, &pages, &r);
        const char *want = NULL;
        smithycurl_result *e = NULL;
        int wrc = smithycurl_paginator_next(sync, &want, NULL, &e);
        smithycurl_result_free(e);
        if (code != SMITHYCURL_OK) break;
        CHECK_RC(wrc, SMITHYCURL_OK);
        CHECK_RC(smithycurl_result_output(r, &json, &n), SMITHYCURL_OK);
        CHECK(json && strlen(json) == n && want && strcmp(json, want) == 0);
        for (const char *p = json; (p = strstr(p, "\"title\":\"qpg-")); p++) seen++;
        smithycurl_result_free(r);
    }
    CHECK_RC(code, SMITHYCURL_E_END);
    CHECK(r == NULL && pages >= 3 && seen == 5);
    CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
    CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_END);
    CHECK(r == NULL);
    smithycurl_paginator_free(pg);
    smithycurl_paginator_free(sync);

    // Items, cut at max_items.
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", NULL, 0, 3, 2, SMITHYCURL_PAGINATE_ITEMS, NULL, &pg),
             SMITHYCURL_OK);
    int items = 0;
    while (items < 100) {
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
        if ((code = qnext(q, NULL, &r)) != SMITHYCURL_OK) break;
        items++;
        CHECK_RC(smithycurl_result_output(r, &json, &n), SMITHYCURL_OK);
        CHECK(json && json[0] == '{');
        smithycurl_result_free(r);
    }
    CHECK_RC(code, SMITHYCURL_E_END);
    CHECK(items == 3 && r == NULL);
    smithycurl_paginator_free(pg);

    // A failure, with its result; then the pages end.
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{\"limit\": \"2\"}", 14, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
    CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_USAGE);
    CHECK(r != NULL);
    CHECK_CONTAINS(message_of(r), "limit");
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
    CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_END);
    smithycurl_paginator_free(pg);

    // Bad arguments.
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_next_queued(NULL, q, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_next_queued(pg, NULL, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_next_queued((smithycurl_paginator *)q, q, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_next_queued(pg, (smithycurl_queue *)pg, NULL), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_paginator_free(pg);
    CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_client_free(c);

    // Cancelled while pending, on a server that never answers.
    struct hole hole;
    if (hole_open(&hole) == 0) {
        smithycurl_client *hc = todo_client(hole.url);
        smithycurl_cancel_token *tok = NULL;
        void *vtag = NULL;
        smithycurl_code qcode = SMITHYCURL_OK;
        CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
        // The cancel token: CANCELLED once; then the pages end.
        CHECK_RC(smithycurl_paginator_new(hc, "ListTodos", "{}", 2, 0, 0, 0, tok, &pg), SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, &hole), SMITHYCURL_OK);
        // One next at a time: another one, queued or blocking, is refused.
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_E_USAGE);
        smithycurl_result *e = NULL;
        CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &e), SMITHYCURL_E_USAGE);
        CHECK(e == NULL && json == NULL);
        usleep(50 * 1000);
        CHECK_RC(smithycurl_cancel_token_cancel(tok), SMITHYCURL_OK);
        CHECK_RC(qnext(q, &hole, &r), SMITHYCURL_E_CANCELLED);
        smithycurl_result_free(r);
        CHECK_RC(smithycurl_queue_next(q, 100, &vtag, &qcode, &r), SMITHYCURL_E_END); // once
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
        CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_END);
        smithycurl_paginator_free(pg);
        smithycurl_cancel_token_free(tok);
        // Freeing the paginator: CANCELLED once, nothing leaks.
        CHECK_RC(smithycurl_paginator_new(hc, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, &hole), SMITHYCURL_OK);
        usleep(50 * 1000);
        CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);
        CHECK_RC(qnext(q, &hole, &r), SMITHYCURL_E_CANCELLED);
        CHECK_CONTAINS(message_of(r), "cancelled");
        smithycurl_result_free(r);
        CHECK_RC(smithycurl_queue_next(q, 100, &vtag, &qcode, &r), SMITHYCURL_E_END);
        // Freeing the queue: the pending next is cancelled, its result freed
        // by the library; the paginator's next works on another queue.
        smithycurl_queue *q2 = NULL;
        CHECK_RC(smithycurl_queue_new(&q2), SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_new(hc, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_next_queued(pg, q2, NULL), SMITHYCURL_OK);
        usleep(50 * 1000);
        CHECK_RC(smithycurl_queue_free(q2), SMITHYCURL_OK);
        int left = 100;
        while (smithycurl_paginator_next_queued(pg, q, NULL) == SMITHYCURL_E_USAGE && left-- > 0) usleep(10 * 1000);
        CHECK(left >= 0);
        CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_END); // the cancelled next ended the pages
        smithycurl_paginator_free(pg);
        smithycurl_client_free(hc);
        hole_close(&hole);
    }
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_OK);
}
