// S3 transfers (smithycurl_s3_upload_file, _download_file, _upload,
// _download): the argument checks and a local file that cannot be read or
// written, which fail before anything is sent; then, against the fake S3
// of testing/servers/s3partserver (SMITHYCURL_S3PART_URL, the real S3
// model), a round trip through the callbacks with their progress on the
// calling thread, a part that fails once and is retried, and the upload
// aborted with nothing left (ListMultipartUploads) after a cancel by the
// progress callback, a cancel token cancelled mid-upload and a server error
// on CompleteMultipartUpload. The round trip against s3rver is the Python
// package's (bindings/python/tests/test_aws.py).

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

void test_s3_transfer(void) {
    smithycurl_model *m = load_httpbin();
    if (!m) return;
    smithycurl_client *c = new_client(m, NULL, NULL);
    if (!c) {
        smithycurl_model_free(m);
        return;
    }
    smithycurl_result *r = NULL;
    smithycurl_transfer_options o = SMITHYCURL_TRANSFER_OPTIONS_INIT;
    o.part_size = 5 << 20;
    o.concurrency = 2;

    // A missing file: a usage error naming it, nothing sent.
    CHECK_RC(smithycurl_s3_upload_file(c, "b", "k", "/nonexistent/smithycurl-ctest", &o, NULL, &r),
             SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(message_of(r), "open /nonexistent/smithycurl-ctest: no such file or directory");
    smithycurl_result_free(r);
    // A file that cannot be created (its directory is missing).
    CHECK_RC(smithycurl_s3_download_file(c, "b", "k", "/nonexistent/smithycurl-ctest", NULL, NULL, &r),
             SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(message_of(r), "/nonexistent/");
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_s3_upload_file(c, "", "k", "/dev/null", NULL, NULL, &r), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(message_of(r), "give a bucket, a key and a file");
    smithycurl_result_free(r);

    // Refused arguments: no result.
    r = (smithycurl_result *)1;
    CHECK_RC(smithycurl_s3_upload_file(c, NULL, "k", "/dev/null", NULL, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_RC(smithycurl_s3_download_file(c, "b", "k", NULL, NULL, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    smithycurl_transfer_options neg = SMITHYCURL_TRANSFER_OPTIONS_INIT;
    neg.concurrency = -1;
    CHECK_RC(smithycurl_s3_upload_file(c, "b", "k", "/dev/null", &neg, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    // Options without their size (a zeroed struct), or from a later header
    // than this library knows.
    smithycurl_transfer_options unsized = {0};
    CHECK_RC(smithycurl_s3_upload_file(c, "b", "k", "/dev/null", &unsized, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    struct {
        smithycurl_transfer_options o;
        long long later;
    } newer = {SMITHYCURL_TRANSFER_OPTIONS_INIT, 1};
    newer.o.size = sizeof newer;
    CHECK_RC(smithycurl_s3_upload_file(c, "b", "k", "/dev/null", &newer.o, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_RC(smithycurl_s3_upload_file(c, "b", "k", "/dev/null", NULL, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_s3_download_file(NULL, "b", "k", "/tmp/x", NULL, NULL, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(r == NULL);

    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// The fake's parts are 64 KiB (it has no 5 MiB minimum): 3 parts + 1 byte.
#define PART (64 << 10)
#define OBJ (3 * PART + 1)

struct mem {
    unsigned char *buf;
    size_t len, pos, cap;
    int reads, writes, progress_calls, wrong_thread;
    long long last_done, last_total;
    int cancel_after;                 // progress: cancel on this call (0: never)
    smithycurl_cancel_token *tok;     // read: cancel it after the first part
    pthread_t caller;
};

static long long mem_read(void *u, char *buf, size_t cap) {
    struct mem *m = u;
    m->reads++;
    if (!pthread_equal(pthread_self(), m->caller)) m->wrong_thread++;
    if (m->tok && m->pos >= PART) smithycurl_cancel_token_cancel(m->tok);
    size_t n = m->len - m->pos < cap ? m->len - m->pos : cap;
    memcpy(buf, m->buf + m->pos, n);
    m->pos += n;
    return (long long)n;
}

static int mem_write(void *u, const char *data, size_t len) {
    struct mem *m = u;
    m->writes++;
    if (!pthread_equal(pthread_self(), m->caller)) m->wrong_thread++;
    if (m->len + len > m->cap) return 1;
    memcpy(m->buf + m->len, data, len);
    m->len += len;
    return 0;
}

static int mem_progress(void *u, long long done, long long total) {
    struct mem *m = u;
    m->progress_calls++;
    if (!pthread_equal(pthread_self(), m->caller)) m->wrong_thread++;
    m->last_done = done;
    m->last_total = total;
    return m->cancel_after && m->progress_calls >= m->cancel_after;
}

static int never_progress(void *u, long long done, long long total) {
    (void)done;
    (void)total;
    ++*(int *)u;
    return 1;
}

// uploads_left is ListMultipartUploads of the bucket: whether it names any.
static int uploads_left(smithycurl_client *c) {
    char *out = call_ok(c, "ListMultipartUploads", "{\"Bucket\": \"b\"}");
    int left = strstr(out, "UploadId") != NULL;
    free(out);
    return left;
}

void test_s3_transfer_stream(void) {
    const char *url = need_env("SMITHYCURL_S3PART_URL");
    if (!url) return;
    smithycurl_model *m = load_shared("models/aws-large/s3.json");
    if (!m) return;
    smithycurl_client *c = aws_client(m, url, "AKIDEXAMPLE", "secret", "us-east-1");
    unsigned char *data = malloc(OBJ), *back = malloc(OBJ);
    if (!c || !data || !back) goto out;
    for (size_t i = 0; i < OBJ; i++) data[i] = (unsigned char)(i * 31 + (i >> 9));

    smithycurl_transfer_options o = SMITHYCURL_TRANSFER_OPTIONS_INIT;
    o.part_size = PART;
    o.threshold = PART;
    o.concurrency = 2;
    o.progress = mem_progress;
    smithycurl_result *r = NULL;
    const char *json = NULL;
    size_t n = 0;

    // Up from a read callback of known size, down to a write callback: the
    // bytes come back, every callback ran on this thread, the progress
    // reached the size.
    struct mem up = {.buf = data, .len = OBJ, .caller = pthread_self()};
    o.progress_data = &up;
    CHECK_RC(smithycurl_s3_upload(c, "b", "obj", mem_read, &up, OBJ, &o, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &json, &n), SMITHYCURL_OK);
    CHECK_CONTAINS(json, "\"Parts\":4");
    smithycurl_result_free(r);
    CHECK(up.wrong_thread == 0 && up.reads > 0 && up.progress_calls == 4);
    CHECK(up.last_done == OBJ && up.last_total == OBJ);
    struct mem down = {.buf = back, .cap = OBJ, .caller = pthread_self()};
    o.progress_data = &down;
    CHECK_RC(smithycurl_s3_download(c, "b", "obj", mem_write, &down, &o, NULL, &r), SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK(down.len == OBJ && memcmp(back, data, OBJ) == 0);
    CHECK(down.wrong_thread == 0 && down.writes > 0 && down.progress_calls == 4 && down.last_total == OBJ);

    // A size of -1: the progress's total is unknown.
    struct mem unsized = {.buf = data, .len = OBJ, .caller = pthread_self()};
    o.progress_data = &unsized;
    CHECK_RC(smithycurl_s3_upload(c, "b", "obj2", mem_read, &unsized, -1, &o, NULL, &r), SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK(unsized.last_done == OBJ && unsized.last_total == -1);

    // Part 2 fails once (500): the client sends it again.
    struct mem retried = {.buf = data, .len = OBJ, .caller = pthread_self()};
    o.progress_data = &retried;
    CHECK_RC(smithycurl_s3_upload(c, "b", "fail-part-2", mem_read, &retried, OBJ, &o, NULL, &r), SMITHYCURL_OK);
    smithycurl_result_free(r);

    // The progress callback cancels after the first part: cancelled, the
    // upload aborted, none left.
    struct mem stop = {.buf = data, .len = OBJ, .cancel_after = 1, .caller = pthread_self()};
    o.progress_data = &stop;
    CHECK_RC(smithycurl_s3_upload(c, "b", "cancelled", mem_read, &stop, OBJ, &o, NULL, &r), SMITHYCURL_E_CANCELLED);
    CHECK_CONTAINS(message_of(r), "aborted");
    smithycurl_result_free(r);
    CHECK(stop.progress_calls == 1);
    CHECK(!uploads_left(c));

    // A cancel token cancelled (here from the read callback) mid-upload.
    smithycurl_cancel_token *tok = NULL;
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
    struct mem tokd = {.buf = data, .len = OBJ, .tok = tok, .caller = pthread_self()};
    o.progress_data = &tokd;
    CHECK_RC(smithycurl_s3_upload(c, "b", "token", mem_read, &tokd, OBJ, &o, tok, &r), SMITHYCURL_E_CANCELLED);
    CHECK_CONTAINS(message_of(r), "aborted");
    smithycurl_result_free(r);
    smithycurl_cancel_token_free(tok);
    CHECK(!uploads_left(c));

    // A server error on CompleteMultipartUpload: the service's error, the
    // upload aborted.
    struct mem failing = {.buf = data, .len = OBJ, .caller = pthread_self()};
    o.progress_data = &failing;
    CHECK_RC(smithycurl_s3_upload(c, "b", "fail-complete", mem_read, &failing, OBJ, &o, NULL, &r),
             SMITHYCURL_E_SERVICE);
    CHECK_CONTAINS(message_of(r), "aborted");
    smithycurl_result_free(r);
    CHECK(!uploads_left(c));

    // Options of the first version's size: progress is not read.
    int called = 0;
    smithycurl_transfer_options v1 = o;
    v1.size = offsetof(smithycurl_transfer_options, concurrency) + sizeof(int);
    v1.progress = never_progress;
    v1.progress_data = &called;
    struct mem again = {.buf = back, .cap = OBJ, .caller = pthread_self()};
    CHECK_RC(smithycurl_s3_download(c, "b", "obj", mem_write, &again, &v1, NULL, &r), SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK(called == 0 && again.len == OBJ);

    // A write callback that refuses stops the download.
    struct mem full = {.buf = back, .cap = 10, .caller = pthread_self()};
    CHECK_RC(smithycurl_s3_download(c, "b", "obj", mem_write, &full, NULL, NULL, &r), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(message_of(r), "the write callback failed");
    smithycurl_result_free(r);
    // No callback: refused.
    CHECK_RC(smithycurl_s3_upload(c, "b", "k", NULL, NULL, 0, NULL, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
out:
    free(data);
    free(back);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
