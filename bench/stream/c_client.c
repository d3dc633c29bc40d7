// The C front end of make bench-stream: SIZE bytes up from a read callback
// and down to a write callback (smithycurl_call_stream). Prints the
// seconds each took; bench/stream/run.py reads the process's peak RSS.
//
//   c_client ENDPOINT MODEL SIZE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smithycurl.h"

struct src {
    long long off, len;
};

// Two copies of 256 periods of the pattern (byte i is i % 251): any
// offset's next 256 periods are one memcpy.
static char pattern[2 * 251 * 256];

static long long read_pattern(void *ud, char *buf, size_t cap) {
    struct src *s = ud;
    long long n = s->len - s->off;
    if (n > (long long)cap) n = (long long)cap;
    if (n > 251 * 256) n = 251 * 256;
    memcpy(buf, pattern + s->off % 251, (size_t)n);
    s->off += n;
    return n;
}

static int count(void *ud, const char *data, size_t len) {
    (void)data;
    *(long long *)ud += (long long)len;
    return 0;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fail(const char *what, smithycurl_result *r) {
    const char *msg = "";
    smithycurl_result_error_message(r, &msg);
    fprintf(stderr, "c_client: %s: %s\n", what, msg);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: c_client ENDPOINT MODEL SIZE\n");
        return 2;
    }
    long long size = atoll(argv[3]);
    for (size_t i = 0; i < sizeof pattern; i++) pattern[i] = (char)(i % 251);
    smithycurl_loader *ld;
    smithycurl_model *m;
    smithycurl_options *o;
    smithycurl_client *c;
    smithycurl_result *r = NULL;
    smithycurl_loader_new(&ld);
    smithycurl_loader_add_path(ld, argv[2]);
    if (smithycurl_loader_load(ld, &m) != SMITHYCURL_OK) return fprintf(stderr, "c_client: load failed\n"), 1;
    smithycurl_loader_free(ld);
    smithycurl_options_new(&o);
    smithycurl_options_set_timeout_ms(o, 600000);
    if (smithycurl_client_new(m, NULL, argv[1], o, &c) != SMITHYCURL_OK) return 1;
    smithycurl_options_free(o);

    double t0 = now_s();
    struct src s = {0, size};
    if (smithycurl_call_stream(c, "PutBlob", "{\"key\":\"bench-c\"}", 17, read_pattern, &s, size, NULL, NULL, NULL,
                               &r) != SMITHYCURL_OK)
        return fail("PutBlob", r);
    const char *out;
    smithycurl_result_output(r, &out, NULL);
    char want[96];
    snprintf(want, sizeof want, "\"intact\":true,\"size\":%lld", size);
    if (!strstr(out, want)) return fprintf(stderr, "c_client: PutBlob: %s\n", out), 1;
    smithycurl_result_free(r);
    double t1 = now_s();
    long long got = 0;
    char in[64];
    snprintf(in, sizeof in, "{\"size\":%lld}", size);
    if (smithycurl_call_stream(c, "GetBlob", in, strlen(in), NULL, NULL, 0, count, &got, NULL, &r) != SMITHYCURL_OK)
        return fail("GetBlob", r);
    smithycurl_result_free(r);
    if (got != size) return fprintf(stderr, "c_client: GetBlob: %lld bytes\n", got), 1;
    printf("%.3f %.3f\n", t1 - t0, now_s() - t1);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
    return 0;
}
