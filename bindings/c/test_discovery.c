// Endpoint discovery (aws.api#clientEndpointDiscovery) with the
// Timestream Write model against testing/servers/timestreamserver: its
// regional endpoint is the profile ctest-timestream's endpoint_url (a
// configured endpoint, which discovery goes through), and its controls
// (/_set, /_stats) are called through a small restJson1 model.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

static const char control_model[] =
    "$version: \"2\"\n"
    "namespace test.tscontrol\n"
    "@aws.protocols#restJson1\n"
    "service Control { operations: [Stats, Set] }\n"
    "@readonly @http(method: \"GET\", uri: \"/_stats\")\n"
    "operation Stats { output := { describes: Integer, cell: Integer } }\n"
    "@http(method: \"POST\", uri: \"/_set\")\n"
    "operation Set { input := { @httpQuery(\"period\") period: Integer, @httpQuery(\"invalidate\") invalidate: Integer } }\n";

// set_fake resets the fake's counts with a cache period and invalidations.
static void set_fake(smithycurl_client *control, int period, int invalidate) {
    char in[64];
    snprintf(in, sizeof in, "{\"period\":%d,\"invalidate\":%d}", period, invalidate);
    free(call_ok(control, "Set", in));
}

// check_stats checks the DescribeEndpoints calls and the cell's calls.
static void check_stats(smithycurl_client *control, int describes, int cell) {
    char want[64];
    char *out = call_ok(control, "Stats", "{}");
    snprintf(want, sizeof want, "\"describes\":%d", describes);
    CHECK_CONTAINS(out, want);
    snprintf(want, sizeof want, "\"cell\":%d", cell);
    CHECK_CONTAINS(out, want);
    free(out);
}

static smithycurl_client *timestream_client(smithycurl_model *m, const char *mode) {
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_profile(o, "ctest-timestream"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_aws_sigv4(o, "AKIDDISCOVERY", "secret", NULL, NULL), SMITHYCURL_OK);
    if (mode) CHECK_RC(smithycurl_options_set_endpoint_discovery(o, mode), SMITHYCURL_OK);
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, NULL, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    return c;
}

void test_endpoint_discovery(void) {
    const char *url = need_env("SMITHYCURL_TIMESTREAM_URL");
    if (!url) return;
    smithycurl_model *m = load_shared("aws-models/timestream-write.json");
    smithycurl_model *cm = load_model("control.smithy", control_model, sizeof control_model - 1);
    if (!m || !cm) {
        smithycurl_model_free(m);
        smithycurl_model_free(cm);
        return;
    }
    smithycurl_client *control = NULL;
    CHECK_RC(smithycurl_client_new(cm, NULL, url, NULL, &control), SMITHYCURL_OK);
    smithycurl_model_free(cm);

    // Discovered once, the cache honoured: the cell answers both calls
    // (the regional endpoint refuses them).
    set_fake(control, 10, 0);
    smithycurl_client *c = timestream_client(m, NULL);
    char *out = call_ok(c, "ListDatabases", "{}");
    CHECK_CONTAINS(out, "cell-db");
    free(out);
    free(call_ok(c, "DescribeDatabase", "{\"DatabaseName\":\"d\"}"));
    check_stats(control, 1, 2);

    // InvalidEndpointException: discovered again and sent again.
    set_fake(control, 10, 1);
    out = call_ok(c, "DescribeDatabase", "{\"DatabaseName\":\"d\"}");
    CHECK_CONTAINS(out, "\"DatabaseName\":\"d\"");
    free(out);
    check_stats(control, 1, 1);
    smithycurl_client_free(c);

    // A period of 0 minutes: every call discovers again.
    set_fake(control, 0, 0);
    c = timestream_client(m, "auto");
    free(call_ok(c, "ListDatabases", "{}"));
    free(call_ok(c, "ListDatabases", "{}"));
    check_stats(control, 2, 2);
    smithycurl_client_free(c);

    // Turned off: an operation that requires discovery fails.
    set_fake(control, 10, 0);
    c = timestream_client(m, "false");
    smithycurl_result *r = call_err(c, "ListDatabases", "{}", NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "requires endpoint discovery, which is turned off");
    smithycurl_result_free(r);
    check_stats(control, 0, 0);
    smithycurl_client_free(c);

    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_endpoint_discovery(o, "sometimes"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_endpoint_discovery(o, NULL), SMITHYCURL_OK);
    smithycurl_options_free(o);
    smithycurl_client_free(control);
    smithycurl_model_free(m);
}
