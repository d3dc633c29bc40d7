// An output value its type cannot hold is a decode error whose message
// names the member path, the value and the type's range. Before, the
// output carried Count 1.5 and 2147483648 in Integer members unchanged.

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

// httpbin's /base64/{value} answers the decoded value: a canned body.
static const char numbers_model[] =
    "$version: \"2\"\n"
    "namespace test.numbers\n"
    "use aws.protocols#restJson1\n"
    "@restJson1\n"
    "service Tables { operations: [Scan] }\n"
    "@readonly @http(method: \"GET\", uri: \"/base64/{body}\")\n"
    "operation Scan { input := { @required @httpLabel body: String }, output: ScanOutput }\n"
    "structure ScanOutput { Count: Integer, ScannedCount: Integer, Ratio: Double }\n";

void test_output_types(void) {
    static const struct {
        const char *body; // base64url of the body
        const char *want;
    } cases[] = {
        // {"Count": 1.5, "ScannedCount": 2}
        {"eyJDb3VudCI6IDEuNSwgIlNjYW5uZWRDb3VudCI6IDJ9",
         "response of Scan (HTTP 200): member ScanOutput.Count: 1.5 is not a whole number (integer: -2147483648 to 2147483647)"},
        // {"Count": 1, "ScannedCount": 2147483648}
        {"eyJDb3VudCI6IDEsICJTY2FubmVkQ291bnQiOiAyMTQ3NDgzNjQ4fQ==",
         "response of Scan (HTTP 200): member ScanOutput.ScannedCount: 2147483648 is out of range (integer: -2147483648 to 2147483647)"},
        // {"Ratio": 1e400}
        {"eyJSYXRpbyI6IDFlNDAwfQ==",
         "response of Scan (HTTP 200): member ScanOutput.Ratio: 1e400 is out of range (double: \xc2\xb1" "1.7976931348623157e308)"},
    };
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "numbers.smithy", numbers_model, sizeof numbers_model - 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, NULL, &c), SMITHYCURL_OK);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char in[256];
        snprintf(in, sizeof in, "{\"body\": \"%s\"}", cases[i].body);
        smithycurl_result *r = call_err(c, "Scan", in, NULL, SMITHYCURL_E_DECODE, SMITHYCURL_KIND_DECODE);
        const char *msg = message_of(r);
        if (strcmp(msg, cases[i].want) != 0) failf(__FILE__, __LINE__, "message \"%s\", want \"%s\"", msg, cases[i].want);
        smithycurl_result_free(r);
    }
    // The edges still decode: {"Count": 2147483647, "Ratio": "-Infinity"}
    char *out = call_ok(c, "Scan", "{\"body\": \"eyJDb3VudCI6IDIxNDc0ODM2NDcsICJSYXRpbyI6ICItSW5maW5pdHkifQ==\"}");
    CHECK(strcmp(squash(out), "{\"Count\":2147483647,\"Ratio\":\"-Infinity\"}") == 0);
    free(out);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
    smithycurl_loader_free(ld);
}
