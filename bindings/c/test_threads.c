// Calls across threads: cancelling, freeing a client in flight, 8 threads
// on one client, fork().

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

void test_cancel(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    smithycurl_cancel_token *tok = NULL;
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);

    // An unused token does nothing.
    char *out = NULL;
    smithycurl_result *r = NULL;
    CHECK_RC(smithycurl_call(c, "GetIp", NULL, 0, tok, &r), SMITHYCURL_OK);
    smithycurl_result_free(r);

    struct canceller cn = {tok, 200 * slow};
    pthread_t th;
    pthread_create(&th, NULL, cancel_later, &cn);
    double t0 = now_s();
    r = call_err(c, "Delay", "{\"seconds\": 5}", tok, SMITHYCURL_E_CANCELLED, SMITHYCURL_KIND_CANCELLED);
    double took = now_s() - t0;
    CHECK(took < 2.0 * slow);
    smithycurl_result_free(r);
    pthread_join(th, NULL);

    // A cancelled token fails later calls at once; cancelling twice is fine.
    CHECK_RC(smithycurl_cancel_token_cancel(tok), SMITHYCURL_OK);
    r = call_err(c, "GetIp", NULL, tok, SMITHYCURL_E_CANCELLED, SMITHYCURL_KIND_CANCELLED);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_cancel_token_free(tok), SMITHYCURL_OK);
    CHECK_RC(smithycurl_cancel_token_free(tok), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_cancel_token_cancel(tok), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call(c, "GetIp", NULL, 0, tok, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(r == NULL);
    out = call_ok(c, "GetIp", NULL); // the client is unaffected
    free(out);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

struct in_flight {
    smithycurl_client *c;
    int rc;
};

static void *delayed_call(void *arg) {
    struct in_flight *f = arg;
    smithycurl_result *r = NULL;
    f->rc = smithycurl_call(f->c, "Delay", "{\"seconds\": 5}", 14, NULL, &r);
    smithycurl_result_free(r);
    return NULL;
}

// Freeing a client cancels the calls in flight on other threads. The call
// goes to a server that never answers, and the client is freed once its
// connection is in the server's backlog: the call is then certainly in
// flight, and only the free can end it.
void test_free_in_flight(void) {
    smithycurl_model *m = load_httpbin();
    struct hole hole;
    if (hole_open(&hole) != 0) {
        smithycurl_model_free(m);
        return;
    }
    smithycurl_client *c = new_client(m, hole.url, NULL);
    struct in_flight f = {c, -1};
    pthread_t th;
    pthread_create(&th, NULL, delayed_call, &f);
    struct pollfd p = {.fd = hole.fd, .events = POLLIN};
    CHECK(poll(&p, 1, 10000 * slow) == 1); // the call connected
    double t0 = now_s();
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    pthread_join(th, NULL);
    CHECK(now_s() - t0 < 2.0 * slow);
    CHECK_RC(f.rc, SMITHYCURL_E_CANCELLED);
    hole_close(&hole);
    smithycurl_model_free(m);
}

// ---- 8 threads x N calls on one client ----

struct worker {
    smithycurl_client *c;
    int id, calls, bad;
};

static void *work(void *arg) {
    struct worker *w = arg;
    char in[96], want[64];
    for (int i = 0; i < w->calls; i++) {
        int id = w->id * 1000000 + i;
        int n = snprintf(in, sizeof in, "{\"id\": %d, \"test\": \"t%d\"}", id, w->id);
        smithycurl_result *r = NULL;
        int rc = smithycurl_call(w->c, "Anything", in, (size_t)n, NULL, &r);
        const char *out = NULL;
        size_t len = 0;
        char *copy = NULL;
        snprintf(want, sizeof want, "\"json\":{\"id\":%d,\"test\":\"t%d\"}", id, w->id);
        if (rc != SMITHYCURL_OK || smithycurl_result_output(r, &out, &len) != SMITHYCURL_OK ||
            strlen(out) != len || !strstr(squash(copy = strdup(out)), want)) {
            if (w->bad++ < 3)
                failf(__FILE__, __LINE__, "thread %d call %d: %s %.200s", w->id, i, smithycurl_strerror(rc),
                      out ? out : message_of(r));
        }
        free(copy);
        smithycurl_result_free(r);
    }
    return NULL;
}

void test_threads(void) {
    int calls = 500;
    const char *env = getenv("SMITHYCURL_TEST_CALLS");
    if (env) calls = atoi(env);
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    enum { T = 8 };
    pthread_t th[T];
    struct worker w[T];
    double t0 = now_s();
    for (int i = 0; i < T; i++) {
        w[i] = (struct worker){c, i + 1, calls, 0};
        pthread_create(&th[i], NULL, work, &w[i]);
    }
    int bad = 0;
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        bad += w[i].bad;
    }
    double took = now_s() - t0;
    CHECK(bad == 0);
    CHECK(took < 60.0 * slow);
    printf("    %d threads x %d calls: %.2f s, %.0f calls/s\n", T, calls, took, T * calls / took);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// After fork(), the child gets SMITHYCURL_E_FORKED at once; the parent is
// unaffected.
void test_fork(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        smithycurl_result *r = (smithycurl_result *)1;
        smithycurl_loader *ld = NULL;
        int ok = smithycurl_call(c, "GetIp", NULL, 0, NULL, &r) == SMITHYCURL_E_FORKED && r == NULL &&
                 smithycurl_loader_new(&ld) == SMITHYCURL_E_FORKED &&
                 smithycurl_client_free(c) == SMITHYCURL_E_FORKED &&
                 strcmp(smithycurl_version(), SMITHYCURL_VERSION) == 0;
        _exit(ok ? 0 : 1);
    }
    CHECK(pid > 0);
    int st = 0;
    // Bounded wait: a hang in the child is a failure, not a stuck suite.
    double t0 = now_s();
    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (now_s() - t0 > 10.0 * slow) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            failf(__FILE__, __LINE__, "forked child hung");
            break;
        }
        usleep(10000);
    }
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *out = call_ok(c, "GetIp", NULL);
    free(out);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
