// SigV4a from C: EventBridge PutEvents with an EndpointId (the real model),
// whose endpoint rules choose sigv4a, against the fake global endpoint of
// testing/servers/sigv4aserver, which verifies the signature with the
// public key of its test credentials.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

#define SIGV4A_ENTRIES "\"Entries\": [{\"Source\": \"test\", \"DetailType\": \"t\", \"Detail\": \"{}\"}]"

void test_sigv4a(void) {
    const char *url = need_env("SMITHYCURL_SIGV4A_URL");
    if (!url) return;
    smithycurl_model *m = load_shared("aws-models/eventbridge.json");
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    // testing/servers/sigv4aserver's test credentials.
    CHECK_RC(smithycurl_options_set_aws_sigv4(o, "AKIDSIGV4ATEST", "sigv4a-test-secret-7c1e5b2d", NULL, "us-east-1"),
             SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_region(o, "us-east-1"), SMITHYCURL_OK);
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, url, o, &c), SMITHYCURL_OK);
    if (c) {
        char *out = call_ok(c, "PutEvents", "{\"EndpointId\": \"abcde.veo\", " SIGV4A_ENTRIES "}");
        CHECK_CONTAINS(squash(out), "\"EventId\":\"sigv4a events *\"");
        free(out);
        // Without EndpointId the rules choose SigV4, which the fake refuses.
        smithycurl_result *r = call_err(c, "PutEvents", "{" SIGV4A_ENTRIES "}", NULL, SMITHYCURL_E_SERVICE,
                                        SMITHYCURL_KIND_SERVICE);
        CHECK_CONTAINS(message_of(r), "not signed with SigV4a");
        smithycurl_result_free(r);
    }
    smithycurl_client_free(c);
    smithycurl_options_free(o);
    smithycurl_model_free(m);
}
