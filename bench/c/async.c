// Many calls in flight from one thread (make bench-async-c): the C API's
// asynchronous calls vs a hand-written libcurl multi loop.
//
//   bench-c-async <echo-url> <echo-model> <[NAME=]libsmithycurl.so[,...]> <calls> <in-flight> <transfers> <connections> [<rounds>]
//
// The workload is the echo workload of bench.c (a POST of the ~210-byte
// JSON document of testing/servers/benchserver to the "bench" service of
// build/testserver, answered with a ~100-byte document; model
// client/testdata/bench.smithy, operation CreateOrder), <calls> calls in
// all, <in-flight> of them in flight at every moment (a new one starts as
// each completes), at most <transfers> of those on the wire at once (the
// others wait their turn in order) over at most <connections> connections
// to the server:
//
//   curl-multi  one thread: <transfers> easy handles in one multi handle
//               (CURLMOPT_MAX_HOST_CONNECTIONS = <connections>), the calls
//               beyond them counted as waiting, curl_multi_poll, each
//               completed transfer checked (status, body) and its handle
//               added again for the next waiting call;
//   queue       one thread: smithycurl_call_queued on one completion queue,
//               poll() on its fd, smithycurl_queue_next until empty, each
//               output checked, a new call per completion;
//   callback    smithycurl_call_async from the main thread to fill the
//               window, then a new call from each completion callback (on
//               library threads); the main thread waits for the last.
//
// The client's limits are the loop's: smithycurl_options_set_async_limits
// (<transfers>, <connections>). Each measurement runs in a fresh child
// process (libsmithycurl is dlopen'ed by the smithycurl children only, so
// the curl-multi children never start the Go runtime), after a warm-up
// that opens the connections; it reports wall time, the process's CPU time
// (user + system, every thread), its voluntary context switches and its
// peak RSS. Several libraries (a comma-separated list, each NAME=PATH: a
// build before and after a change) are measured in the same run, queue and
// callback of each. The kinds run in turn, <rounds> times (default 3);
// medians are printed, with the ratios to curl-multi (goal: calls/s >= 0.9x
// at 1,000 in flight, issue 27).

#define _GNU_SOURCE
#include <curl/curl.h>
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clock.h"
#include "echo.h"
#include "goal.h"
#include "smithycurl.h"

// What a smithycurl output starts with (it is re-encoded: keys in model order).
static const char output_prefix[] = "{\"id\":\"a1b2c3d4\"";

static const char *echo_url, *echo_model, *lib;
static int calls, inflight, transfers, conns;

// ---- curl-multi ----

struct xfer {
    CURL *h;
    char data[512];
    size_t len;
};

static size_t collect(char *p, size_t size, size_t n, void *ud) {
    struct xfer *x = ud;
    size_t k = size * n;
    if (x->len + k <= sizeof x->data) memcpy(x->data + x->len, p, k);
    x->len += k;
    return k;
}

// multi_run makes total calls with window in flight, at most max
// transfers of them on the wire (xs holds max handles); returns failures.
static int multi_run(CURLM *m, struct xfer *xs, int max, int window, int total) {
    int started = window < total ? window : total, waiting = started, done = 0, failures = 0;
    for (int i = 0; i < max && waiting > 0; i++, waiting--) {
        xs[i].len = 0;
        curl_multi_add_handle(m, xs[i].h);
    }
    while (done < total) {
        int running = 0;
        curl_multi_perform(m, &running);
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(m, &left))) {
            if (msg->msg != CURLMSG_DONE) continue;
            CURL *h = msg->easy_handle;
            CURLcode res = msg->data.result;
            struct xfer *x;
            curl_easy_getinfo(h, CURLINFO_PRIVATE, (char **)&x);
            long status = 0;
            curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
            if (res != CURLE_OK || status != 200 || x->len != sizeof echo_response - 1 ||
                memcmp(x->data, echo_response, x->len) != 0)
                failures++;
            done++;
            curl_multi_remove_handle(m, h);
            if (started < total) { // the completed call's successor
                started++;
                waiting++;
            }
            if (waiting > 0) { // the oldest waiting call takes the handle
                waiting--;
                x->len = 0;
                curl_multi_add_handle(m, h);
            }
        }
        if (done < total) curl_multi_poll(m, NULL, 0, 1000, NULL);
    }
    return failures;
}

