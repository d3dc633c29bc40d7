// What the C API test files (test_*.c) share: checks, helpers, and the
// runner's state; ctest.c holds the runner and the helpers.
#ifndef SMITHYCURL_CTEST_H
#define SMITHYCURL_CTEST_H

#include <pthread.h>
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

// need_env returns the environment variable name (bindings/c/run.sh sets
// the services' URLs and SMITHYCURL_SHARED); NULL, after a failed check
// at the caller's line, when it is unset.
const char *need_env_at(const char *file, int line, const char *name);
#define need_env(name) need_env_at(__FILE__, __LINE__, name)
double now_s(void); // CLOCK_MONOTONIC seconds
smithycurl_model *load_httpbin(void);
smithycurl_model *load_shared(const char *rel); // $SMITHYCURL_SHARED/rel
smithycurl_client *aws_client(smithycurl_model *m, const char *url, const char *key, const char *secret,
                              const char *region); // SigV4-signed
// load_model loads the model at a path, or with source (len bytes) the
// source named path_or_name; NULL (after reporting why) when it fails.
smithycurl_model *load_model(const char *path_or_name, const char *source, size_t len);
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

// cancel_later, a thread's function, cancels tok after delay_ms.
struct canceller {
    smithycurl_cancel_token *tok;
    int delay_ms;
};
void *cancel_later(void *arg); // arg: a struct canceller

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

// ---- asynchronous calls ----

int env_int(const char *name, int def); // a positive integer from the environment, or def
int async_n(void);                      // SMITHYCURL_TEST_ASYNC_N (1000)

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
void tally_init(struct tally *t, struct slot *slots);
void tally_destroy(struct tally *t);
// record stores a completion in s, frees r and counts it on t.
void record(struct tally *t, struct slot *s, smithycurl_code code, smithycurl_result *r);
// wait_done waits up to secs for t to count n completions; returns the count.
int wait_done(struct tally *t, int n, double secs);

// A callback's user_data: the tally and the slot.
struct cb_arg {
    struct tally *t;
    struct slot *s;
};
void on_done(void *user, smithycurl_code code, smithycurl_result *r); // records into a struct cb_arg
// drain takes every completion of q into the slots (tags are slot
// pointers) until want have come or secs ran out; returns how many came.
int drain(smithycurl_queue *q, struct tally *t, int want, double secs);
// check_slots checks that each of the n slots completed exactly once with
// code; it frees their outputs and messages.
void check_slots_at(const char *file, int line, struct slot *s, int n, smithycurl_code code);
#define check_slots(s, n, code) check_slots_at(__FILE__, __LINE__, s, n, code)

// blobs_client makes a client of the blob service (testing/servers/blobserver,
// SMITHYCURL_BLOBS_URL) whose model it loads into *m; NULL after a failed check.
smithycurl_client *blobs_client(smithycurl_model **m);

extern const char *slow_in; // a call that stays in flight 10 s (httpbin's longest delay)
// settle gives calls just started time to be on the wire (or in the
// engine's queue): 300 ms, longer under valgrind.
void settle(void);

#endif
