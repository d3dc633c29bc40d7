// Checksums as the AWS SDKs since 2025 (issue 26, item 5), through the C
// API: the blob server's PutChecked answers with the checksum headers it
// got, GetChecked sends a CRC32 of its body (wrong for the key "bad").
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

// checked_client is a client of m with the two options (NULL: unset) and
// profile (NULL: none).
static smithycurl_client *checked_client(smithycurl_model *m, const char *request, const char *response,
                                         const char *profile) {
    const char *url = need_env("SMITHYCURL_BLOBS_URL");
    smithycurl_options *o = NULL;
    smithycurl_client *c = NULL;
    if (!url) return NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(o, 0, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_request_checksum_calculation(o, request), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_response_checksum_validation(o, response), SMITHYCURL_OK);
    if (profile) CHECK_RC(smithycurl_options_set_profile(o, profile), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, url, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    return c;
}

static int discard(void *user, const char *data, size_t len) {
    (void)user, (void)data, (void)len;
    return 0;
}

void test_checksums(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, "testing/servers/blobserver/blobs.smithy"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    if (!m) return;

    // Bad values are refused where they are set.
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_request_checksum_calculation(o, "always"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_response_checksum_validation(o, "When_Supported"), SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_options_free(o);

    const char *put = "{\"key\": \"k\", \"body\": \"aGVsbG8=\"}"; // "hello"
    const char *caller = "{\"key\": \"k\", \"checksumCrc32\": \"AAAAAA==\", \"body\": \"aGVsbG8=\"}";
    // Default (NULL: the settings, else when_supported): CRC32 of the body,
    // its algorithm named; the caller's value as given, with no algorithm.
    smithycurl_client *c = checked_client(m, NULL, NULL, NULL);
    char *out = call_ok(c, "PutChecked", put);
    CHECK_CONTAINS(squash(out), "{\"algorithm\":\"CRC32\",\"crc32\":\"NhCmhg==\"}");
    free(out);
    out = call_ok(c, "PutChecked", caller);
    CHECK_CONTAINS(squash(out), "{\"algorithm\":\"\",\"crc32\":\"AAAAAA==\"}");
    free(out);
    // Responses checked without asking: a mismatch is a decode error, in
    // the document and streamed; a composite checksum is not checked.
    free(call_ok(c, "GetChecked", "{\"key\": \"good\"}"));
    free(call_ok(c, "GetChecked", "{\"key\": \"parts\"}"));
    smithycurl_result *r = call_err(c, "GetChecked", "{\"key\": \"bad\"}", NULL, SMITHYCURL_E_DECODE, SMITHYCURL_KIND_DECODE);
    CHECK_CONTAINS(message_of(r), "response checksum mismatch: x-amz-checksum-crc32 is");
    smithycurl_result_free(r);
    r = NULL;
    CHECK_RC(smithycurl_call_stream(c, "GetChecked", "{\"key\": \"bad\"}", 14, NULL, NULL, 0, discard, NULL, NULL, &r),
             SMITHYCURL_E_DECODE);
    CHECK_CONTAINS(message_of(r), "response checksum mismatch");
    smithycurl_result_free(r);
    smithycurl_client_free(c);

    // when_required: no checksum unless asked, responses checked only with
    // checksumMode ENABLED.
    c = checked_client(m, "when_required", "when_required", NULL);
    out = call_ok(c, "PutChecked", put);
    CHECK_CONTAINS(squash(out), "{\"algorithm\":\"\",\"crc32\":\"\"}");
    free(out);
    out = call_ok(c, "PutChecked", "{\"key\": \"k\", \"checksumAlgorithm\": \"CRC32\", \"body\": \"aGVsbG8=\"}");
    CHECK_CONTAINS(squash(out), "{\"algorithm\":\"CRC32\",\"crc32\":\"NhCmhg==\"}");
    free(out);
    free(call_ok(c, "GetChecked", "{\"key\": \"bad\"}"));
    r = call_err(c, "GetChecked", "{\"key\": \"bad\", \"checksumMode\": \"ENABLED\"}", NULL, SMITHYCURL_E_DECODE,
                 SMITHYCURL_KIND_DECODE);
    smithycurl_result_free(r);
    smithycurl_client_free(c);
    smithycurl_model_free(m);

    // The settings of an AWS service's profile (bindings/c/run.sh writes
    // [profile ctest-checksums] with both when_required): the blob service
    // made one with an apply statement.
    static const char aws[] = "$version: \"2\"\nnamespace smithycurl.test.blobs\n"
                              "apply Blobs @aws.api#service(sdkId: \"Blobs\")\n";
    const char *cfg = getenv("AWS_CONFIG_FILE");
    if (!cfg || !strstr(cfg, "ctest-aws")) return; // not run by run.sh
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, "testing/servers/blobserver/blobs.smithy"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "aws.smithy", aws, sizeof aws - 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    if (!m) return;
    c = checked_client(m, NULL, NULL, "ctest-checksums");
    out = call_ok(c, "PutChecked", put);
    CHECK_CONTAINS(squash(out), "{\"algorithm\":\"\",\"crc32\":\"\"}");
    free(out);
    free(call_ok(c, "GetChecked", "{\"key\": \"bad\"}"));
    smithycurl_client_free(c);
    // The options win over the profile.
    c = checked_client(m, "when_supported", NULL, "ctest-checksums");
    out = call_ok(c, "PutChecked", put);
    CHECK_CONTAINS(squash(out), "{\"algorithm\":\"CRC32\",\"crc32\":\"NhCmhg==\"}");
    free(out);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
