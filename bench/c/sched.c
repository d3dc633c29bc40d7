// Where should a call wait? (make bench-sched; see testing/cmd/schedprobe.)
//
//   bench-sched <echo-url> <c|inside|split> <threads> <calls>
//
// Makes <calls> POSTs of the echo workload's document to <echo-url>/orders
// over <threads> threads, one easy handle each, in one of three ways: the
// plain libcurl loop (c), one entry into Go that performs inside a cgo call
// (inside), or an entry into Go before and one after a perform in C
// (split). Prints the mode, the threads, the CPU per call (the process,
// every thread) and calls/s. bench/c/sched.sh runs the rounds.
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

int probe_inside(void *h);
void probe_prepare(void);
void probe_finish(void);

static const char body[] =
    "{\"name\":\"margherita\",\"size\":12,\"crust\":\"thin\",\"toppings\":[\"basil\",\"mozzarella\",\"tomato\"],"
    "\"notes\":\"extra basil please, and cut in eight slices\",\"customer\":{\"id\":\"c-0042\",\"tier\":\"gold\"},"
    "\"requestId\":\"7f9c2ba4e88f827d\"}";
static char url[512];
static const char *mode;
static int per_thread;
static int failures;

static size_t sink(char *p, size_t size, size_t n, void *ud) {
    (void)p;
    (void)ud;
    return size * n;
}

static void *worker(void *arg) {
    (void)arg;
    CURL *h = curl_easy_init();
    struct curl_slist *hdrs = curl_slist_append(NULL, "Content-Type: application/json");
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, 60L);
    int c = strcmp(mode, "c") == 0, inside = strcmp(mode, "inside") == 0;
    for (int i = 0; i < per_thread; i++) {
        int rc;
        if (c) {
            rc = curl_easy_perform(h);
        } else if (inside) {
            rc = probe_inside(h);
        } else {
            probe_prepare();
            rc = curl_easy_perform(h);
            probe_finish();
        }
        long status = 0;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        if (rc != CURLE_OK || status != 200) __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
    }
    curl_slist_free_all(hdrs);
    curl_easy_cleanup(h);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s <echo-url> <c|inside|split> <threads> <calls>\n", argv[0]);
        return 2;
    }
    snprintf(url, sizeof url, "%s/orders", argv[1]);
    mode = argv[2];
    int threads = atoi(argv[3]);
    if (threads < 1 || threads > 64) threads = 1;
    curl_global_init(CURL_GLOBAL_ALL);
    int calls = atoi(argv[4]);
    per_thread = 20; // warm up: the connection, the runtime
    worker(NULL);
    per_thread = calls / threads;
    pthread_t th[64];
    double w0 = now_s(), c0 = cpu_s();
    for (int i = 0; i < threads; i++) pthread_create(&th[i], NULL, worker, NULL);
    for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
    double wall = now_s() - w0, cpu = cpu_s() - c0;
    int n = per_thread * threads;
    printf("%s %d %.2f %.0f %d\n", mode, threads, cpu / n * 1e6, n / wall, failures);
    return failures != 0;
}
