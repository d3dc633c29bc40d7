// What the C API test files share (test_smithycurl.c holds the runner and
// these helpers; test_async.c the tests of the asynchronous calls).
#ifndef SMITHYCURL_CTEST_H
#define SMITHYCURL_CTEST_H

#include <string.h>

#include "smithycurl.h"

extern int failures; // failed checks in the current test
void failf(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) failf(__FILE__, __LINE__, "check failed: %s", #cond);                        \
    } while (0)
#define CHECK_RC(got, want)                                                                        \
    do {                                                                                           \
        int g_ = (got), w_ = (want);                                                               \
        if (g_ != w_)                                                                              \
            failf(__FILE__, __LINE__, "%s = %d (%s), want %d (%s)", #got, g_,                     \
                  smithycurl_strerror(g_), w_, smithycurl_strerror(w_));                          \
    } while (0)
#define CHECK_CONTAINS(hay, needle)                                                                \
    do {                                                                                           \
        const char *h_ = (hay);                                                                    \
        if (!h_ || !strstr(h_, (needle)))                                                          \
            failf(__FILE__, __LINE__, "%s = \"%.3000s\", want it to contain \"%s\"", #hay,        \
                  h_ ? h_ : "(null)", (needle));                                                   \
    } while (0)

extern const char *httpbin_url; // SMITHYCURL_HTTPBIN_URL
extern const char *model_dir;   // SMITHYCURL_MODEL_DIR
extern int slow;                // SMITHYCURL_TEST_SLOW: time multiplier (valgrind)

double now_s(void); // CLOCK_MONOTONIC seconds
smithycurl_model *load_httpbin(void);
// new_client makes a client for httpbin (or endpoint) with options o (NULL: defaults).
smithycurl_client *new_client(smithycurl_model *m, const char *endpoint, smithycurl_options *o);
// call_ok calls op and returns a malloc'd copy of the output ("" on failure, after reporting it).
char *call_ok_at(const char *file, int line, smithycurl_client *c, const char *op, const char *in);
#define call_ok(c, op, in) call_ok_at(__FILE__, __LINE__, c, op, in)
// call_err checks that op fails with code and kind, and returns the result (the caller frees it).
smithycurl_result *call_err_at(const char *file, int line, smithycurl_client *c, const char *op, const char *in,
                               smithycurl_cancel_token *tok, int code, smithycurl_error_kind kind);
#define call_err(c, op, in, tok, code, kind) call_err_at(__FILE__, __LINE__, c, op, in, tok, code, kind)
// squash removes JSON whitespace outside strings, in place.
char *squash(char *s);
const char *message_of(smithycurl_result *r); // "" when r is NULL or has no message

// A server that never answers: a listening socket on 127.0.0.1 that is
// never accepted from (the kernel completes connections into its backlog
// and takes the requests), so calls to it stay in flight until cancelled.
// hole_open reports a failed check and returns -1 when it cannot listen.
struct hole {
    int fd;
    char url[64];
};
int hole_open(struct hole *h);
void hole_close(struct hole *h);

// test_async.c
void test_async_callback(void);
void test_async_queue(void);
void test_async_cancel_many(void);
void test_async_client_free(void);
void test_async_queue_free(void);
void test_async_reentrant(void);
void test_async_slow_timeout(void);
void test_async_fork(void);
void test_async_bad_args(void);
void test_async_paginator(void);

#endif
