// What the AWS SDKs do without being asked (issue 28, items 4, 7, 8),
// through the C API: the retry mode, @requestCompression's threshold and
// switch, the application id and front end in the User-Agent, and the
// invocation headers, seen by httpbin's /anything (which echoes them).
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

static const char sdk_model[] =
    "$version: \"2\"\n"
    "namespace test.sdk\n"
    "@aws.protocols#restJson1\n"
    "@aws.api#service(sdkId: \"Echo Test\")\n"
    "service Echo { version: \"2026-01-01\", operations: [Anything] }\n"
    "@http(method: \"POST\", uri: \"/anything\")\n"
    "@requestCompression(encodings: [\"gzip\"])\n"
    "operation Anything { input := { @httpPayload text: String }, output := { headers: Document } }\n";

// echo_headers calls Anything with a client of m made with o (freed) and
// returns the headers httpbin got, as JSON (the caller frees it). The
// payload is text, which httpbin takes as it comes, gzipped or not.
static char *echo_headers(smithycurl_model *m, smithycurl_options *o) {
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    if (!c) return strdup("");
    char *out = call_ok(c, "Anything", "{\"text\": \"hello\"}");
    smithycurl_client_free(c);
    return squash(out);
}

void test_sdk_options(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "sdk.smithy", sdk_model, sizeof sdk_model - 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    if (!m) return;

    // Bad values are refused where they are set, naming the setting.
    smithycurl_options *o = NULL;
    char *msg = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retry_mode(o, "fast"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_request_min_compression_size(o, 10485761), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_errmsg(o, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "request_min_compression_size_bytes must be from 0 to 10485760");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_options_set_request_min_compression_size(o, -2), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_front_end(o, NULL, "1"), SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_options_free(o);

    // Defaults: a 17-byte body is not compressed (under 10,240 bytes); the
    // User-Agent names C and the standard mode; one attempt so far.
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    char *out = echo_headers(m, o);
    CHECK(strstr(out, "\"Content-Encoding\"") == NULL);
    CHECK_CONTAINS(out, " lang/c md/go#");
    CHECK_CONTAINS(out, " api/echo-test#2026-01-01 cfg/retry-mode#standard");
    CHECK_CONTAINS(out, "attempt=1; max=3");
    CHECK_CONTAINS(out, "Amz-Sdk-Invocation-Id");
    free(out);

    // The options: adaptive, every body compressed, an application id, a
    // binding's front end.
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retry_mode(o, "adaptive"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_request_min_compression_size(o, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_app_id(o, "ctest app"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_front_end(o, "ruby", "3.3.0"), SMITHYCURL_OK);
    out = echo_headers(m, o);
    CHECK_CONTAINS(out, "\"Content-Encoding\":[\"gzip\"]");
    CHECK_CONTAINS(out, " lang/ruby#3.3.0 md/go#");
    CHECK_CONTAINS(out, " cfg/retry-mode#adaptive app/ctest-app");
    free(out);

    // Compression switched off wins over a minimum of 0.
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_request_min_compression_size(o, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_disable_request_compression(o, 1), SMITHYCURL_OK);
    out = echo_headers(m, o);
    CHECK(strstr(out, "\"Content-Encoding\"") == NULL);
    free(out);

    // An application id over 50 characters fails the client, naming it.
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_app_id(o, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), SMITHYCURL_OK);
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, o, &c), SMITHYCURL_E_USAGE);
    CHECK_RC(smithycurl_model_errmsg(m, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "WithAppID: the application id must be at most 50 characters");
    smithycurl_free(msg);
    smithycurl_options_free(o);
    smithycurl_model_free(m);
}
