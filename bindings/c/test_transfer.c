// S3 transfers (smithycurl_s3_upload_file, _download_file): the argument
// checks and a local file that cannot be read or written, which fail
// before anything is sent. The round trip against s3rver is the Python
// package's (bindings/python/tests/test_aws.py), which runs this code.

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
