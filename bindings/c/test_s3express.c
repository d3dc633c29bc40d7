// S3 Express One Zone from C: PutObject and GetObject on a directory bucket
// (the real S3 model, whose endpoint rules choose sigv4-s3express) against
// the fake endpoint of testing/servers/s3expressserver
// (SMITHYCURL_S3EXPRESS_URL), which accepts object calls only when signed
// by a session CreateSession gave, its token in x-amz-s3session-token; a
// bucket that refuses CreateSession fails the call with that error.

#include <stdlib.h>
#include <string.h>

#include "ctest.h"

void test_s3express(void) {
    const char *url = need_env("SMITHYCURL_S3EXPRESS_URL");
    if (!url) return;
    smithycurl_model *m = load_shared("models/aws-large/s3.json");
    if (!m) return;
    // testing/servers/s3expressserver's test credentials.
    smithycurl_client *c = aws_client(m, url, "AKIDS3EXPRESSTEST", "s3express-test-secret-4f9a", "us-west-2");
    if (c) {
        // "\0express\xff" in base64: the body in the document form.
        char *out = call_ok(c, "PutObject",
                            "{\"Bucket\": \"cbucket--usw2-az1--x-s3\", \"Key\": \"a/b.bin\", \"Body\": \"AGV4cHJlc3P/\"}");
        free(out);
        out = call_ok(c, "GetObject", "{\"Bucket\": \"cbucket--usw2-az1--x-s3\", \"Key\": \"a/b.bin\"}");
        CHECK_CONTAINS(out, "\"Body\":\"AGV4cHJlc3P/\"");
        free(out);
        // CreateSession's failure fails the call, with its error.
        smithycurl_result *r = NULL;
        CHECK_RC(smithycurl_call(c, "GetObject", "{\"Bucket\": \"denied--usw2-az1--x-s3\", \"Key\": \"k\"}", 48, NULL, &r),
                 SMITHYCURL_E_SERVICE);
        CHECK_CONTAINS(message_of(r), "CreateSession");
        const char *code = "";
        smithycurl_result_error_code(r, &code);
        CHECK(strcmp(code, "AccessDenied") == 0);
        smithycurl_result_free(r);
    }
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