static int curl_worker(double *wall, double *cpu, long *vcs) {
    curl_global_init(CURL_GLOBAL_ALL);
    char target[512];
    snprintf(target, sizeof target, "%s/orders", echo_url);
    struct curl_slist *hdrs = curl_slist_append(NULL, "Content-Type: application/json");
    hdrs = curl_slist_append(hdrs, "Accept: application/json");
    CURLM *m = curl_multi_init();
    curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, (long)conns);
    curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, (long)conns);
    curl_multi_setopt(m, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    struct xfer *xs = calloc((size_t)transfers, sizeof *xs);
    for (int i = 0; i < transfers; i++) {
        CURL *h = curl_easy_init();
        xs[i].h = h;
        curl_easy_setopt(h, CURLOPT_URL, target);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, echo_request);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)(sizeof echo_request - 1));
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &xs[i]);
        curl_easy_setopt(h, CURLOPT_PRIVATE, &xs[i]);
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(h, CURLOPT_TIMEOUT, 120L);
    }
    int warm = conns * 4 < inflight ? conns * 4 : inflight;
    int failures = multi_run(m, xs, transfers, warm, warm);
    double w0 = now_s(), c0 = cpu_s();
    long v0 = vcsw();
    failures += multi_run(m, xs, transfers, inflight, calls);
    *wall = now_s() - w0;
    *cpu = cpu_s() - c0;
    *vcs = vcsw() - v0;
    for (int i = 0; i < transfers; i++) curl_easy_cleanup(xs[i].h);
    curl_multi_cleanup(m);
    curl_slist_free_all(hdrs);
    free(xs);
    return failures;
}

// ---- smithycurl (dlopen'ed) ----

static struct {
    int (*loader_new)(smithycurl_loader **);
    int (*loader_add_path)(smithycurl_loader *, const char *);
    int (*loader_load)(smithycurl_loader *, smithycurl_model **);
    int (*loader_free)(smithycurl_loader *);
    int (*options_new)(smithycurl_options **);
    int (*options_set_async_limits)(smithycurl_options *, int, int);
    int (*client_new)(smithycurl_model *, const char *, const char *, smithycurl_options *, smithycurl_client **);
    int (*call_async)(smithycurl_client *, const char *, const char *, size_t, smithycurl_cancel_token *,
                      smithycurl_done_fn, void *);
    int (*call_queued)(smithycurl_client *, const char *, const char *, size_t, smithycurl_cancel_token *,
                       smithycurl_queue *, void *);
    int (*queue_new)(smithycurl_queue **);
    int (*queue_fd)(smithycurl_queue *, int *);
    int (*queue_next)(smithycurl_queue *, long, void **, smithycurl_code *, smithycurl_result **);
    int (*queue_free)(smithycurl_queue *);
    int (*result_output)(smithycurl_result *, const char **, size_t *);
    int (*result_free)(smithycurl_result *);
} sc;
static smithycurl_client *client;

