// Benchmarks of the C API against plain libcurl on loopback (make bench-c).
//
//   bench-c <httpbin-url> <model-dir> <calls> <cold-runs> <cold-curl> <cold-smithycurl> <lib> <echo-url> <echo-model>
//           [<snapshot> [<cold-gofloor>]]
//
// Throughput: the echo workload the Go and Python benchmarks share (a POST
// of the ~210-byte JSON document of testing/servers/benchserver to its echo
// service, "bench" in build/testserver, answered with a ~100-byte JSON
// document; model client/testdata/bench.smithy, operation CreateOrder)
// made <calls> times, sequentially and then split over 2 and 8 threads;
// through smithycurl_call on one shared client (the output checked), and
// directly with libcurl (one reused easy handle per thread, the body
// collected into a buffer and compared with the expected bytes).
// A third kind, smithycurl-engine, is run by bench/c/stages.sh only: each
// call through smithycurl_call_async and a wait on a condition variable,
// the synchronous call routed through the client's multi loop (the design
// issue 27 item 3 (b) measures against a wait inside smithycurl_call).
// Each measurement runs in a fresh child process (the libcurl children never
// load the Go runtime: libsmithycurl is dlopen'ed by the smithycurl children
// only) and reports wall time and the process's CPU time (user + system,
// every thread, Go runtime included; the server is another process). The
// two are run alternately, three times each; the median is printed.
//
// Cold start: <cold-runs> alternating runs of two programs, one that loads
// the httpbin model, creates a client and makes one call, and one that makes
// one plain libcurl request; the median CPU time (user + system, every
// thread), wall time and peak RSS of each, and the CPU ratio and RSS
// difference (goals: <= 1.3x, <= +6 MiB). With <snapshot> (the httpbin
// model compiled by `smithycurl compile`), a third program loads the model
// from it; with <cold-gofloor>, the libcurl request from a process that also
// starts an empty Go library (testing/cmd/gofloor): what the Go runtime
// alone adds. <calls> 0 skips the throughput part, <cold-runs> 0 this one.

#define _GNU_SOURCE
#include <curl/curl.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "echo.h"
#include "goal.h"
#include "smithycurl.h"

// ---- workers (child processes) ----

static const char *url, *model_dir, *echo_url, *echo_model;

static int per_thread;
static volatile int failures;

struct buf {
    char data[4096];
    size_t len;
};

static size_t collect(char *p, size_t size, size_t n, void *ud) {
    struct buf *b = ud;
    size_t k = size * n;
    if (b->len + k < sizeof b->data) {
        memcpy(b->data + b->len, p, k);
        b->len += k;
    }
    return k;
}

static void *curl_worker(void *arg) {
    (void)arg;
    char target[512];
    snprintf(target, sizeof target, "%s/orders", echo_url);
    CURL *h = curl_easy_init();
    struct buf b;
    struct curl_slist *hdrs = curl_slist_append(NULL, "Content-Type: application/json");
    hdrs = curl_slist_append(hdrs, "Accept: application/json");
    curl_easy_setopt(h, CURLOPT_URL, target);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, echo_request);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)(sizeof echo_request - 1));
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, 60L);
    for (int i = 0; i < per_thread; i++) {
        b.len = 0;
        long status = 0;
        if (curl_easy_perform(h) != CURLE_OK || (curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status), status != 200) ||
            b.len != sizeof echo_response - 1 || memcmp(b.data, echo_response, b.len) != 0)
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
    }
    curl_slist_free_all(hdrs);
    curl_easy_cleanup(h);
    return NULL;
}

static struct {
    int (*loader_new)(smithycurl_loader **);
    int (*loader_add_path)(smithycurl_loader *, const char *);
    int (*loader_load)(smithycurl_loader *, smithycurl_model **);
    int (*client_new)(smithycurl_model *, const char *, const char *, smithycurl_options *, smithycurl_client **);
    int (*call)(smithycurl_client *, const char *, const char *, size_t, smithycurl_cancel_token *, smithycurl_result **);
    int (*result_output)(smithycurl_result *, const char **, size_t *);
    int (*result_free)(smithycurl_result *);
    int (*call_async)(smithycurl_client *, const char *, const char *, size_t, smithycurl_cancel_token *,
                      smithycurl_done_fn, void *);
} sc;
static smithycurl_client *client;

static void *sc_worker(void *arg) {
    (void)arg;
    for (int i = 0; i < per_thread; i++) {
        smithycurl_result *r = NULL;
        const char *out;
        size_t n = 0;
        if (sc.call(client, "CreateOrder", echo_request, sizeof echo_request - 1, NULL, &r) != SMITHYCURL_OK ||
            sc.result_output(r, &out, &n) != SMITHYCURL_OK || n < 20 || memcmp(out, "{\"id\":\"a1b2c3d4\"", 16) != 0)
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
        sc.result_free(r);
    }
    return NULL;
}

