// DynamoDB GetItem and PutItem on dynalite from C: through the C API vs the
// same requests written directly against libcurl (one reused easy handle,
// SigV4 by CURLOPT_AWS_SIGV4). Each side runs in its own child process (the
// libcurl one never loads the Go runtime: libsmithycurl is dlopen'ed by the
// other), three times, alternating; medians of wall and CPU per call.
//
//   bench-c-dynamodb <dynalite-url> <dynamodb-model.json> <libsmithycurl.so> <calls>
#define _GNU_SOURCE
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aws.h"
#include "clock.h"
#include "smithycurl.h"

#define TABLE "bench-c"
static const char *ops[2] = {"GetItem", "PutItem"};
static const char *inputs[2] = {
    "{\"TableName\": \"" TABLE "\", \"Key\": {\"pk\": {\"S\": \"k1\"}}}",
    "{\"TableName\": \"" TABLE "\", \"Item\": {\"pk\": {\"S\": \"k1\"}, \"name\": {\"S\": \"a name\"}, \"n\": {\"N\": \"42\"}}}",
};

static size_t collect(char *p, size_t size, size_t n, void *buf) {
    (void)p;
    *(size_t *)buf += size * n;
    return size * n;
}

// The libcurl side: what a careful hand-written client sends.
static int run_curl(const char *url, int op, int calls, double out[2]) {
    CURL *h = curl_easy_init();
    char target[64];
    snprintf(target, sizeof target, "X-Amz-Target: DynamoDB_20120810.%s", ops[op]);
    struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/x-amz-json-1.0");
    hdr = curl_slist_append(hdr, target);
    size_t got = 0;
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, inputs[op]);
    curl_easy_setopt(h, CURLOPT_AWS_SIGV4, "aws:amz:us-east-1:dynamodb");
    curl_easy_setopt(h, CURLOPT_USERPWD, BENCH_KEY ":" BENCH_SECRET);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &got);
    for (int i = 0; i < 50; i++) curl_easy_perform(h);
    double w0 = now_s(), c0 = cpu_s();
    for (int i = 0; i < calls; i++) {
        long status = 0;
        if (curl_easy_perform(h) != CURLE_OK || (curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status), status != 200)) {
            fprintf(stderr, "libcurl %s failed (HTTP %ld)\n", ops[op], status);
            return 1;
        }
    }
    out[0] = (now_s() - w0) / calls * 1e6;
    out[1] = (cpu_s() - c0) / calls * 1e6;
    curl_slist_free_all(hdr);
    curl_easy_cleanup(h);
    return 0;
}

static int run_smithycurl(const char *url, const char *model_path, const char *so, int op, int calls, double out[2]) {
    smithycurl_client *c = NULL;
    void *lib = bench_client(so, model_path, "com.amazonaws.dynamodb#DynamoDB_20120810", url, &c);
    if (!lib) return 1;
    SYM(call);
    SYM(result_free);
    static const char create[] =
        "{\"TableName\": \"" TABLE "\", \"BillingMode\": \"PAY_PER_REQUEST\","
        " \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}],"
        " \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}]}";
    smithycurl_result *r = NULL;
    call(c, "CreateTable", create, sizeof create - 1, NULL, &r); // fails harmlessly when it exists
    result_free(r);
    call(c, "PutItem", inputs[1], strlen(inputs[1]), NULL, &r);
    result_free(r);
    for (int i = 0; i < 50; i++) {
        call(c, ops[op], inputs[op], strlen(inputs[op]), NULL, &r);
        result_free(r);
    }
    double w0 = now_s(), c0 = cpu_s();
    for (int i = 0; i < calls; i++) {
        if (call(c, ops[op], inputs[op], strlen(inputs[op]), NULL, &r) != SMITHYCURL_OK) {
            fprintf(stderr, "smithycurl %s failed\n", ops[op]);
            return 1;
        }
        result_free(r);
    }
    out[0] = (now_s() - w0) / calls * 1e6;
    out[1] = (cpu_s() - c0) / calls * 1e6;
    return 0;
}

// What a side of one measurement is given.
struct side_args {
    char **argv;
    int smithy, op, calls;
};

static int side(const void *arg, double out[2]) {
    const struct side_args *a = arg;
    return a->smithy ? run_smithycurl(a->argv[1], a->argv[2], a->argv[3], a->op, a->calls, out)
                     : run_curl(a->argv[1], a->op, a->calls, out);
}

// measure runs one side in a child process and reads its two figures back.
static int measure(int smithy, char **argv, int op, int calls, double out[2]) {
    struct side_args a = {argv, smithy, op, calls};
    return in_child(side, &a, out);
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s DYNALITE-URL DYNAMODB-MODEL.json LIBSMITHYCURL.so CALLS\n", argv[0]);
        return 2;
    }
    int calls = atoi(argv[4]);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    printf("DynamoDB on dynalite from C, %d sequential calls, medians of 3 (wall / CPU per call)\n", calls);
    printf("%-8s %12s %9s %12s %9s %10s\n", "", "C API wall", "CPU", "libcurl wall", "CPU", "CPU ratio");
    for (int op = 0; op < 2; op++) {
        double sw[3], sc[3], cw[3], cc[3], r[2];
        for (int i = 0; i < 3; i++) {
            if (measure(1, argv, op, calls, r)) return 1;
            sw[i] = r[0], sc[i] = r[1];
            if (measure(0, argv, op, calls, r)) return 1;
            cw[i] = r[0], cc[i] = r[1];
        }
        qsort(sw, 3, sizeof *sw, cmp), qsort(sc, 3, sizeof *sc, cmp), qsort(cw, 3, sizeof *cw, cmp), qsort(cc, 3, sizeof *cc, cmp);
        printf("%-8s %9.0f µs %6.0f µs %9.0f µs %6.0f µs %9.2fx\n", ops[op], sw[1], sc[1], cw[1], cc[1], sc[1] / cc[1]);
    }
    return 0;
}
