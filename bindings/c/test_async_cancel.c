// Asynchronous calls in flight ended by a cancel token, a client or queue
// free, a timeout; and fork() with calls in flight.

#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctest.h"

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
        CHECK_RC(smithycurl_call_queued(c, "Delay", "{\"seconds\": 10}", 15, NULL, q, &s[i]), SMITHYCURL_OK);
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