// One synchronous call made through the asynchronous API: the caller
// waits on a condition variable the completion signals.
struct engine_wait {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done, ok;
};

static void engine_done(void *ud, smithycurl_code code, smithycurl_result *r) {
    struct engine_wait *w = ud;
    const char *out;
    size_t n = 0;
    int ok = code == SMITHYCURL_OK && sc.result_output(r, &out, &n) == SMITHYCURL_OK && n >= 20 &&
             memcmp(out, "{\"id\":\"a1b2c3d4\"", 16) == 0;
    sc.result_free(r);
    pthread_mutex_lock(&w->mu);
    w->done = 1, w->ok = ok;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static void *sc_engine_worker(void *arg) {
    (void)arg;
    struct engine_wait w;
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv, NULL);
    for (int i = 0; i < per_thread; i++) {
        w.done = 0, w.ok = 0;
        if (sc.call_async(client, "CreateOrder", echo_request, sizeof echo_request - 1, NULL, engine_done, &w) !=
            SMITHYCURL_OK) {
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
            continue;
        }
        pthread_mutex_lock(&w.mu);
        while (!w.done) pthread_cond_wait(&w.cv, &w.mu);
        pthread_mutex_unlock(&w.mu);
        if (!w.ok) __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
    }
    pthread_cond_destroy(&w.cv);
    pthread_mutex_destroy(&w.mu);
    return NULL;
}

static int load_sc(const char *lib) {
    void *h = dlopen(lib, RTLD_NOW);
    if (!h) {
        fprintf(stderr, "dlopen %s: %s\n", lib, dlerror());
        return -1;
    }
#define SYM(f) *(void **)&sc.f = dlsym(h, "smithycurl_" #f)
    SYM(loader_new); SYM(loader_add_path); SYM(loader_load); SYM(client_new); SYM(call); SYM(result_output);
    SYM(result_free); SYM(call_async);
    smithycurl_loader *ld;
    smithycurl_model *m;
    sc.loader_new(&ld);
    if (sc.loader_add_path(ld, echo_model) || sc.loader_load(ld, &m) ||
        sc.client_new(m, "smithycurl.test.bench#Bench", echo_url, NULL, &client))
        return -1;
    return 0;
}

// worker runs one measurement and prints "wall cpu failures vcsw" (vcsw:
// the voluntary context switches of the measurement).
static int worker(const char *kind, int threads, int calls, const char *lib) {
    per_thread = calls / threads;
    int is_engine = strcmp(kind, "smithycurl-engine") == 0;
    int is_sc = is_engine || strcmp(kind, "smithycurl") == 0;
    curl_global_init(CURL_GLOBAL_ALL);
    if (is_sc && load_sc(lib) != 0) return 1;
    void *(*fn)(void *) = is_engine ? sc_engine_worker : is_sc ? sc_worker : curl_worker;
    // Warm up: open the connections, fill the caches.
    int saved = per_thread;
    per_thread = 20;
    fn(NULL);
    per_thread = saved;
    failures = 0;
    pthread_t th[64];
    long v0 = vcsw();
    double w0 = now_s(), c0 = cpu_s();
    for (int i = 0; i < threads; i++) pthread_create(&th[i], NULL, fn, NULL);
    for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
    printf("%f %f %d %ld\n", now_s() - w0, cpu_s() - c0, failures, vcsw() - v0);
    return 0;
}

// ---- the driver ----

static char *self, *lib;

static int run_worker(const char *kind, int threads, int calls, double *wall, double *cpu) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' worker %s %d %d '%s' '%s'", self, kind, threads, calls, lib, echo_url);
    FILE *p = popen(cmd, "r");
    int fails = -1;
    if (!p || fscanf(p, "%lf %lf %d", wall, cpu, &fails) != 3) fails = -1;
    if (p) pclose(p);
    return fails;
}

// run_cold runs prog once and returns its wall time, CPU time (user +
// system, all threads) and peak RSS (KiB).
static int run_cold(char *const argv[], double *wall, double *cpu, long *rss) {
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", 1);
        dup2(devnull, 1);
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    struct rusage ru;
    wait4(pid, &st, 0, &ru);
    *wall = now_s() - t0;
    *cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    *rss = ru.ru_maxrss;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static void throughput(int threads, int calls) {
    enum { ROUNDS = 5 };
    double w[2][ROUNDS], c[2][ROUNDS];
    const char *kinds[2] = {"libcurl", "smithycurl"};
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < 2; k++) {
            int f = run_worker(kinds[k], threads, calls, &w[k][r], &c[k][r]);
            if (f != 0) {
                fprintf(stderr, "%s worker failed (%d failed calls)\n", kinds[k], f);
                exit(1);
            }
        }
    }
    double cps[2], us[2];
    for (int k = 0; k < 2; k++) {
        double wm = median(w[k], ROUNDS), cm = median(c[k], ROUNDS);
        calls = calls / threads * threads;
        cps[k] = calls / wm;
        us[k] = cm / calls * 1e6;
        printf("  %-10s %d thread%s  %7.0f calls/s  %6.1f us CPU/call\n", kinds[k], threads, threads > 1 ? "s" : " ",
               cps[k], us[k]);
    }
    printf("  ratio      %d thread%s  %7.2fx calls/s  %6.2fx CPU/call   (smithycurl / libcurl)\n", threads,
           threads > 1 ? "s" : " ", cps[1] / cps[0], us[1] / us[0]);
    char what[96];
    snprintf(what, sizeof what, "C API CPU per call / libcurl loop, %d thread%s", threads, threads > 1 ? "s" : "");
    goal(what, us[1] / us[0], 1, 1.2, "x");
    if (threads > 1) {
        snprintf(what, sizeof what, "C API calls/s / libcurl loop, %d threads", threads);
        goal(what, cps[1] / cps[0], 0, 0.9, "x");
    }
}

