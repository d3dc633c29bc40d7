// Stubs (smithycurl_stubber_*): outputs and modeled errors answered
// through the real codec, checked against the model, in order.

#include <stdlib.h>
#include <string.h>

#include "ctest.h"

static const char stub_model[] =
    "$version: \"2\"\n"
    "namespace test.stub\n"
    "@aws.protocols#awsJson1_0\n"
    "@aws.auth#sigv4(name: \"things\")\n"
    "service Things { version: \"1\", operations: [GetThing] }\n"
    "operation GetThing {\n"
    "    input := { @required id: String }\n"
    "    output := { @required id: String, size: Long, tags: Tags, when: Timestamp }\n"
    "    errors: [NotFound]\n"
    "}\n"
    "list Tags { member: String }\n"
    "@error(\"client\") structure NotFound { message: String }\n";

// stubber_msg returns the stubber's last message (a static copy).
static const char *stubber_msg(smithycurl_stubber *s) {
    static char buf[1024];
    char *msg = NULL;
    buf[0] = 0;
    if (smithycurl_stubber_errmsg(s, &msg) == SMITHYCURL_OK && msg) {
        strncpy(buf, msg, sizeof buf - 1);
        smithycurl_free(msg);
    }
    return buf;
}

void test_stub(void) {
    smithycurl_model *m = load_model("stub.smithy", stub_model, sizeof stub_model - 1);
    if (!m) return;
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_region(o, "us-east-1"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(o, 0, 0), SMITHYCURL_OK);
    smithycurl_client *c = NULL;
    // Nothing listens on port 1: only a call the stubber answers succeeds.
    CHECK_RC(smithycurl_client_new(m, NULL, "http://127.0.0.1:1", o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    smithycurl_model_free(m);
    if (!c) return;
    smithycurl_stubber *s = NULL;
    CHECK_RC(smithycurl_stubber_new(c, &s), SMITHYCURL_OK);
    if (!s) {
        smithycurl_client_free(c);
        return;
    }

    // Refused when added: the member path, the operation, the JSON.
    CHECK_RC(smithycurl_stubber_add_response(s, "GetThing", "{\"id\":\"a\",\"tags\":[\"x\",2]}", NULL), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(stubber_msg(s), "output of GetThing: member tags[1]: expected a string");
    CHECK_RC(smithycurl_stubber_add_response(s, "GetThing", "{\"size\":1}", NULL), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(stubber_msg(s), "member id: is required");
    CHECK_RC(smithycurl_stubber_add_response(s, "PutThing", "{}", NULL), SMITHYCURL_E_NOT_FOUND);
    CHECK_RC(smithycurl_stubber_add_response(s, "GetThing", "{\"id\":", NULL), SMITHYCURL_E_INVALID_JSON);
    CHECK_RC(smithycurl_stubber_add_error(s, "GetThing", "Gone", NULL, 0, NULL), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(stubber_msg(s), "its errors: NotFound");
    CHECK_RC(smithycurl_stubber_add_error(s, "GetThing", NULL, NULL, 0, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    size_t pending = 9;
    CHECK_RC(smithycurl_stubber_pending(s, &pending), SMITHYCURL_OK);
    CHECK(pending == 0);

    CHECK_RC(smithycurl_stubber_add_response(s, "GetThing", "{\"id\":\"a\",\"size\":3,\"when\":1700000000}", "{\"id\":\"a\"}"),
             SMITHYCURL_OK);
    CHECK_RC(smithycurl_stubber_add_error(s, "GetThing", "NotFound", "{\"message\":\"no b\"}", 404, NULL), SMITHYCURL_OK);
    CHECK_RC(smithycurl_stubber_add_response(s, "GetThing", "{\"id\":\"c\"}", "{\"id\":\"c\"}"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_stubber_activate(s), SMITHYCURL_OK);

    char *out = call_ok(c, "GetThing", "{\"id\":\"a\"}");
    CHECK(strcmp(out, "{\"id\":\"a\",\"size\":3,\"when\":\"2023-11-14T22:13:20Z\"}") == 0);
    free(out);

    smithycurl_result *r = call_err(c, "GetThing", "{\"id\":\"b\"}", NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
    const char *shape = NULL, *members = NULL;
    size_t n = 0;
    int status = 0;
    CHECK_RC(smithycurl_result_error_shape(r, &shape), SMITHYCURL_OK);
    CHECK(shape && strcmp(shape, "test.stub#NotFound") == 0);
    CHECK_RC(smithycurl_result_error_members(r, &members, &n), SMITHYCURL_OK);
    CHECK(members && strcmp(members, "{\"message\":\"no b\"}") == 0);
    CHECK_RC(smithycurl_result_http_status(r, &status), SMITHYCURL_OK);
    CHECK(status == 404);
    smithycurl_result_free(r);

    // Another input than the stub expects: a usage error, botocore's words.
    r = call_err(c, "GetThing", "{\"id\":\"d\"}", NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "Expected parameters:\n{\"id\":\"c\"},\nbut received:\n{\"id\":\"d\"}");
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_stubber_pending(s, &pending), SMITHYCURL_OK);
    CHECK(pending == 1);
    CHECK_RC(smithycurl_stubber_done(s), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(stubber_msg(s), "1 stubs not used: GetThing");
    out = call_ok(c, "GetThing", "{\"id\":\"c\"}");
    free(out);

    // Deactivated: the client calls its endpoint again (no credentials,
    // or nothing listening: a failure either way).
    CHECK_RC(smithycurl_stubber_deactivate(s), SMITHYCURL_OK);
    r = NULL;
    CHECK(smithycurl_call(c, "GetThing", "{\"id\":\"a\"}", 10, NULL, &r) != SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_stubber_free(s), SMITHYCURL_OK);
    CHECK_RC(smithycurl_stubber_pending(s, &pending), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_client_free(c);
}