static int load_sc(void) {
    void *h = dlopen(lib, RTLD_NOW);
    if (!h) {
        fprintf(stderr, "dlopen %s: %s\n", lib, dlerror());
        return -1;
    }
#define SYM(f)                                                                                                       \
    if (!(*(void **)&sc.f = dlsym(h, "smithycurl_" #f))) {                                                           \
        fprintf(stderr, "%s has no smithycurl_%s\n", lib, #f);                                                       \
        return -1;                                                                                                   \
    }
    SYM(loader_new) SYM(loader_add_path) SYM(loader_load) SYM(loader_free) SYM(options_new)
    SYM(options_set_async_limits) SYM(client_new) SYM(call_async) SYM(call_queued) SYM(queue_new) SYM(queue_fd)
    SYM(queue_next) SYM(queue_free) SYM(result_output) SYM(result_free)
#undef SYM
    smithycurl_loader *ld;
    smithycurl_model *m;
    smithycurl_options *o;
    sc.loader_new(&ld);
    sc.options_new(&o);
    if (sc.loader_add_path(ld, echo_model) || sc.loader_load(ld, &m) || sc.options_set_async_limits(o, transfers, conns) ||
        sc.client_new(m, "smithycurl.test.bench#Bench", echo_url, o, &client)) {
        fprintf(stderr, "smithycurl client setup failed\n");
        return -1;
    }
    sc.loader_free(ld);
    return 0;
}

static int output_ok(smithycurl_code code, smithycurl_result *r) {
    const char *out = NULL;
    size_t n = 0;
    return code == SMITHYCURL_OK && sc.result_output(r, &out, &n) == SMITHYCURL_OK && n > sizeof output_prefix &&
           memcmp(out, output_prefix, sizeof output_prefix - 1) == 0;
}

// queue_run makes total calls with window in flight on q; returns failures.
static int queue_run(smithycurl_queue *q, int window, int total) {
    int fd = -1, started = 0, done = 0, failures = 0;
    sc.queue_fd(q, &fd);
    for (; started < window && started < total; started++)
        if (sc.call_queued(client, "CreateOrder", echo_request, sizeof echo_request - 1, NULL, q, NULL) !=
            SMITHYCURL_OK)
            return -1;
    while (done < total) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 10000) == 0) return -1; // stuck
        void *tag;
        smithycurl_code code;
        smithycurl_result *r;
        while (sc.queue_next(q, 0, &tag, &code, &r) == SMITHYCURL_OK) {
            failures += !output_ok(code, r);
            sc.result_free(r);
            done++;
            if (started < total) {
                started++;
                if (sc.call_queued(client, "CreateOrder", echo_request, sizeof echo_request - 1, NULL, q, NULL) !=
                    SMITHYCURL_OK)
                    return -1;
            }
        }
    }
    return failures;
}

static int queue_worker(double *wall, double *cpu, long *vcs) {
    if (load_sc() != 0) return -1;
    smithycurl_queue *q;
    if (sc.queue_new(&q) != SMITHYCURL_OK) return -1;
    int warm = conns * 4 < inflight ? conns * 4 : inflight;
    int failures = queue_run(q, warm, warm);
    double w0 = now_s(), c0 = cpu_s();
    long v0 = vcsw();
    int f = queue_run(q, inflight, calls);
    *wall = now_s() - w0;
    *cpu = cpu_s() - c0;
    *vcs = vcsw() - v0;
    sc.queue_free(q);
    return failures < 0 || f < 0 ? -1 : failures + f;
}

// The callback form's shared state: calls started and done, failures.
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started, done, total, failures;
} cb = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0};

static void on_done(void *user, smithycurl_code code, smithycurl_result *r) {
    (void)user;
    int ok = output_ok(code, r);
    sc.result_free(r);
    pthread_mutex_lock(&cb.mu);
    cb.failures += !ok;
    cb.done++;
    int more = cb.started < cb.total;
    if (more) cb.started++;
    if (cb.done == cb.total) pthread_cond_signal(&cb.cv);
    pthread_mutex_unlock(&cb.mu);
    if (more && sc.call_async(client, "CreateOrder", echo_request, sizeof echo_request - 1, NULL, on_done, NULL) !=
                    SMITHYCURL_OK) {
        pthread_mutex_lock(&cb.mu);
        cb.failures++;
        cb.done++; // counted, so that the run ends
        if (cb.done == cb.total) pthread_cond_signal(&cb.cv);
        pthread_mutex_unlock(&cb.mu);
    }
}

