// Streaming blob payloads (smithycurl_call_stream, _v2): callbacks,
// memory, retries.

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

// ---- streaming blob payloads (smithycurl_call_stream) ----

static const char stream_model[] =
    "$version: \"2\"\n"
    "namespace t\n"
    "use aws.protocols#restJson1\n"
    "@restJson1\n"
    "service S { operations: [Upload, Download] }\n"
    "@streaming\n"
    "blob Stream\n"
    "@http(method: \"PUT\", uri: \"/anything/up\")\n"
    "operation Upload {\n"
    "    input := { @httpPayload Body: Stream }\n"
    "    output := { data: String, method: String }\n"
    "}\n"
    "@readonly\n"
    "@http(method: \"GET\", uri: \"/bytes/{n}\")\n"
    "operation Download {\n"
    "    input := { @required @httpLabel n: Integer }\n"
    "    output := { @httpPayload Body: Stream }\n"
    "}\n";

struct source {
    size_t off, len, fail_at; // fail_at 0: never
    int calls;
};

// Produces len bytes of "0123456789…", in pieces of at most cap.
static long long read_digits(void *ud, char *buf, size_t cap) {
    struct source *s = ud;
    s->calls++;
    if (s->fail_at && s->off >= s->fail_at) return -1;
    size_t n = s->len - s->off;
    if (n > cap) n = cap;
    for (size_t i = 0; i < n; i++) buf[i] = (char)('0' + (s->off + i) % 10);
    s->off += n;
    return (long long)n;
}

struct sink {
    size_t len, stop_at; // stop_at 0: never
    int calls;
};

static int write_count(void *ud, const char *data, size_t len) {
    struct sink *k = ud;
    (void)data;
    k->calls++;
    k->len += len;
    return k->stop_at && k->len >= k->stop_at ? 1 : 0;
}

