// Waiters (smithycurl_wait).

#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

// Waiters added to the httpbin model with `apply`: TestIs succeeds when
// go-httpbin echoes the input's test (inputOutput) for id 1, fails on test
// "failed" (with the acceptor's message), and never matches otherwise;
// StatusServerFailure succeeds on the ServerFailure error (errorType) and
// fails on a success.
static const char waiters_src[] =
    "$version: \"2\"\n"
    "namespace smithycurl.examples.httpbin\n"
    "apply Anything @smithy.waiters#waitable(\n"
    "    TestIs: { minDelay: 1, acceptors: [\n"
    "        { state: \"failure\", message: \"join(' ', ['test is', json.test])\",\n"
    "          matcher: { output: { path: \"json.test\", comparator: \"stringEquals\", expected: \"failed\" } } }\n"
    "        { state: \"success\", matcher: { inputOutput: {\n"
    "            path: \"input.test == output.json.test && input.id == `1`\", comparator: \"booleanEquals\", expected: \"true\" } } }\n"
    "    ] }\n"
    ")\n"
    "apply Status @smithy.waiters#waitable(\n"
    "    StatusServerFailure: { acceptors: [\n"
    "        { state: \"success\", matcher: { errorType: \"ServerFailure\" } }\n"
    "        { state: \"failure\", matcher: { success: true } }\n"
    "    ] }\n"
    ")\n";

static smithycurl_result *wait_rc_at(const char *file, int line, smithycurl_client *c, const char *waiter,
                                     const char *in, long long max_wait_ms, smithycurl_cancel_token *tok, int want) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_wait(c, waiter, in, in ? strlen(in) : 0, max_wait_ms, tok, &r);
    if (rc != want) {
        failf(file, line, "wait %s(%s) = %d (%s), want %d (%s); message: %s", waiter, in ? in : "", rc,
              smithycurl_strerror(rc), want, smithycurl_strerror(want), message_of(r));
    }
    if (!r) failf(file, line, "wait %s: no result", waiter);
    return r;
}
#define wait_rc(c, w, in, ms, tok, want) wait_rc_at(__FILE__, __LINE__, c, w, in, ms, tok, want)

