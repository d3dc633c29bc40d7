// Each kind of error a call reports, and bad handles and arguments.

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

// A service on httpbin whose operation gets HTML back where it expects JSON.
static const char decode_model[] =
    "$version: \"2\"\n"
    "namespace test.decode\n"
    "@alloy#simpleRestJson\n"
    "service Html { operations: [GetHtml] }\n"
    "@readonly @http(method: \"GET\", uri: \"/html\")\n"
    "operation GetHtml { output := { title: String } }\n";

void test_error_kinds(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(o, 0, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_basic_auth(o, "ann", "pw"), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, o);
    smithycurl_result *r;
    const char *s;
    size_t n;
    int status;

    // usage
    r = call_err(c, "Anything", "{\"id\": \"x\"}", NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "id");
    smithycurl_result_free(r);
    r = call_err(c, "Anything", "{\"id\": 1, \"nope\": 2}", NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    smithycurl_result_free(r);
    r = call_err(c, "Bearer", NULL, NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE); // no token
    CHECK_CONTAINS(message_of(r), "httpBearerAuth");
    smithycurl_result_free(r);
    r = call_err(c, "GetIP", NULL, NULL, SMITHYCURL_E_NOT_FOUND, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "GetIp");
    smithycurl_result_free(r);
    r = call_err(c, "Anything", "{\"id\": 1,", NULL, SMITHYCURL_E_INVALID_JSON, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "not valid JSON");
    smithycurl_result_free(r);
    r = call_err(c, "Anything", "{\"id\": 1, \"test\": \"caf\xe9\"}", NULL, SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "UTF-8");
    smithycurl_result_free(r);
    r = call_err(c, "Get\xff", NULL, NULL, SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_KIND_USAGE);
    smithycurl_result_free(r);
    // A lone surrogate escape is not Unicode text either (encoding would
    // replace it or send JSON a strict reader refuses).
    r = call_err(c, "Anything", "{\"id\": 1, \"test\": \"a\\ud800b\"}", NULL, SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "\\ud800 is a lone surrogate (at /test, byte 20)");
    smithycurl_result_free(r);

    // a value that does not fit its type: a usage error naming the member
    r = call_err(c, "Anything", "{\"id\": 1.5}", NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "member id: 1.5 is not a whole number (integer: -2147483648 to 2147483647)");
    smithycurl_result_free(r);
    r = call_err(c, "Anything", "{\"id\": 2147483648}", NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "member id: 2147483648 is out of range (integer: -2147483648 to 2147483647)");
    smithycurl_result_free(r);

    // validation (asked for): nothing is sent
    smithycurl_options *ov = NULL;
    CHECK_RC(smithycurl_options_new(&ov), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_validation(ov, 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(ov, 0, 0), SMITHYCURL_OK);
    smithycurl_client *cv = new_client(m, NULL, ov);
    r = call_err(cv, "Status", "{\"code\": 99}", NULL, SMITHYCURL_E_VALIDATION, SMITHYCURL_KIND_VALIDATION);
    CHECK_CONTAINS(message_of(r), "code: value 99 is below the minimum 100");
    smithycurl_result_attempts(r, &status);
    CHECK(status == 0);
    smithycurl_result_free(r);
    smithycurl_client_free(cv);
    smithycurl_options_free(ov);
    // by default the constraints are not checked: the server refuses it
    r = call_err(c, "Status", "{\"code\": 99}", NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
    smithycurl_result_http_status(r, &status);
    CHECK(status == 400);
    smithycurl_result_free(r);
    // @required is always checked
    r = call_err(c, "Anything", "{\"test\": \"no id\"}", NULL, SMITHYCURL_E_VALIDATION, SMITHYCURL_KIND_VALIDATION);
    CHECK_CONTAINS(message_of(r), "id");
    smithycurl_result_free(r);

    // service: modeled (shape, status, members) and unmodeled
    r = call_err(c, "Status", "{\"code\": 500}", NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
    CHECK_RC(smithycurl_result_error_shape(r, &s), SMITHYCURL_OK);
    CHECK(strcmp(s, "smithycurl.examples.httpbin#ServerFailure") == 0);
    CHECK_RC(smithycurl_result_http_status(r, &status), SMITHYCURL_OK);
    CHECK(status == 500);
    CHECK_RC(smithycurl_result_error_members(r, &s, &n), SMITHYCURL_OK);
    CHECK(s[0] == '{' && strlen(s) == n);
    CHECK_RC(smithycurl_result_request_id(r, &s), SMITHYCURL_OK);
    CHECK(s != NULL);
    CHECK_RC(smithycurl_result_error_code(r, &s), SMITHYCURL_OK);
    CHECK(s != NULL);
    smithycurl_result_free(r);
    r = call_err(c, "BasicAuth", "{\"user\": \"ann\", \"passwd\": \"wrong\"}", NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
    CHECK_RC(smithycurl_result_error_shape(r, &s), SMITHYCURL_OK);
    CHECK(strcmp(s, "smithycurl.examples.httpbin#Unauthorized") == 0);
    smithycurl_result_http_status(r, &status);
    CHECK(status == 401);
    smithycurl_result_free(r);
    r = call_err(c, "Status", "{\"code\": 404}", NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
    CHECK_RC(smithycurl_result_error_shape(r, &s), SMITHYCURL_OK);
    CHECK(strcmp(s, "") == 0);
    smithycurl_result_http_status(r, &status);
    CHECK(status == 404);
    smithycurl_result_free(r);

    // validation off: the same bad input reaches the server, which refuses it
    smithycurl_options *o2 = NULL;
    CHECK_RC(smithycurl_options_new(&o2), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_validation(o2, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(o2, 0, 0), SMITHYCURL_OK);
    smithycurl_client *c2 = new_client(m, NULL, o2);
    r = call_err(c2, "Status", "{\"code\": 99}", NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
    smithycurl_result_http_status(r, &status);
    CHECK(status == 400);
    smithycurl_result_free(r);
    smithycurl_client_free(c2);

    // transport: nothing listens on port 1
    smithycurl_client *dead = new_client(m, "http://127.0.0.1:1", o);
    r = call_err(dead, "GetIp", NULL, NULL, SMITHYCURL_E_TRANSPORT, SMITHYCURL_KIND_TRANSPORT);
    CHECK(strlen(message_of(r)) > 0);
    smithycurl_result_free(r);
    smithycurl_client_free(dead);

    // timeout
    smithycurl_options *o3 = NULL;
    CHECK_RC(smithycurl_options_new(&o3), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_timeout_ms(o3, 300 * slow), SMITHYCURL_OK);
    smithycurl_client *c3 = new_client(m, NULL, o3);
    double t0 = now_s();
    r = call_err(c3, "Delay", "{\"seconds\": 5}", NULL, SMITHYCURL_E_TIMEOUT, SMITHYCURL_KIND_TIMEOUT);
    CHECK(now_s() - t0 < 3.0 * slow);
    smithycurl_result_free(r);
    smithycurl_client_free(c3);
    smithycurl_options_free(o3);

    // decode: HTML where JSON is expected
    smithycurl_loader *ld = NULL;
    smithycurl_model *hm = NULL;
    smithycurl_client *hc = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "decode.smithy", decode_model, sizeof decode_model - 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &hm), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(hm, NULL, httpbin_url, o, &hc), SMITHYCURL_OK);
    r = call_err(hc, "GetHtml", NULL, NULL, SMITHYCURL_E_DECODE, SMITHYCURL_KIND_DECODE);
    smithycurl_result_http_status(r, &status);
    CHECK(status == 200);
    smithycurl_result_free(r);
    smithycurl_client_free(hc);
    smithycurl_model_free(hm);
    smithycurl_loader_free(ld);

    smithycurl_options_free(o);
    smithycurl_options_free(o2);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

void test_bad_handles(void) {
    smithycurl_result *r = (smithycurl_result *)1;
    char *s = NULL;
    const char *cs = NULL;
    size_t n;
    int i;
    smithycurl_error_kind k;

    // NULL handles
    CHECK_RC(smithycurl_call(NULL, "GetIp", NULL, 0, NULL, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(r == NULL);
    CHECK_RC(smithycurl_loader_add_path(NULL, "x"), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_loader_load(NULL, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_loader_errmsg(NULL, &s), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_loader_free(NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_model_services_json(NULL, &s, &n), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_model_services_json_v2(NULL, 0, &s, &n), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_model_operation_json(NULL, NULL, "x", &s, &n), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_model_free(NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_client_new(NULL, NULL, "http://x", NULL, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_client_free(NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_options_set_retries(NULL, 0, 0), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_options_add_header(NULL, "a", "b"), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_options_set_trace(NULL, NULL, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_options_free(NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_result_output(NULL, &cs, &n), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_result_error_kind(NULL, &k), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_result_http_status(NULL, &i), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_result_free(NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_cancel_token_cancel(NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_cancel_token_free(NULL), SMITHYCURL_E_INVALID_HANDLE);

    // NULL out-parameters
    CHECK_RC(smithycurl_loader_new(NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_new(NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_cancel_token_new(NULL), SMITHYCURL_E_INVALID_ARGUMENT);

    // stale, double-freed, wrong-type and made-up handles
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    CHECK_RC(smithycurl_call(c, "GetIp", NULL, 0, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_free(r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_free(r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_result_output(r, &cs, &n), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_result_error_message(r, &cs), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call((smithycurl_client *)m, "GetIp", NULL, 0, NULL, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_model_free((smithycurl_model *)c), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_result_free((smithycurl_result *)c), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call((smithycurl_client *)(uintptr_t)0x12345, "GetIp", NULL, 0, NULL, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call((smithycurl_client *)&i, "GetIp", NULL, 0, NULL, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_client_free((smithycurl_client *)(uintptr_t)-1), SMITHYCURL_E_INVALID_HANDLE);

    // bad arguments with a good handle
    CHECK_RC(smithycurl_call(c, NULL, NULL, 0, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_call(c, "GetIp", NULL, 5, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_call(c, "GetIp", NULL, 0, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_model_services_json(m, NULL, &n), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_model_services_json_v2(m, 0, NULL, &n), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_model_operation_json(m, NULL, NULL, &s, &n), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_model_errmsg(m, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_call(c, "GetIp", NULL, 0, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, NULL, &n), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_result_http_status(r, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_result_error_kind(r, &k), SMITHYCURL_OK);
    CHECK(k == SMITHYCURL_KIND_NONE);
    CHECK_RC(smithycurl_result_error_message(r, &cs), SMITHYCURL_OK);
    CHECK(cs && cs[0] == 0);
    CHECK_RC(smithycurl_result_error_members(r, &cs, &n), SMITHYCURL_OK);
    CHECK(cs && cs[0] == 0 && n == 0);
    smithycurl_result_free(r);

    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call(c, "GetIp", NULL, 0, NULL, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_model_services_json(m, &s, &n), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, NULL, &c), SMITHYCURL_E_INVALID_HANDLE);
}