void test_streaming(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_client *c = NULL;
    smithycurl_result *r = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "stream.smithy", stream_model, strlen(stream_model)), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, NULL, &c), SMITHYCURL_OK);
    if (!c) return;

    // Upload from a read callback, known and unknown length: go-httpbin
    // echoes the body as "data".
    for (int known = 1; known >= 0; known--) {
        struct source src = {.len = 200000};
        CHECK_RC(smithycurl_call_stream(c, "Upload", "{}", 2, read_digits, &src, known ? 200000 : -1, NULL, NULL,
                                        NULL, &r),
                 SMITHYCURL_OK);
        const char *out = NULL;
        size_t n = 0;
        CHECK_RC(smithycurl_result_output(r, &out, &n), SMITHYCURL_OK);
        CHECK_CONTAINS(out, "\"data\":\"data:application/octet-stream;base64,MDEyMzQ1Njc4OTAx");
        CHECK_CONTAINS(out, "\"method\":\"PUT\"");
        CHECK(n > 266666 && n < 266800);
        CHECK(src.off == 200000 && src.calls >= 2);
        smithycurl_result_free(r);
    }

    // Download to a write callback: the output JSON has no Body.
    struct sink sk = {0};
    CHECK_RC(smithycurl_call_stream(c, "Download", "{\"n\": 90000}", 12, NULL, NULL, 0, write_count, &sk, NULL, &r),
             SMITHYCURL_OK);
    const char *out = NULL;
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK(out && strcmp(out, "{}") == 0);
    CHECK(sk.len == 90000 && sk.calls >= 1);
    smithycurl_result_free(r);

    // Without callbacks the body is base64 in the output, as before.
    CHECK_RC(smithycurl_call(c, "Download", "{\"n\": 3}", 8, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK(out && strncmp(out, "{\"Body\":\"", 9) == 0 && strlen(out) == 15);
    smithycurl_result_free(r);

    // A read callback failing half way, a write callback stopping: clear
    // errors, not retried.
    const char *msg = NULL;
    struct source bad = {.len = 200000, .fail_at = 100000};
    CHECK_RC(smithycurl_call_stream(c, "Upload", "{}", 2, read_digits, &bad, 200000, NULL, NULL, NULL, &r),
             SMITHYCURL_E_TRANSPORT);
    CHECK_RC(smithycurl_result_error_message(r, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "reading the request body: the read callback failed");
    smithycurl_result_free(r);
    struct sink stop = {.stop_at = 1};
    CHECK_RC(smithycurl_call_stream(c, "Download", "{\"n\": 90000}", 12, NULL, NULL, 0, write_count, &stop, NULL, &r),
             SMITHYCURL_E_TRANSPORT);
    CHECK_RC(smithycurl_result_error_message(r, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "writing the response body: the write callback failed");
    CHECK(stop.calls == 1);
    smithycurl_result_free(r);

    // Callbacks for an operation without such a payload.
    struct source src = {.len = 1};
    CHECK_RC(smithycurl_call_stream(c, "Download", "{\"n\": 1}", 8, read_digits, &src, 1, NULL, NULL, NULL, &r),
             SMITHYCURL_E_USAGE);
    CHECK_RC(smithycurl_result_error_message(r, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "has no streaming blob input payload");
    CHECK(src.calls == 0);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_call_stream(c, "Download", "{}", 2, NULL, NULL, 0, NULL, NULL, NULL, NULL),
             SMITHYCURL_E_INVALID_ARGUMENT);

    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

// ---- streamed bodies against testing/servers/blobserver (PutBlob reads and
// checks the pattern, byte i being i % 251; GetBlob writes it) ----

struct pattern_src {
    long long off, len, fail_at; // fail_at 0: never
    int calls, rewinds;
};

static long long read_pattern(void *ud, char *buf, size_t cap) {
    struct pattern_src *s = ud;
    s->calls++;
    if (s->fail_at && s->off >= s->fail_at) return -1;
    long long n = s->len - s->off;
    if (n > (long long)cap) n = (long long)cap;
    for (long long i = 0; i < n; i++) buf[i] = (char)((s->off + i) % 251);
    s->off += n;
    return n;
}

static int rewind_pattern(void *ud) {
    struct pattern_src *s = ud;
    s->rewinds++;
    s->off = 0;
    return 0;
}

struct pattern_sink {
    long long len;
    int bad; // a byte was not the pattern's
};

static int write_pattern(void *ud, const char *data, size_t len) {
    struct pattern_sink *k = ud;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)data[i] != (k->len + (long long)i) % 251) k->bad = 1;
    k->len += (long long)len;
    return 0;
}

// A /proc/self/status value in KiB, -1 when unknown.
static long status_kib(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') v = atol(line + n + 1);
    fclose(f);
    return v;
}

// 128 MiB up from a read callback and 128 MiB down to a write callback:
// the peak resident set (VmHWM, reset through /proc/self/clear_refs)
// grows by a few MiB at most. Under valgrind (SMITHYCURL_TEST_SLOW) the
// sizes shrink to 8 MiB and the memory is not measured.
void test_streaming_memory(void) {
    smithycurl_model *m;
    smithycurl_client *c = blobs_client(&m);
    if (!c) return;
    smithycurl_result *r = NULL;
    const char *out = NULL;
    long long size = slow > 1 ? 8LL << 20 : 128LL << 20;
    struct pattern_src warm = {.len = 1 << 20};
    struct pattern_sink wsink = {0};
    CHECK_RC(smithycurl_call_stream(c, "PutBlob", "{\"key\":\"c-warm\"}", 16, read_pattern, &warm, warm.len, NULL,
                                    NULL, NULL, &r),
             SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_call_stream(c, "GetBlob", "{\"size\":1048576}", 16, NULL, NULL, 0, write_pattern, &wsink,
                                    NULL, &r),
             SMITHYCURL_OK);
    smithycurl_result_free(r);

    FILE *clear = fopen("/proc/self/clear_refs", "w");
    int measured = clear && fputs("5", clear) >= 0;
    if (clear) measured = fclose(clear) == 0 && measured;
    long rss0 = status_kib("VmRSS");
    double t0 = now_s();
    struct pattern_src src = {.len = size};
    CHECK_RC(smithycurl_call_stream(c, "PutBlob", "{\"key\":\"c-big\"}", 15, read_pattern, &src, size, NULL, NULL,
                                    NULL, &r),
             SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    char want[128];
    snprintf(want, sizeof want, "\"intact\":true,\"size\":%lld", size);
    CHECK_CONTAINS(out, want);
    smithycurl_result_free(r);
    double t1 = now_s();
    struct pattern_sink sink = {0};
    char in[64];
    snprintf(in, sizeof in, "{\"size\":%lld}", size);
    CHECK_RC(smithycurl_call_stream(c, "GetBlob", in, strlen(in), NULL, NULL, 0, write_pattern, &sink, NULL, &r),
             SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK(sink.len == size && !sink.bad);
    long peak = status_kib("VmHWM");
    printf("    %lld MiB up in %.2f s, down in %.2f s; RSS %ld MiB, peak +%.1f MiB\n", size >> 20, t1 - t0,
           now_s() - t1, rss0 >> 10, (peak - rss0) / 1024.0);
    if (slow == 1) {
        CHECK(measured && rss0 > 0 && peak > 0);
        CHECK(peak - rss0 < 24 * 1024); // holding a body would be +128 MiB
    }
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// Retries of a streamed body (PutBlob is @idempotent; failFirst makes the
// server answer 503 after reading the body): with a rewind callback the
// body is sent again; without one, or after the read callback failed half
// way, never.
void test_streaming_retry(void) {
    smithycurl_model *m;
    smithycurl_client *c = blobs_client(&m);
    if (!c) return;
    smithycurl_result *r = NULL;
    const char *out = NULL, *msg = NULL;
    int attempts = 0, status = 0;

    struct pattern_src src = {.len = 300000};
    const char *in = "{\"key\":\"c-rw\",\"failFirst\":2}";
    CHECK_RC(smithycurl_call_stream_v2(c, "PutBlob", in, strlen(in), read_pattern, rewind_pattern, &src, src.len,
                                       NULL, NULL, NULL, &r),
             SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(out, "\"attempt\":3,\"intact\":true,\"size\":300000");
    CHECK(src.rewinds == 2);
    smithycurl_result_free(r);

    // No rewind: the 503 of the first send is the answer.
    struct pattern_src once = {.len = 300000};
    in = "{\"key\":\"c-once\",\"failFirst\":1}";
    CHECK_RC(smithycurl_call_stream(c, "PutBlob", in, strlen(in), read_pattern, &once, once.len, NULL, NULL, NULL,
                                    &r),
             SMITHYCURL_E_SERVICE);
    CHECK_RC(smithycurl_result_attempts(r, &attempts), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_http_status(r, &status), SMITHYCURL_OK);
    CHECK(attempts == 1 && status == 503);
    smithycurl_result_free(r);

    // A read callback failing half way, with or without rewind: a clear
    // error, one send, no rewind.
    for (int with_rewind = 0; with_rewind < 2; with_rewind++) {
        struct pattern_src bad = {.len = 400000, .fail_at = 200000};
        in = with_rewind ? "{\"key\":\"c-bad-rw\"}" : "{\"key\":\"c-bad\"}";
        CHECK_RC(smithycurl_call_stream_v2(c, "PutBlob", in, strlen(in), read_pattern,
                                           with_rewind ? rewind_pattern : NULL, &bad, bad.len, NULL, NULL, NULL, &r),
                 SMITHYCURL_E_TRANSPORT);
        CHECK_RC(smithycurl_result_error_message(r, &msg), SMITHYCURL_OK);
        CHECK_CONTAINS(msg, "reading the request body: the read callback failed");
        CHECK_RC(smithycurl_result_attempts(r, &attempts), SMITHYCURL_OK);
        CHECK(attempts == 1);
        CHECK(bad.rewinds == 0 && bad.off >= 200000 && bad.off < 400000);
        smithycurl_result_free(r);
    }
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