static void cold(int runs, char *curl_prog, char *sc_prog, char *snapshot, char *floor_prog) {
    enum { MAXK = 4, MAXRUNS = 256 };
    static double w[MAXK][MAXRUNS], c[MAXK][MAXRUNS], rss[MAXK][MAXRUNS];
    char *argv[MAXK][4] = {{curl_prog, (char *)url, NULL},
                           {sc_prog, (char *)url, (char *)model_dir, NULL},
                           {sc_prog, (char *)url, snapshot, NULL},
                           {floor_prog, (char *)url, NULL}};
    const char *names[MAXK] = {"libcurl request", "smithycurl load+client+call", "  the same from a snapshot",
                               "libcurl request + Go runtime"};
    int on[MAXK] = {1, 1, snapshot != NULL, floor_prog != NULL};
    if (runs > MAXRUNS) runs = MAXRUNS;
    for (int r = -1; r < runs; r++) { // r = -1: a warm-up (page cache, the model cache's entry), not counted
        for (int k = 0; k < MAXK; k++) {
            long kb;
            if (!on[k]) continue;
            int i = r < 0 ? 0 : r;
            if (run_cold(argv[k], &w[k][i], &c[k][i], &kb) != 0) {
                fprintf(stderr, "%s %s failed\n", argv[k][0], argv[k][2] ? argv[k][2] : "");
                exit(1);
            }
            rss[k][i] = kb;
        }
    }
    double wm[MAXK], cm[MAXK], rm[MAXK];
    printf("  (medians of %d alternating runs; CPU is user + system time of every thread)\n", runs);
    for (int k = 0; k < MAXK; k++) {
        if (!on[k]) continue;
        wm[k] = median(w[k], runs);
        cm[k] = median(c[k], runs);
        rm[k] = median(rss[k], runs);
        printf("  %-30s %6.2f ms CPU  %6.1f ms wall  %6.1f MiB peak RSS\n", names[k], cm[k] * 1e3, wm[k] * 1e3,
               rm[k] / 1024);
    }
    const char *ratios[MAXK] = {NULL, "ratio", "ratio, from a snapshot", "ratio, the Go runtime alone"};
    for (int k = 1; k < MAXK; k++) {
        if (!on[k]) continue;
        printf("  %-30s %6.2fx CPU  %6.2fx wall  %+6.1f MiB\n", ratios[k], cm[k] / cm[0], wm[k] / wm[0],
               (rm[k] - rm[0]) / 1024);
    }
    goal("cold start (load, client, one call) CPU / libcurl's one request", cm[1] / cm[0], 1, 1.3, "x");
    goal("cold start peak RSS over libcurl's one request", (rm[1] - rm[0]) / 1024, 1, 6, " MiB");
}

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "worker") == 0) {
        echo_url = argv[6];
        echo_model = getenv("BENCH_C_ECHO_MODEL");
        return worker(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5]);
    }
    if (argc < 10 || argc > 12) {
        fprintf(stderr,
                "usage: %s <httpbin-url> <model-dir> <calls> <cold-runs> <cold-curl> <cold-smithycurl> <libsmithycurl.so> "
                "<echo-url> <echo-model> [<snapshot> [<cold-gofloor>]]\n",
                argv[0]);
        return 2;
    }
    self = argv[0], url = argv[1], model_dir = argv[2], lib = argv[7], echo_url = argv[8], echo_model = argv[9];
    setenv("BENCH_C_ECHO_MODEL", echo_model, 1);
    int calls = atoi(argv[3]), runs = atoi(argv[4]);
    if (calls > 0) {
        printf("C API vs plain libcurl, echo workload (POST of a ~210-byte JSON document, ~100-byte answer) over loopback,\n"
               "%d calls per measurement, medians of 5 rounds\n", calls);
        throughput(1, calls);
        throughput(2, calls);
        throughput(8, calls);
    }
    if (runs > 0) {
        printf("cold start: one process, one call\n");
        cold(runs, argv[5], argv[6], argc > 10 && argv[10][0] ? argv[10] : NULL, argc > 11 ? argv[11] : NULL);
    }
    return 0;
}