static int callback_run(int window, int total) {
    pthread_mutex_lock(&cb.mu);
    cb.started = window < total ? window : total;
    cb.done = 0;
    cb.total = total;
    cb.failures = 0;
    int n = cb.started;
    pthread_mutex_unlock(&cb.mu);
    for (int i = 0; i < n; i++)
        if (sc.call_async(client, "CreateOrder", echo_request, sizeof echo_request - 1, NULL, on_done, NULL) !=
            SMITHYCURL_OK)
            return -1;
    pthread_mutex_lock(&cb.mu);
    while (cb.done < cb.total) pthread_cond_wait(&cb.cv, &cb.mu);
    int failures = cb.failures;
    pthread_mutex_unlock(&cb.mu);
    return failures;
}

static int callback_worker(double *wall, double *cpu, long *vcs) {
    if (load_sc() != 0) return -1;
    int warm = conns * 4 < inflight ? conns * 4 : inflight;
    int failures = callback_run(warm, warm);
    double w0 = now_s(), c0 = cpu_s();
    long v0 = vcsw();
    int f = callback_run(inflight, calls);
    *wall = now_s() - w0;
    *cpu = cpu_s() - c0;
    *vcs = vcsw() - v0;
    return failures < 0 || f < 0 ? -1 : failures + f;
}

// ---- the driver ----

enum { MAXLIBS = 4, MAXKINDS = 1 + 2 * MAXLIBS, MAXROUNDS = 64 };

// A measured kind: curl-multi, or queue or callback through one library.
struct kind {
    const char *worker; // curl-multi, queue, callback
    const char *name;   // the library's name ("" for one library)
    const char *lib;
    double wall[MAXROUNDS], cpu[MAXROUNDS], rss[MAXROUNDS], vcs[MAXROUNDS];
};

static int run_worker(const char *self, struct kind *k, int r) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' worker %s '%s' '%s' '%s' %d %d %d %d", self, k->worker, echo_url, echo_model,
             k->lib ? k->lib : "-", calls, inflight, transfers, conns);
    FILE *p = popen(cmd, "r");
    int fails = -1;
    long rss_kb = 0, vcs = 0;
    if (!p || fscanf(p, "%lf %lf %ld %d %ld", &k->wall[r], &k->cpu[r], &rss_kb, &fails, &vcs) != 5) fails = -1;
    if (p) pclose(p);
    k->rss[r] = rss_kb / 1024.0;
    k->vcs[r] = (double)vcs / calls;
    return fails;
}

