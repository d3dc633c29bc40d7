// Many calls in flight from one thread: POST /anything to httpbin 20 times
// through a completion queue watched with poll(), as an event loop would,
// then one call whose completion comes to a callback.
//
//   cc httpbin_async.c $(pkg-config --cflags --libs smithycurl) -o httpbin_async
//   ./httpbin_async [endpoint [model-path]]
//
// endpoint: argv[1], else $HTTPBIN_URL, else http://127.0.0.1:8080 (start a
// local httpbin with build/testserver). model-path: argv[2], else
// examples/httpbin (run from the repository root).
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smithycurl.h>

enum { CALLS = 20 };

// The callback runs on a library thread: it hands its outcome to main
// through a mutex and a condition variable.
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int callback_done;

static void on_done(void *user_data, smithycurl_code code, smithycurl_result *r) {
    const char *op = user_data, *out = "";
    size_t n = 0;
    if (code == SMITHYCURL_OK) smithycurl_result_output(r, &out, &n);
    printf("callback: %s -> %s %.*s\n", op, smithycurl_strerror(code), (int)n, out);
    smithycurl_result_free(r); // the result is the callback's
    pthread_mutex_lock(&mu);
    callback_done = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
}

int main(int argc, char **argv) {
    const char *endpoint = argc > 1 ? argv[1] : getenv("HTTPBIN_URL");
    if (!endpoint) endpoint = "http://127.0.0.1:8080";
    const char *model_path = argc > 2 ? argv[2] : "examples/httpbin";

    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_client *c = NULL;
    smithycurl_loader_new(&ld);
    smithycurl_loader_add_path(ld, model_path);
    if (smithycurl_loader_load(ld, &m) != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_loader_errmsg(ld, &msg);
        fprintf(stderr, "%s\n", msg ? msg : "load failed");
        smithycurl_free(msg);
        return 1;
    }
    smithycurl_loader_free(ld);
    if (smithycurl_client_new(m, NULL, endpoint, NULL, &c) != SMITHYCURL_OK) {
        fprintf(stderr, "client_new failed\n");
        return 1;
    }

    // Start every call; the tag says which one a completion is.
    smithycurl_queue *q = NULL;
    int fd = -1;
    smithycurl_queue_new(&q);
    smithycurl_queue_fd(q, &fd);
    for (intptr_t i = 0; i < CALLS; i++) {
        char in[64];
        int n = snprintf(in, sizeof in, "{\"id\": %d}", (int)i);
        int rc = smithycurl_call_queued(c, "Anything", in, (size_t)n, NULL, q, (void *)i);
        if (rc != SMITHYCURL_OK) {
            fprintf(stderr, "call_queued: %s\n", smithycurl_strerror(rc));
            return 1;
        }
    }

    // The event loop: wait for the fd, then take what is there.
    int pending = CALLS, failed = 0;
    while (pending > 0) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 30000) <= 0) {
            fprintf(stderr, "no completion in 30 s\n");
            return 1;
        }
        void *tag;
        smithycurl_code code;
        smithycurl_result *r;
        while (smithycurl_queue_next(q, 0, &tag, &code, &r) == SMITHYCURL_OK) {
            const char *msg = "";
            if (code != SMITHYCURL_OK) {
                if (r) smithycurl_result_error_message(r, &msg);
                fprintf(stderr, "call %d: %s: %s\n", (int)(intptr_t)tag, smithycurl_strerror(code), msg);
                failed++;
            }
            smithycurl_result_free(r);
            pending--;
        }
    }
    printf("queue: %d calls completed, %d failed\n", CALLS, failed);
    smithycurl_queue_free(q);

    // The callback form.
    smithycurl_call_async(c, "GetIp", NULL, 0, NULL, on_done, "GetIp");
    pthread_mutex_lock(&mu);
    while (!callback_done) pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);

    smithycurl_client_free(c);
    smithycurl_model_free(m);
    return failed ? 1 : 0;
}
