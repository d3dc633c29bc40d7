// Asynchronous calls: the callback and queue forms, callbacks that call
// back into the library, bad arguments.

#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctest.h"

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

// ---- callbacks that start the next call do not raise GOMAXPROCS ----

// The chain of test_async_threads' child: each completion starts the next
// call from its callback (on a library thread) until total have started.
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    smithycurl_client *c;
    int started, done, total, failed;
} relay = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0, 0};

static void relay_done(void *user, smithycurl_code code, smithycurl_result *r) {
    (void)user;
    smithycurl_result_free(r);
    pthread_mutex_lock(&relay.mu);
    relay.failed += code != SMITHYCURL_OK;
    relay.done++;
    int more = relay.started < relay.total;
    relay.started += more;
    pthread_cond_signal(&relay.cv);
    pthread_mutex_unlock(&relay.mu);
    if (more && smithycurl_call_async(relay.c, "GetIp", NULL, 0, NULL, relay_done, NULL) != SMITHYCURL_OK) {
        pthread_mutex_lock(&relay.mu);
        relay.failed++;
        relay.done++;
        pthread_cond_signal(&relay.cv);
        pthread_mutex_unlock(&relay.mu);
    }
}

// Asynchronous calls started from callbacks, which run on the Go runtime's
// threads, do not raise GOMAXPROCS: those threads have their P (counted,
// each raised it, up to 64 Ps on 2 cores, each a thread spinning for
// work). Run in a fresh process (this program again, GOMAXPROCS unset)
// whose runtime reports its GOMAXPROCS (GODEBUG schedtrace): at most that
// of the one calling thread, the number of CPUs or 2.
void test_async_threads(void) {
    if (getenv("SMITHYCURL_TEST_RELAY_CHILD")) {
        smithycurl_model *m = load_httpbin();
        relay.c = new_client(m, NULL, NULL);
        relay.total = 2000;
        enum { WINDOW = 50 };
        relay.started = WINDOW;
        for (int i = 0; i < WINDOW; i++)
            CHECK_RC(smithycurl_call_async(relay.c, "GetIp", NULL, 0, NULL, relay_done, NULL), SMITHYCURL_OK);
        pthread_mutex_lock(&relay.mu);
        double end = now_s() + 60.0 * slow;
        while (relay.done < relay.total && now_s() < end) {
            pthread_mutex_unlock(&relay.mu);
            usleep(10 * 1000);
            pthread_mutex_lock(&relay.mu);
        }
        CHECK(relay.done == relay.total && relay.failed == 0);
        pthread_mutex_unlock(&relay.mu);
        smithycurl_client_free(relay.c);
        smithycurl_model_free(m);
        usleep(300 * 1000); // a last schedtrace line (every 100 ms)
        return;
    }
    if (getenv("GOMAXPROCS")) return; // pinned (valgrind): nothing to see
    char self[4096], cmd[4200];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    CHECK(len > 0);
    if (len <= 0) return;
    self[len] = 0;
    snprintf(cmd, sizeof cmd,
             "SMITHYCURL_TEST_RELAY_CHILD=1 GODEBUG=cgocheck=1,schedtrace=100 '%s' async_threads 2>&1 >/dev/null", self);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    if (!p) return;
    char line[512];
    int most = -1, n;
    while (fgets(line, sizeof line, p)) {
        const char *at = strstr(line, "gomaxprocs=");
        if (at && sscanf(at, "gomaxprocs=%d", &n) == 1 && n > most) most = n;
    }
    int status = pclose(p);
    CHECK(status == 0); // the child's calls all succeeded
    cpu_set_t cpus;
    int ncpu = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
    int allowed = ncpu > 2 ? ncpu : 2;
    CHECK(most > 0);
    if (most > allowed) {
        printf("    GOMAXPROCS went up to %d (at most %d: %d CPUs, one calling thread)\n", most, allowed, ncpu);
        CHECK(most <= allowed);
    }
}
