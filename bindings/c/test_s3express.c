// S3 Express One Zone from C: PutObject and GetObject on a directory bucket
// (the real S3 model, whose endpoint rules choose sigv4-s3express) against
// the fake endpoint of testing/servers/s3expressserver
// (SMITHYCURL_S3EXPRESS_URL), which accepts object calls only when signed
// by a session CreateSession gave, its token in x-amz-s3session-token; a
// bucket that refuses CreateSession fails the call with that error.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

void test_s3express(void) {
    const char *url = getenv("SMITHYCURL_S3EXPRESS_URL"), *shared = getenv("SMITHYCURL_SHARED");
    if (!url || !shared) {
        printf("  (skipped: SMITHYCURL_S3EXPRESS_URL or SMITHYCURL_SHARED not set)\n");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/models/aws-large/s3.json", shared);
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    if (!m) return;
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    // testing/servers/s3expressserver's test credentials.
    CHECK_RC(smithycurl_options_set_aws_sigv4(o, "AKIDS3EXPRESSTEST", "s3express-test-secret-4f9a", NULL, "us-west-2"),
             SMITHYCURL_OK);
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, url, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
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
