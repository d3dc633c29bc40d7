// Exactly once, proven, from C through the real library: non-idempotent
// calls (Once's Add, a counter per id) from 4 threads through testserver's
// fault-injecting proxy (testing/servers/onceserver: resets, truncated
// bodies, garbage, delays past the timeout, 500/503 and throttling, before
// and after forwarding). No call may be executed twice, and a call executed
// once may fail only with an error that says the request may have reached
// the server (smithycurl_result_may_have_reached).

#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

struct once_call {
    smithycurl_code rc;
    char *output;  // malloc'd, success
    char *message; // malloc'd, failure
    int kind, attempts, reached;
};

struct once_run {
    smithycurl_client *c;
    struct once_call *calls;
    int n, next;
    pthread_mutex_t mu;
};

static void *once_worker(void *arg) {
    struct once_run *run = arg;
    for (;;) {
        pthread_mutex_lock(&run->mu);
        int i = run->next < run->n ? run->next++ : -1;
        pthread_mutex_unlock(&run->mu);
        if (i < 0) return NULL;
        char in[64];
        snprintf(in, sizeof in, "{\"id\": \"c-%d\"}", i);
        struct once_call *oc = &run->calls[i];
        smithycurl_result *r = NULL;
        oc->rc = smithycurl_call(run->c, "Add", in, strlen(in), NULL, &r);
        if (oc->rc == SMITHYCURL_OK) {
            const char *out = NULL;
            smithycurl_result_output(r, &out, NULL);
            oc->output = strdup(out ? out : "");
        } else if (r) {
            smithycurl_error_kind kind = SMITHYCURL_KIND_NONE;
            smithycurl_result_error_kind(r, &kind);
            oc->kind = (int)kind;
            smithycurl_result_attempts(r, &oc->attempts);
            CHECK_RC(smithycurl_result_may_have_reached(r, &oc->reached), SMITHYCURL_OK);
            oc->message = strdup(message_of(r));
        }
        smithycurl_result_free(r);
    }
}

// once_count is the counter of id "c-i" (Count is never faulted).
static int once_count(smithycurl_client *c, int i) {
    char in[64];
    snprintf(in, sizeof in, "{\"id\": \"c-%d\"}", i);
    char *out = call_ok(c, "Count", in);
    const char *p = out ? strstr(out, "\"count\":") : NULL;
    int n = p ? atoi(p + 8) : -1;
    free(out);
    return n;
}

void test_exactly_once(void) {
    const char *url = need_env("SMITHYCURL_ONCE_URL");
    if (!url) return;
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, "testing/servers/onceserver/once.smithy"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    if (!m) return;
    smithycurl_options *o = NULL;
    smithycurl_client *c = NULL, *chk = NULL;
    // Settle and Count (never faulted) with the default timeout: time to
    // spare on a loaded machine.
    CHECK_RC(smithycurl_client_new(m, "smithycurl.once#Once", url, NULL, &chk), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    // The proxy's delays are 700 ms: past this timeout natively; under
    // valgrind (slow) calls get the time they need.
    CHECK_RC(smithycurl_options_set_timeout_ms(o, 400L * slow), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, "smithycurl.once#Once", url, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    if (!c || !chk) {
        smithycurl_client_free(c);
        smithycurl_client_free(chk);
        smithycurl_model_free(m);
        return;
    }

    struct once_run run = {.c = c, .n = slow > 1 ? 30 : 200};
    pthread_mutex_init(&run.mu, NULL);
    run.calls = calloc((size_t)run.n, sizeof *run.calls);
    pthread_t th[4];
    for (int t = 0; t < 4; t++) pthread_create(&th[t], NULL, once_worker, &run);
    for (int t = 0; t < 4; t++) pthread_join(th[t], NULL);

    // Every delayed request has reached the counter, or never will.
    char *faults = call_ok(chk, "Settle", NULL);
    int ok = 0, failed = 0, ran = 0;
    for (int i = 0; i < run.n; i++) {
        struct once_call *oc = &run.calls[i];
        int n = once_count(chk, i);
        if (n > 1) failf(__FILE__, __LINE__, "call %d was executed %d times: %s", i, n, oc->message ? oc->message : "ok");
        if (oc->rc == SMITHYCURL_OK) {
            ok++;
            if (n != 1 || !oc->output || !strstr(oc->output, "\"count\":1"))
                failf(__FILE__, __LINE__, "call %d succeeded with %s, the counter is %d", i, oc->output, n);
        } else {
            failed++;
            CHECK(oc->attempts <= 3);
            if (n == 1) {
                ran++;
                if (!oc->reached)
                    failf(__FILE__, __LINE__, "call %d was executed, but its error says it did not reach: %s", i,
                          oc->message);
            }
            if (oc->kind == SMITHYCURL_KIND_TRANSPORT || oc->kind == SMITHYCURL_KIND_TIMEOUT) {
                int says = oc->message && strstr(oc->message, "may have reached the server") != NULL;
                if (says != oc->reached)
                    failf(__FILE__, __LINE__, "call %d: may_have_reached %d, message %s", i, oc->reached, oc->message);
            }
        }
        free(oc->output);
        free(oc->message);
    }
    CHECK(ok > 0);
    printf("     exactly once: %d calls, %d succeeded, %d failed (%d of them executed); %s\n", run.n, ok, failed, ran,
           faults ? faults : "");
    free(faults);
    free(run.calls);
    pthread_mutex_destroy(&run.mu);

    // A success, and a failure that did not reach, say 0.
    smithycurl_result *r = NULL;
    CHECK_RC(smithycurl_call(chk, "Count", "{\"id\": \"c-0\"}", 13, NULL, &r), SMITHYCURL_OK);
    int reached = -1;
    CHECK_RC(smithycurl_result_may_have_reached(r, &reached), SMITHYCURL_OK);
    CHECK(reached == 0);
    CHECK_RC(smithycurl_result_may_have_reached(r, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_result_free(r);
    r = call_err(c, "Add", "{}", NULL, SMITHYCURL_E_VALIDATION, SMITHYCURL_KIND_VALIDATION);
    reached = -1;
    CHECK_RC(smithycurl_result_may_have_reached(r, &reached), SMITHYCURL_OK);
    CHECK(reached == 0);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_result_may_have_reached(NULL, &reached), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_client_free(c);
    smithycurl_client_free(chk);
    smithycurl_model_free(m);
}