int main(int argc, char **argv) {
    if (argc == 10 && strcmp(argv[1], "worker") == 0) {
        echo_url = argv[3], echo_model = argv[4], lib = argv[5];
        calls = atoi(argv[6]), inflight = atoi(argv[7]), transfers = atoi(argv[8]), conns = atoi(argv[9]);
        double wall = 0, cpu = 0;
        long vcs0 = 0; // the measurement's voluntary context switches
        int f = strcmp(argv[2], "curl-multi") == 0 ? curl_worker(&wall, &cpu, &vcs0)
                : strcmp(argv[2], "queue") == 0    ? queue_worker(&wall, &cpu, &vcs0)
                                                   : callback_worker(&wall, &cpu, &vcs0);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("%f %f %ld %d %ld\n", wall, cpu, ru.ru_maxrss, f, vcs0);
        fflush(stdout);
        _exit(0); // the Go runtime's threads may still be in calls: no exit handlers
    }
    if (argc != 8 && argc != 9) {
        fprintf(stderr,
                "usage: %s <echo-url> <echo-model> <[NAME=]libsmithycurl.so[,...]> <calls> <in-flight> <transfers> "
                "<connections> [<rounds>]\n",
                argv[0]);
        return 2;
    }
    echo_url = argv[1], echo_model = argv[2];
    calls = atoi(argv[4]), inflight = atoi(argv[5]), transfers = atoi(argv[6]), conns = atoi(argv[7]);
    int rounds = argc == 9 ? atoi(argv[8]) : 3;
    if (calls <= 0 || inflight <= 0 || transfers <= 0 || conns <= 0 || rounds <= 0 || rounds > MAXROUNDS) {
        fprintf(stderr, "calls, in-flight, transfers, connections and rounds (1..%d) must be positive\n", MAXROUNDS);
        return 2;
    }
    static struct kind ks[MAXKINDS];
    int nk = 0;
    ks[nk++] = (struct kind){.worker = "curl-multi", .name = ""};
    char *list = strdup(argv[3]);
    int nlibs = 0;
    for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (nlibs == MAXLIBS) {
            fprintf(stderr, "at most %d libraries\n", MAXLIBS);
            return 2;
        }
        char *eq = strchr(item, '=');
        const char *name = "", *path = item;
        if (eq) *eq = 0, name = item, path = eq + 1;
        ks[nk++] = (struct kind){.worker = "queue", .name = name, .lib = path};
        ks[nk++] = (struct kind){.worker = "callback", .name = name, .lib = path};
        nlibs++;
    }
    if (nlibs == 0) {
        fprintf(stderr, "no library given\n");
        return 2;
    }
    double load[3] = {0, 0, 0};
    getloadavg(load, 3);
    printf("C API asynchronous calls vs a libcurl multi loop, one thread, echo workload over loopback:\n"
           "%d calls, %d in flight, at most %d transfers at once over %d connections, medians of %d rounds,\n"
           "the kinds alternating; load average before %.2f %.2f %.2f\n",
           calls, inflight, transfers, conns, rounds, load[0], load[1], load[2]);
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < nk; k++) {
            int f = run_worker(argv[0], &ks[k], r);
            if (f != 0) {
                fprintf(stderr, "%s %s worker failed (%d: -1 is a crash or a stuck run, else failed calls)\n",
                        ks[k].worker, ks[k].name, f);
                return 1;
            }
        }
    double cps[MAXKINDS], us[MAXKINDS];
    for (int k = 0; k < nk; k++) {
        char label[64];
        snprintf(label, sizeof label, "%s%s%s", ks[k].worker, *ks[k].name ? " " : "", ks[k].name);
        cps[k] = calls / median(ks[k].wall, rounds);
        us[k] = median(ks[k].cpu, rounds) / calls * 1e6;
        printf("  %-20s %8.0f calls/s  %6.1f us CPU/call  %5.2f vol. ctx switches/call  %7.1f MiB peak RSS\n", label,
               cps[k], us[k], median(ks[k].vcs, rounds), median(ks[k].rss, rounds));
    }
    for (int k = 1; k < nk; k++) {
        char label[64];
        snprintf(label, sizeof label, "%s%s%s", ks[k].worker, *ks[k].name ? " " : "", ks[k].name);
        printf("  ratio %-20s %6.2fx calls/s  %6.2fx CPU/call   (smithycurl / curl-multi)\n", label, cps[k] / cps[0],
               us[k] / us[0]);
    }
    // The goal (issue 27) is at 1,000 in flight; other windows print ratios only.
    if (inflight == 1000)
        for (int k = 1; k < nk; k++) {
            char what[128];
            snprintf(what, sizeof what, "C API async (%s%s%s) calls/s / libcurl multi loop, %d in flight", ks[k].worker,
                     *ks[k].name ? " " : "", ks[k].name, inflight);
            goal(what, cps[k] / cps[0], 0, 0.9, "x");
        }
    getloadavg(load, 3);
    printf("  load average after %.2f %.2f %.2f\n", load[0], load[1], load[2]);
    free(list);
    return 0;
}
