// Blob payloads as bytes (smithycurl_call_payload and its _async, _queued
// forms, smithycurl_result_payload, _take_payload) against
// testing/servers/blobserver: PutBlob checks that the body is the pattern
// (byte i is i % 251, no valid UTF-8), GetBlob sends it.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

// A malloc'd buffer of n bytes of the pattern.
static unsigned char *pattern(size_t n) {
    unsigned char *p = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i % 251);
    return p;
}

static int is_pattern(const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        if (p[i] != i % 251) return 0;
    return 1;
}

// 1 MiB up from the caller's memory and down into the result's, byte-exact,
// neither in the JSON; a retried upload sends the same bytes again; the
// payload handed over with _take_payload; the argument checks.
void test_payload(void) {
    smithycurl_model *m;
    smithycurl_client *c = blobs_client(&m);
    if (!c) return;
    smithycurl_result *r = NULL;
    const char *out = NULL;
    const void *data = NULL;
    size_t n = 0, len = 0;
    const size_t size = 1 << 20;
    unsigned char *body = pattern(size);

    smithycurl_payload p = SMITHYCURL_PAYLOAD_INIT;
    p.data = body;
    p.len = size;
    const char *in = "{\"key\":\"c-payload\"}";
    CHECK_RC(smithycurl_call_payload(c, "PutBlob", in, strlen(in), &p, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(out, "\"intact\":true,\"size\":1048576");
    // PutBlob's output has no payload.
    CHECK_RC(smithycurl_result_payload(r, &data, &n), SMITHYCURL_OK);
    CHECK(data == NULL && n == 0);
    smithycurl_result_free(r);

    // Retried (503 twice after the body was read): the bytes are sent again.
    in = "{\"key\":\"c-payload-retry\",\"failFirst\":2}";
    CHECK_RC(smithycurl_call_payload(c, "PutBlob", in, strlen(in), &p, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(out, "\"attempt\":3,\"intact\":true,\"size\":1048576");
    smithycurl_result_free(r);

    in = "{\"size\":1048576}";
    CHECK_RC(smithycurl_call_payload(c, "GetBlob", in, strlen(in), NULL, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, &len), SMITHYCURL_OK);
    CHECK(strstr(out, "\"body\"") == NULL && len < 200); // not in the JSON
    CHECK_RC(smithycurl_result_payload(r, &data, &n), SMITHYCURL_OK);
    CHECK(data != NULL && n == size && is_pattern(data, n));
    void *mine = NULL;
    CHECK_RC(smithycurl_result_take_payload(r, &mine, &n), SMITHYCURL_OK);
    CHECK(mine == data && n == size);
    CHECK_RC(smithycurl_result_payload(r, &data, &n), SMITHYCURL_OK);
    CHECK(data == NULL && n == 0);
    smithycurl_result_free(r);
    CHECK(is_pattern(mine, size)); // the caller's now, past the result
    smithycurl_free(mine);

    // An empty payload: present, not NULL.
    in = "{\"size\":0}";
    CHECK_RC(smithycurl_call_payload(c, "GetBlob", in, strlen(in), NULL, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_payload(r, &data, &n), SMITHYCURL_OK);
    CHECK(data != NULL && n == 0);
    smithycurl_result_free(r);
    p.len = 0;
    in = "{\"key\":\"c-payload-empty\"}";
    CHECK_RC(smithycurl_call_payload(c, "PutBlob", in, strlen(in), &p, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(out, "\"intact\":true,\"size\":0");
    smithycurl_result_free(r);
    p.len = size;

    // A payload beside the member in the JSON, or for an operation without
    // one: usage errors. A size or flags this library does not know: refused.
    in = "{\"key\":\"k\",\"body\":\"eA==\"}";
    CHECK_RC(smithycurl_call_payload(c, "PutBlob", in, strlen(in), &p, NULL, &r), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(message_of(r), "given both in the input and as payload bytes");
    CHECK_RC(smithycurl_result_payload(r, &data, &n), SMITHYCURL_E_NO_OUTPUT);
    smithycurl_result_free(r);
    in = "{\"size\":1}";
    CHECK_RC(smithycurl_call_payload(c, "GetBlob", in, strlen(in), &p, NULL, &r), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(message_of(r), "has no blob input payload");
    smithycurl_result_free(r);
    smithycurl_payload bad = p;
    bad.size = sizeof bad + 8;
    r = (smithycurl_result *)1;
    CHECK_RC(smithycurl_call_payload(c, "GetBlob", in, strlen(in), &bad, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    bad = p;
    bad.flags = 2;
    CHECK_RC(smithycurl_call_payload(c, "GetBlob", in, strlen(in), &bad, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_call_payload(c, "GetBlob", in, strlen(in), NULL, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_result_payload(NULL, &data, &n), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call_payload(c, "GetBlob", in, strlen(in), NULL, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_payload(r, NULL, &n), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_result_take_payload(r, &mine, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_result_free(r);

    free(body);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// A blob payload that is not @streaming (as Lambda Invoke's Payload), in and
// out, against go-httpbin: PUT /anything echoes the body in "data", GET
// /bytes/{n} sends n bytes.
static const char blob_model[] =
    "$version: \"2\"\n"
    "namespace t\n"
    "use aws.protocols#restJson1\n"
    "@restJson1\n"
    "service S { operations: [Echo, Bytes] }\n"
    "@http(method: \"PUT\", uri: \"/anything/echo\")\n"
    "operation Echo {\n"
    "    input := { @httpPayload body: Blob }\n"
    "    output := { data: String }\n"
    "}\n"
    "@readonly\n"
    "@http(method: \"GET\", uri: \"/bytes/{n}\")\n"
    "operation Bytes {\n"
    "    input := { @required @httpLabel n: Integer }\n"
    "    output := { @httpPayload body: Blob }\n"
    "}\n";

void test_payload_blob(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_client *c = NULL;
    smithycurl_result *r = NULL;
    const char *out = NULL;
    const void *data = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "blob.smithy", blob_model, strlen(blob_model)), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, NULL, &c), SMITHYCURL_OK);
    if (!c) return;
    static const char text[] = "bytes beside the document";
    smithycurl_payload p = SMITHYCURL_PAYLOAD_INIT;
    p.data = text;
    p.len = sizeof text - 1;
    CHECK_RC(smithycurl_call_payload(c, "Echo", "{}", 2, &p, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    // (go-httpbin echoes an octet-stream body as a base64 data URL.)
    CHECK_CONTAINS(out, "\"data\":\"data:application/octet-stream;base64,Ynl0ZXMgYmVzaWRlIHRoZSBkb2N1bWVudA==\"");
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_call_payload(c, "Bytes", "{\"n\":3000}", 10, NULL, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK(strstr(out, "body") == NULL);
    CHECK_RC(smithycurl_result_payload(r, &data, &n), SMITHYCURL_OK);
    CHECK(data != NULL && n == 3000);
    smithycurl_result_free(r);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// The asynchronous forms: a payload copied at once (SMITHYCURL_PAYLOAD_COPY:
// the caller's buffer is freed before the call completes; valgrind would
// see a read of it) and one read in place, by callback and by queue; the
// output payload in the completion's result.
void test_payload_async(void) {
    smithycurl_model *m;
    smithycurl_client *c = blobs_client(&m);
    if (!c) return;
    const size_t size = 300000;
    struct tally t;
    struct slot slots[3];
    memset(slots, 0, sizeof slots);
    tally_init(&t, slots);

    unsigned char *copied = pattern(size);
    smithycurl_payload p = SMITHYCURL_PAYLOAD_INIT;
    p.data = copied;
    p.len = size;
    p.flags = SMITHYCURL_PAYLOAD_COPY;
    struct cb_arg a0 = {&t, &slots[0]};
    const char *in = "{\"key\":\"c-async-copy\"}";
    CHECK_RC(smithycurl_call_payload_async(c, "PutBlob", in, strlen(in), &p, NULL, on_done, &a0), SMITHYCURL_OK);
    memset(copied, 0, size);
    free(copied);

    unsigned char *kept = pattern(size);
    smithycurl_payload q = SMITHYCURL_PAYLOAD_INIT;
    q.data = kept;
    q.len = size;
    struct cb_arg a1 = {&t, &slots[1]};
    in = "{\"key\":\"c-async-kept\"}";
    CHECK_RC(smithycurl_call_payload_async(c, "PutBlob", in, strlen(in), &q, NULL, on_done, &a1), SMITHYCURL_OK);
    CHECK(wait_done(&t, 2, 60.0 * slow) == 2);
    free(kept);
    for (int i = 0; i < 2; i++) {
        CHECK(slots[i].hits == 1 && slots[i].code == SMITHYCURL_OK);
        CHECK_CONTAINS(slots[i].output, "\"intact\":true,\"size\":300000");
    }

    // By queue: GetBlob's payload in the result taken from the queue.
    smithycurl_queue *queue = NULL;
    CHECK_RC(smithycurl_queue_new(&queue), SMITHYCURL_OK);
    in = "{\"size\":300000}";
    CHECK_RC(smithycurl_call_payload_queued(c, "GetBlob", in, strlen(in), NULL, NULL, queue, &slots[2]),
             SMITHYCURL_OK);
    void *tag = NULL;
    smithycurl_code code = SMITHYCURL_E_INTERNAL;
    smithycurl_result *r = NULL;
    CHECK_RC(smithycurl_queue_next(queue, 60000L * slow, &tag, &code, &r), SMITHYCURL_OK);
    CHECK(tag == &slots[2] && code == SMITHYCURL_OK);
    const void *data = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_result_payload(r, &data, &n), SMITHYCURL_OK);
    CHECK(n == size && data && is_pattern(data, n));
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_call_payload_queued(c, "GetBlob", in, strlen(in), NULL, NULL, NULL, NULL),
             SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_queue_free(queue);

    check_slots(slots, 2, SMITHYCURL_OK);
    tally_destroy(&t);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