void test_wait(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, model_dir), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "waiters.smithy", waiters_src, strlen(waiters_src)), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    if (!m) return;
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_waiter_delays(o, -1, 0), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_waiter_delays(o, 50, 20), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_waiter_delays(o, 20, 50), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(o, 0, 0), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, o);
    smithycurl_client *slow_c = new_client(m, NULL, NULL); // the model's delays: 1 s to 120 s
    smithycurl_options_free(o);

    // Success: the output of the call that matched.
    smithycurl_result *r = wait_rc(c, "TestIs", "{\"id\": 1, \"test\": \"ok\"}", 10000LL * slow, NULL, SMITHYCURL_OK);
    const char *out = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_result_output(r, &out, &n), SMITHYCURL_OK);
    CHECK_CONTAINS(out, "\"json\":{\"id\":1,\"test\":\"ok\"}");
    CHECK(n == strlen(out));
    smithycurl_result_free(r);
    // Names ignore case.
    smithycurl_result_free(wait_rc(c, "testis", "{\"id\": 1, \"test\": \"ok\"}", 10000LL * slow, NULL, SMITHYCURL_OK));

    // A failure acceptor: which one, and its message.
    r = wait_rc(c, "TestIs", "{\"id\": 1, \"test\": \"failed\"}", 10000LL * slow, NULL, SMITHYCURL_E_WAITER_FAILURE);
    smithycurl_error_kind k = SMITHYCURL_KIND_NONE;
    CHECK_RC(smithycurl_result_error_kind(r, &k), SMITHYCURL_OK);
    CHECK(k == SMITHYCURL_KIND_WAITER_FAILURE);
    CHECK(strcmp(smithycurl_error_kind_name(k), "waiter_failure") == 0);
    CHECK_CONTAINS(message_of(r), "waiter TestIs reached its failure state: acceptor 1 (output json.test stringEquals \"failed\") matched on attempt 1: test is failed");
    CHECK_RC(smithycurl_result_output(r, &out, &n), SMITHYCURL_E_NO_OUTPUT);
    smithycurl_result_free(r);

    // Never matched: a timeout at max_wait_ms, after several attempts.
    double t0 = now_s();
    r = wait_rc(c, "TestIs", "{\"id\": 2, \"test\": \"ok\"}", 300, NULL, SMITHYCURL_E_WAITER_TIMEOUT);
    double took = now_s() - t0;
    CHECK(took >= 0.3 && took < 2.0 * slow);
    CHECK_RC(smithycurl_result_error_kind(r, &k), SMITHYCURL_OK);
    CHECK(k == SMITHYCURL_KIND_WAITER_TIMEOUT);
    int attempts = 0;
    CHECK_RC(smithycurl_result_attempts(r, &attempts), SMITHYCURL_OK);
    CHECK(attempts >= 3);
    CHECK_CONTAINS(message_of(r), "waiter TestIs timed out after");
    smithycurl_result_free(r);

    // errorType: success on the modeled error; a success matched as failure.
    r = wait_rc(c, "StatusServerFailure", "{\"code\": 500}", 10000LL * slow, NULL, SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, &n), SMITHYCURL_OK);
    CHECK(strcmp(out, "{}") == 0);
    smithycurl_result_free(r);
    r = wait_rc(c, "StatusServerFailure", "{\"code\": 200}", 10000LL * slow, NULL, SMITHYCURL_E_WAITER_FAILURE);
    CHECK_CONTAINS(message_of(r), "acceptor 2 (success true)");
    smithycurl_result_free(r);
    // An error no acceptor expects stops the waiter with that error.
    r = wait_rc(c, "TestIs", "{\"test\": \"ok\"}", 10000LL * slow, NULL, SMITHYCURL_E_VALIDATION);
    smithycurl_result_free(r);

    // Unknown waiter, bad arguments.
    r = wait_rc(c, "Nope", "{}", 1000, NULL, SMITHYCURL_E_NOT_FOUND);
    CHECK_CONTAINS(message_of(r), "unknown waiter \"Nope\"; the waiters of HttpBin are: StatusServerFailure, TestIs");
    smithycurl_result_free(r);
    smithycurl_result_free(wait_rc(c, "TestIs", "{\"id\": ", 1000, NULL, SMITHYCURL_E_INVALID_JSON));
    smithycurl_result_free(wait_rc(c, "TestIs", "{\"id\": 1, \"test\": \"\xff\"}", 1000, NULL, SMITHYCURL_E_INVALID_UTF8));
    r = (smithycurl_result *)1;
    CHECK_RC(smithycurl_wait(c, "TestIs", "{}", 2, 0, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_RC(smithycurl_wait(c, NULL, "{}", 2, 1000, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_wait(c, "TestIs", NULL, 2, 1000, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_wait(c, "TestIs", "{}", 2, 1000, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_wait(NULL, "TestIs", "{}", 2, 1000, NULL, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(r == NULL);

    // Cancelled while sleeping between attempts (the model's 1 s minDelay).
    smithycurl_cancel_token *tok = NULL;
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
    struct canceller cn = {tok, 200 * slow};
    pthread_t th;
    pthread_create(&th, NULL, cancel_later, &cn);
    t0 = now_s();
    r = wait_rc(slow_c, "TestIs", "{\"id\": 2, \"test\": \"ok\"}", 60000, tok, SMITHYCURL_E_CANCELLED);
    CHECK(now_s() - t0 < 0.9 * slow + 0.5);
    smithycurl_result_free(r);
    pthread_join(th, NULL);
    smithycurl_cancel_token_free(tok);

    smithycurl_client_free(slow_c);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
