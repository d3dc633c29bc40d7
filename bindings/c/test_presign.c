// Presigned URLs (smithycurl_presign): the S3 documentation's example to
// the byte, and the refusals.

#include <string.h>

#include "ctest.h"

static const char presign_model[] =
    "$version: \"2\"\n"
    "namespace test.presign\n"
    "@aws.protocols#restJson1\n"
    "@aws.auth#sigv4(name: \"s3\")\n"
    "service Bucket { operations: [GetText] }\n"
    "@readonly @http(method: \"GET\", uri: \"/test.txt\")\n"
    "operation GetText { output := { } }\n";

void test_presign(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "presign.smithy", presign_model, sizeof presign_model - 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    if (!m) return;
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_aws_sigv4(o, "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", NULL,
                                              "us-east-1"),
             SMITHYCURL_OK);
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, "https://examplebucket.s3.amazonaws.com", o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    if (!c) {
        smithycurl_model_free(m);
        return;
    }

    // "Authenticating Requests: Using Query Parameters", signed on
    // 2013-05-24 for a day.
    smithycurl_result *r = NULL;
    CHECK_RC(smithycurl_presign(c, "GetText", NULL, 0, 86400, 1369353600LL, &r), SMITHYCURL_OK);
    const char *out = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_result_output(r, &out, &n), SMITHYCURL_OK);
    CHECK_CONTAINS(out, "{\"url\":\"https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                   "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                   "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                   "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404\","
                   "\"method\":\"GET\",\"headers\":{},\"expires\":\"2013-05-25T00:00:00Z\"}");
    CHECK(n == strlen(out));
    smithycurl_result_free(r);

    // Out of 1 s .. 7 days: a usage error saying so.
    CHECK_RC(smithycurl_presign(c, "GetText", "{}", 2, 604801, 0, &r), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(message_of(r), "not between 1 and 604800 (7 days)");
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_presign(c, "GetText", NULL, 0, 0, 0, &r), SMITHYCURL_E_USAGE);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_presign(c, "Nope", NULL, 0, 60, 0, &r), SMITHYCURL_E_NOT_FOUND);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_presign(c, "GetText", "{", 1, 60, 0, &r), SMITHYCURL_E_INVALID_JSON);
    smithycurl_result_free(r);
    r = (smithycurl_result *)1;
    CHECK_RC(smithycurl_presign(c, "GetText", NULL, 0, 60, -1, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_RC(smithycurl_presign(c, NULL, NULL, 0, 60, 0, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_presign(c, "GetText", NULL, 0, 60, 0, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_presign(NULL, "GetText", NULL, 0, 60, 0, &r), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
