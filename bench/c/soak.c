// Soak: many calls from several C threads on one shared client, every
// output checked, the process's resident memory watched (make bench-soak).
//
//   bench-soak <echo-url> <echo-model> [calls] [threads]
//
// The echo workload of bench.c (CreateOrder on testing/servers/benchserver's echo
// service, "bench" in build/testserver): <calls> in all (default 1,000,000)
// split over <threads> threads (default 8) through smithycurl_call on one
// client. The resident set (VmRSS) is read once the first tenth of the calls
// is done (every pool, cache and heap has reached its working size by
// then) and again at the end; the growth between the two is the figure
// (goal: at most 1 MiB). A sample every tenth shows its course.
// Exit status 1 when a call failed or an output differed.

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "echo.h"
#include "goal.h"
#include "smithycurl.h"

static smithycurl_client *client;
static long total, per_tenth;
static long done;        // calls finished, all threads (atomic)
static long failures;    // calls that failed or answered something else (atomic)
static long tenth_next;  // the next tenth to sample (atomic)
static long rss_kib[11]; // VmRSS at each tenth
static char *expected;   // the output of the first call
static size_t expected_len;

static long rss_now(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
    if (f) fclose(f);
    return kib;
}

// one makes a call and compares its output with the expected one.
static int one(void) {
    smithycurl_result *r = NULL;
    const char *out;
    size_t n = 0;
    int ok = smithycurl_call(client, "CreateOrder", echo_request, sizeof echo_request - 1, NULL, &r) == SMITHYCURL_OK &&
             smithycurl_result_output(r, &out, &n) == SMITHYCURL_OK && n == expected_len &&
             memcmp(out, expected, n) == 0;
    smithycurl_result_free(r);
    return ok;
}

static void *worker(void *arg) {
    long calls = (long)(size_t)arg;
    for (long i = 0; i < calls; i++) {
        if (!one()) __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
        long d = __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
        long t = __atomic_load_n(&tenth_next, __ATOMIC_RELAXED);
        if (d >= t * per_tenth && t <= 10 &&
            __atomic_compare_exchange_n(&tenth_next, &t, t + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            rss_kib[t] = rss_now();
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s ECHO_URL ECHO_MODEL [CALLS] [THREADS]\n", argv[0]);
        return 2;
    }
    total = argc > 3 ? atol(argv[3]) : 1000000;
    int threads = argc > 4 ? atoi(argv[4]) : 8;
    if (total < 10 * threads || threads < 1 || threads > 64) {
        fprintf(stderr, "soak: CALLS must be at least 10 x THREADS, THREADS 1..64\n");
        return 2;
    }
    per_tenth = total / 10;
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    if (smithycurl_loader_new(&ld) || smithycurl_loader_add_path(ld, argv[2]) || smithycurl_loader_load(ld, &m) ||
        smithycurl_client_new(m, "smithycurl.test.bench#Bench", argv[1], NULL, &client)) {
        fprintf(stderr, "soak: cannot load %s or make its client\n", argv[2]);
        return 1;
    }
    smithycurl_loader_free(ld);
    smithycurl_model_free(m);

    // The expected output: the first call's, checked for what the echo
    // service answers.
    smithycurl_result *r = NULL;
    const char *out;
    if (smithycurl_call(client, "CreateOrder", echo_request, sizeof echo_request - 1, NULL, &r) != SMITHYCURL_OK ||
        smithycurl_result_output(r, &out, &expected_len) != SMITHYCURL_OK ||
        !strstr(out, "\"id\":\"a1b2c3d4\"") || !strstr(out, "\"price\":9.5")) {
        fprintf(stderr, "soak: the first call failed or answered something else\n");
        return 1;
    }
    expected = malloc(expected_len);
    memcpy(expected, out, expected_len);
    smithycurl_result_free(r);

    tenth_next = 1;
    rss_kib[0] = rss_now();
    pthread_t th[64];
    double w0 = now_s(), c0 = cpu_s();
    for (int i = 0; i < threads; i++)
        pthread_create(&th[i], NULL, worker, (void *)(size_t)(total / threads + (i < total % threads)));
    for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
    double wall = now_s() - w0, cpu = cpu_s() - c0;
    long end = rss_now();

    printf("soak: %ld calls from %d threads on one client: %.1f s, %.0f calls/s, %.1f us CPU per call, %ld failed\n",
           total, threads, wall, total / wall, cpu / total * 1e6, failures);
    printf("soak: VmRSS (MiB) at each tenth:");
    for (int i = 0; i <= 10; i++) printf(" %.1f", rss_kib[i] / 1024.0);
    printf("; at the end %.1f\n", end / 1024.0);
    long growth = end - rss_kib[1];
    goal("soak: RSS growth after the first tenth", growth / 1024.0, 1, 1, " MiB");
    smithycurl_client_free(client);
    free(expected);
    return failures ? 1 : 0;
}
