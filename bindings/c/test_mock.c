// Mock servers (smithycurl_mock_*): the Todos example served from its
// model and the fixtures of testing/fixtures/todo.json, and the key-value
// service in rpcv2Cbor with fixtures as JSON text, every operation and
// modeled error called through the C API; the argument and handle checks.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

#define TODO_ID "0f8fad5b-d9cb-469f-a165-70867728950e"
#define OTHER_ID "00000000-0000-4000-8000-000000000000"

// model_msg returns the model's last message (a static copy).
static const char *model_msg(smithycurl_model *m) {
    static char buf[1024];
    char *msg = NULL;
    buf[0] = 0;
    if (smithycurl_model_errmsg(m, &msg) == SMITHYCURL_OK && msg) {
        strncpy(buf, msg, sizeof buf - 1);
        smithycurl_free(msg);
    }
    return buf;
}

// service_error checks that op fails with the modeled error shape and HTTP status.
static void service_error(smithycurl_client *c, const char *op, const char *in, const char *shape, int status) {
    smithycurl_result *r = call_err(c, op, in, NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
    const char *got = NULL;
    int st = 0;
    CHECK_RC(smithycurl_result_error_shape(r, &got), SMITHYCURL_OK);
    CHECK(got && strcmp(got, shape) == 0);
    CHECK_RC(smithycurl_result_http_status(r, &st), SMITHYCURL_OK);
    CHECK(st == status);
    smithycurl_result_free(r);
}

void test_mock(void) {
    smithycurl_model *m = load_model("examples/todo", NULL, 0);
    if (!m) return;
    smithycurl_mock *mock = NULL;
    const char *url = NULL;

    // Refused: each with its code, the detail in the model's errmsg, nothing started.
    smithycurl_mock_options o = SMITHYCURL_MOCK_OPTIONS_INIT;
    CHECK_RC(smithycurl_mock_start(NULL, NULL, NULL, &mock, &url), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(mock == NULL && url == NULL);
    CHECK_RC(smithycurl_mock_start(m, NULL, NULL, NULL, &url), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_mock_start(m, "smithycurl.examples.todo#Nope", NULL, &mock, &url), SMITHYCURL_E_NOT_FOUND);
    o.fixtures_json = "{\"GetTodo\": [{\"output\": {\"id\": 7}}]}";
    CHECK_RC(smithycurl_mock_start(m, NULL, &o, &mock, &url), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(model_msg(m), "operation GetTodo, entry 1");
    o.fixtures_json = "{\"GetTodo\": [";
    CHECK_RC(smithycurl_mock_start(m, NULL, &o, &mock, &url), SMITHYCURL_E_INVALID_JSON);
    o.fixtures_json = NULL;
    o.fixtures_file = "testing/fixtures/no-such-file.json";
    CHECK_RC(smithycurl_mock_start(m, NULL, &o, &mock, &url), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(model_msg(m), "no-such-file.json");
    o.fixtures_file = NULL;
    o.max_body = -1;
    CHECK_RC(smithycurl_mock_start(m, NULL, &o, &mock, &url), SMITHYCURL_E_INVALID_ARGUMENT);
    o.max_body = 0;
    o.size = 3;
    CHECK_RC(smithycurl_mock_start(m, NULL, &o, &mock, &url), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(mock == NULL && url == NULL);
    CHECK_RC(smithycurl_mock_stop(NULL), SMITHYCURL_E_INVALID_HANDLE);

    o = (smithycurl_mock_options)SMITHYCURL_MOCK_OPTIONS_INIT;
    o.fixtures_file = "testing/fixtures/todo.json";
    o.seed = 7;
    CHECK_RC(smithycurl_mock_start(m, "smithycurl.examples.todo#Todos", &o, &mock, &url), SMITHYCURL_OK);
    if (!mock) {
        fprintf(stderr, "    %s\n", model_msg(m));
        smithycurl_model_free(m);
        return;
    }
    CHECK(url && strncmp(url, "http://127.0.0.1:", 17) == 0);
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, url, NULL, &c), SMITHYCURL_OK);
    // The mock keeps what it needs of the model.
    smithycurl_model_free(m);
    if (c) {
        char *out = call_ok(c, "CreateTodo", "{\"title\": \"milk\"}");
        CHECK_CONTAINS(out, "\"id\":\"" TODO_ID "\"");
        CHECK_CONTAINS(out, "\"tags\":[\"shop\"]");
        free(out);
        service_error(c, "CreateTodo", "{\"title\": \"full\"}", "smithycurl.examples.todo#TooManyTodos", 409);
        out = call_ok(c, "GetTodo", "{\"id\": \"" TODO_ID "\"}");
        CHECK_CONTAINS(out, "\"created\":\"2024-05-06T07:08:09Z\"");
        free(out);
        service_error(c, "GetTodo", "{\"id\": \"" OTHER_ID "\"}", "smithycurl.examples.todo#TodoNotFound", 404);
        out = call_ok(c, "ListTodos", "{}");
        CHECK_CONTAINS(out, "\"items\":[{");
        free(out);
        out = call_ok(c, "ListTodos", "{\"done\": true}");
        CHECK(strcmp(out, "{\"items\":[]}") == 0);
        free(out);
        out = call_ok(c, "UpdateTodo", "{\"id\": \"" TODO_ID "\", \"done\": true}");
        CHECK_CONTAINS(out, "\"done\":true");
        free(out);
        service_error(c, "UpdateTodo", "{\"id\": \"" OTHER_ID "\"}", "smithycurl.examples.todo#TodoNotFound", 404);
        out = call_ok(c, "DeleteTodo", "{\"id\": \"" TODO_ID "\"}");
        CHECK(strcmp(out, "{}") == 0);
        free(out);
        service_error(c, "DeleteTodo", "{\"id\": \"" OTHER_ID "\"}", "smithycurl.examples.todo#TodoNotFound", 404);
        // An input the model refuses, sent anyway (the client does not
        // validate by default): the mock's validation error.
        smithycurl_result *r = call_err(c, "CreateTodo", "{\"title\": \"\"}", NULL, SMITHYCURL_E_SERVICE,
                                        SMITHYCURL_KIND_SERVICE);
        CHECK_CONTAINS(message_of(r), "/title");
        smithycurl_result_free(r);
        smithycurl_client_free(c);
    }
    CHECK_RC(smithycurl_mock_stop(mock), SMITHYCURL_OK);
    // A stale handle is an error code, never a crash.
    CHECK_RC(smithycurl_mock_stop(mock), SMITHYCURL_E_INVALID_HANDLE);
}

// The key-value service (rpcv2Cbor): every operation and modeled error, the
// service-wide one (Unavailable) too, from fixtures given as JSON text.
void test_mock_kv(void) {
    smithycurl_model *m = load_model("testing/servers/kvserver/kv.smithy", NULL, 0);
    if (!m) return;
    smithycurl_mock_options o = SMITHYCURL_MOCK_OPTIONS_INIT;
    o.fixtures_json =
        "{\"Put\": [{\"match\": {\"ifVersion\": 1}, \"error\": \"Conflict\", \"members\": {\"current\": 2}},"
        "           {\"output\": {\"version\": 3, \"stored\": \"2024-05-06T07:08:09Z\"}}],"
        " \"Get\": [{\"match\": {\"key\": \"a\"}, \"output\": {\"item\": {\"key\": \"a\", \"value\": \"aGk=\","
        "            \"version\": 3, \"stored\": \"2024-05-06T07:08:09Z\"}}},"
        "           {\"match\": {\"key\": \"down\"}, \"error\": \"Unavailable\", \"members\": {\"message\": \"later\"}},"
        "           {\"error\": \"NotFound\", \"members\": {\"key\": \"b\"}}],"
        " \"Delete\": [{\"match\": {\"key\": \"b\"}, \"error\": \"NotFound\", \"members\": {\"key\": \"b\"}}, {}],"
        " \"List\": [{\"output\": {\"items\": []}}],"
        " \"Ping\": [{}]}";
    smithycurl_mock *mock = NULL;
    const char *url = NULL;
    CHECK_RC(smithycurl_mock_start(m, "smithycurl.kv#KVCbor", &o, &mock, &url), SMITHYCURL_OK);
    if (!mock) {
        fprintf(stderr, "    %s\n", model_msg(m));
        smithycurl_model_free(m);
        return;
    }
    smithycurl_options *opts = NULL;
    CHECK_RC(smithycurl_options_new(&opts), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(opts, 0, 0), SMITHYCURL_OK); // Unavailable is @retryable
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(m, "smithycurl.kv#KVCbor", url, opts, &c), SMITHYCURL_OK);
    smithycurl_options_free(opts);
    smithycurl_model_free(m);
    if (c) {
        char *out = call_ok(c, "Put", "{\"key\": \"a\", \"value\": \"aGk=\"}");
        CHECK(strcmp(out, "{\"version\":3,\"stored\":\"2024-05-06T07:08:09Z\"}") == 0);
        free(out);
        service_error(c, "Put", "{\"key\": \"a\", \"ifVersion\": 1}", "smithycurl.kv#Conflict", 400);
        out = call_ok(c, "Get", "{\"key\": \"a\"}");
        CHECK_CONTAINS(out, "\"value\":\"aGk=\"");
        free(out);
        service_error(c, "Get", "{\"key\": \"b\"}", "smithycurl.kv#NotFound", 400);
        service_error(c, "Get", "{\"key\": \"down\"}", "smithycurl.kv#Unavailable", 500);
        service_error(c, "Delete", "{\"key\": \"b\"}", "smithycurl.kv#NotFound", 400);
        out = call_ok(c, "Delete", "{\"key\": \"a\"}");
        CHECK(strcmp(out, "{}") == 0);
        free(out);
        out = call_ok(c, "List", "{}");
        CHECK(strcmp(out, "{\"items\":[]}") == 0);
        free(out);
        out = call_ok(c, "Ping", "{}");
        CHECK(strcmp(out, "{}") == 0);
        free(out);
        smithycurl_client_free(c);
    }
    CHECK_RC(smithycurl_mock_stop(mock), SMITHYCURL_OK);
}
