// Calls on go-httpbin and what the options change: headers, credentials,
// tracing, host prefixes, endpoint rules.

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

void test_operations(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_bearer_token(o, "secret-token"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_basic_auth(o, "ann", "pw"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_add_header(o, "X-Default", "d1"), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, o);
    CHECK_RC(smithycurl_options_free(o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK); // the client keeps what it needs

    char *out = call_ok(c, "GetIp", NULL);
    CHECK_CONTAINS(out, "\"origin\":\"127.0.0.1\"");
    free(out);
    out = call_ok(c, "smithycurl.examples.httpbin#GetIp", "{}");
    CHECK_CONTAINS(out, "127.0.0.1");
    free(out);
    out = call_ok(c, "Get", "{\"query\": \"a b&c\"}");
    CHECK_CONTAINS(out, "q=a%20b%26c");
    free(out);
    out = squash(call_ok(c, "Anything", "{\"id\": 25, \"test\": \"yo\", \"queryParam\": \"hello\"}"));
    CHECK_CONTAINS(out, "\"method\":\"POST\"");
    CHECK_CONTAINS(out, "\"id\":25");
    CHECK_CONTAINS(out, "\"test\":\"yo\"");
    CHECK_CONTAINS(out, "\"query\":[\"hello\"]");
    free(out);
    out = call_ok(c, "Headers", "{\"custom\": \"v1\"}");
    CHECK_CONTAINS(out, "\"X-Custom\":[\"v1\"]");
    CHECK_CONTAINS(out, "\"X-Default\":[\"d1\"]");
    free(out);
    out = call_ok(c, "Status", "{\"code\": 204}");
    CHECK(out && strcmp(out, "{}") == 0);
    free(out);
    out = call_ok(c, "Delay", "{\"seconds\": 0}");
    CHECK_CONTAINS(out, "\"url\":");
    free(out);
    out = call_ok(c, "Gzip", NULL);
    CHECK_CONTAINS(out, "\"gzipped\":true");
    free(out);
    out = call_ok(c, "Bearer", NULL);
    CHECK_CONTAINS(out, "\"authenticated\":true");
    CHECK_CONTAINS(out, "\"token\":\"secret-token\"");
    free(out);
    out = call_ok(c, "BasicAuth", "{\"user\": \"ann\", \"passwd\": \"pw\"}");
    CHECK_CONTAINS(out, "\"authenticated\":true");
    free(out);
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
}

static int trace_events;
static int trace_saw_redacted, trace_saw_token, trace_saw_response;

static void trace_fn(void *user, const char *ev, size_t len) {
    CHECK(user == (void *)&trace_events);
    CHECK(strlen(ev) == len);
    trace_events++;
    if (strstr(ev, "REDACTED")) trace_saw_redacted++;
    if (strstr(ev, "secret-token")) trace_saw_token++;
    if (strstr(ev, "\"phase\":\"response\"") && strstr(ev, "\"status\":200")) trace_saw_response++;
}

void test_options(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_options *o = NULL;
    char *msg = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_add_header(o, "Bad Name", "v"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_errmsg(o, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "Bad Name");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_options_add_header(o, "X-A", "line\r\nInjected: 1"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_add_header(o, NULL, "v"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_add_header(o, "X-A", "caf\xe9"), SMITHYCURL_E_INVALID_UTF8);
    CHECK_RC(smithycurl_options_set_timeout_ms(o, -1), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_retries(o, 1, 101), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_retries(o, 1, 2), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_connect_timeout_ms(o, 2000), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_timeout_ms(o, 10000 * slow), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_max_response_bytes(o, 1 << 20), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_user_agent(o, "c-test/1"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_proxy(o, "-"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_tls(o, NULL, NULL, NULL, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_api_key(o, "k"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_aws_sigv4(o, "AKID", "SECRET", NULL, "us-east-1"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_aws_sigv4(o, NULL, "SECRET", NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_bearer_token(o, "secret-token"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_trace(o, trace_fn, &trace_events), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, o);
    char *out = call_ok(c, "Headers", NULL);
    CHECK_CONTAINS(out, "\"User-Agent\":[\"c-test/1\"]");
    free(out);
    out = call_ok(c, "Bearer", NULL);
    free(out);
    CHECK(trace_events == 4);
    CHECK(trace_saw_redacted >= 1);
    CHECK(trace_saw_token == 0);
    CHECK(trace_saw_response == 2);
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);

    // client_new failures carry their detail on the model.
    smithycurl_client *bad = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, "ftp://example.com", o, &bad), SMITHYCURL_E_USAGE);
    CHECK(bad == NULL);
    CHECK_RC(smithycurl_model_errmsg(m, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "ftp://example.com");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_client_new(m, "no.such#Service", httpbin_url, NULL, &bad), SMITHYCURL_E_NOT_FOUND);
    // No endpoint: only a service with endpoint rules and a region can do without.
    CHECK_RC(smithycurl_client_new(m, NULL, NULL, NULL, &bad), SMITHYCURL_E_USAGE);
    CHECK_RC(smithycurl_model_errmsg(m, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "no endpoint rules");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_free(o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, o, &bad), SMITHYCURL_E_INVALID_HANDLE); // freed options
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

// Credentials: one trailing newline (a token file read whole) is removed;
// other control characters are refused where they are set, and no message
// shows the value. An endpoint with a password is refused without it.
void test_credentials(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_options *o = NULL;
    char *msg = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_bearer_token(o, "SECRET-TOK\x01x"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_errmsg(o, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "bearer token contains a control character");
    CHECK(msg && !strstr(msg, "SECRET-TOK"));
    smithycurl_free(msg);
    CHECK_RC(smithycurl_options_set_basic_auth(o, "ann", "SECRET-PW\n\n"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_errmsg(o, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "basic auth password");
    CHECK(msg && !strstr(msg, "SECRET-PW"));
    smithycurl_free(msg);
    CHECK_RC(smithycurl_options_set_api_key(o, "SECRET-KEY\r"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_aws_sigv4(o, "AKID", "SECRET-AWS\x1b", NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_errmsg(o, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "AWS secret access key");
    CHECK(msg && !strstr(msg, "SECRET-AWS"));
    smithycurl_free(msg);

    CHECK_RC(smithycurl_options_set_bearer_token(o, "file-token\r\n"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_basic_auth(o, "ann", "pw\n"), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, o);
    char *out = call_ok(c, "Bearer", NULL);
    CHECK_CONTAINS(out, "\"token\":\"file-token\"}");
    free(out);
    out = call_ok(c, "BasicAuth", "{\"user\": \"ann\", \"passwd\": \"pw\"}");
    CHECK_CONTAINS(out, "\"authenticated\":true");
    free(out);
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);

    smithycurl_client *bad = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, "http://ann:SECRET-PW@127.0.0.1:8080", o, &bad), SMITHYCURL_E_USAGE);
    CHECK_RC(smithycurl_model_errmsg(m, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "must not hold a user or password");
    CHECK(msg && !strstr(msg, "SECRET-PW"));
    smithycurl_free(msg);
    CHECK_RC(smithycurl_client_new(m, NULL, "http://127.0.0.1:65536", o, &bad), SMITHYCURL_E_USAGE);
    CHECK_RC(smithycurl_model_errmsg(m, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "port 65536 is not in 1..65535");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_options_free(o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

// A service on httpbin whose operation has a host prefix with a host label.
static const char prefix_model[] =
    "$version: \"2\"\n"
    "namespace test.prefix\n"
    "@alloy#simpleRestJson\n"
    "service Zoned { operations: [Get] }\n"
    "@readonly @endpoint(hostPrefix: \"{zone}.\") @http(method: \"GET\", uri: \"/get\")\n"
    "operation Get { input := { @required @hostLabel zone: String } output := { url: String } }\n";

// Host prefixes: on, the label joins the host; off
// (smithycurl_options_set_host_prefix(o, 0)), neither the prefix nor its
// label is looked at.
void test_host_prefix(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "prefix.smithy", prefix_model, sizeof prefix_model - 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    // libcurl resolves every *.localhost name to the loopback address.
    char endpoint[256];
    const char *port = strrchr(httpbin_url, ':');
    snprintf(endpoint, sizeof endpoint, "http://localhost%s", port ? port : "");
    smithycurl_client *on = NULL, *off = NULL;
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, endpoint, NULL, &on), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_host_prefix(o, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, endpoint, o, &off), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_free(o), SMITHYCURL_OK);

    char *out = call_ok(on, "Get", "{\"zone\": \"eu1\"}");
    CHECK_CONTAINS(out, "//eu1.localhost:");
    free(out);
    smithycurl_result *r = call_err(on, "Get", "{\"zone\": \"evil.com/x\"}", NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    smithycurl_result_free(r);
    out = call_ok(off, "Get", "{\"zone\": \"evil.com/x\"}");
    CHECK_CONTAINS(out, "//localhost:");
    free(out);
    CHECK_RC(smithycurl_client_free(on), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_free(off), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

// A service whose endpoint rules put the region into the host name:
// libcurl resolves every *.localhost name to the loopback address.
static const char rules_model[] =
    "$version: \"2\"\n"
    "namespace test.rules\n"
    "@alloy#simpleRestJson\n"
    "@smithy.rules#clientContextParams(Port: {type: \"string\", documentation: \"port\"})\n"
    "@smithy.rules#endpointRuleSet({version: \"1.0\", parameters: {\n"
    "  Region: {type: \"String\", builtIn: \"AWS::Region\", documentation: \"r\"},\n"
    "  UseFIPS: {type: \"Boolean\", builtIn: \"AWS::UseFIPS\", required: true, default: false, documentation: \"f\"},\n"
    "  Endpoint: {type: \"String\", builtIn: \"SDK::Endpoint\", documentation: \"e\"},\n"
    "  Port: {type: \"String\", required: true, default: \"80\", documentation: \"p\"}},\n"
    " rules: [\n"
    "  {conditions: [{fn: \"booleanEquals\", argv: [{ref: \"UseFIPS\"}, true]}], type: \"error\", error: \"FIPS is not offered in {Region}\"},\n"
    "  {conditions: [{fn: \"isSet\", argv: [{ref: \"Endpoint\"}]}], type: \"endpoint\", endpoint: {url: {ref: \"Endpoint\"}}},\n"
    "  {conditions: [{fn: \"isSet\", argv: [{ref: \"Region\"}]}], type: \"endpoint\", endpoint: {url: \"http://{Region}.localhost:{Port}\"}},\n"
    "  {conditions: [], type: \"error\", error: \"Invalid Configuration: Missing Region\"}]})\n"
    "service Regional { operations: [Anything] }\n"
    "@readonly @http(method: \"GET\", uri: \"/anything\")\n"
    "operation Anything { input := {} output := { url: String } }\n";

// A region and a NULL endpoint: the rules resolve the endpoint
// (smithycurl_options_set_region, smithycurl_options_set_endpoint_param);
// a rule's error is SMITHYCURL_E_USAGE with its message.
void test_endpoint_rules(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "rules.smithy", rules_model, sizeof rules_model - 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    const char *port = strrchr(httpbin_url, ':');
    port = port ? port + 1 : "80";
    smithycurl_options *o = NULL;
    smithycurl_client *c = NULL;
    char *msg = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_endpoint_param(o, "Port", port), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_region(o, "us-east-1/../evil"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_region(o, "eu-west-1\r\n"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_endpoint_param(o, NULL, "x"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_region(o, "eu-west-1"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, NULL, o, &c), SMITHYCURL_OK);
    char *out = call_ok(c, "Anything", NULL);
    CHECK_CONTAINS(out, "//eu-west-1.localhost:");
    free(out);
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);

    // The explicit endpoint goes through the rules as SDK::Endpoint.
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, o, &c), SMITHYCURL_OK);
    out = call_ok(c, "Anything", NULL);
    CHECK_CONTAINS(out, httpbin_url);
    free(out);
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);

    CHECK_RC(smithycurl_options_set_endpoint_param(o, "UseFIPS", "true"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, NULL, o, &c), SMITHYCURL_OK);
    smithycurl_result *r = call_err(c, "Anything", NULL, NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    const char *emsg = NULL;
    CHECK_RC(smithycurl_result_error_message(r, &emsg), SMITHYCURL_OK);
    CHECK_CONTAINS(emsg, "endpoint rules: FIPS is not offered in eu-west-1");
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);

    // No endpoint and no region: a usage error saying what to give.
    CHECK_RC(smithycurl_options_set_endpoint_param(o, "UseFIPS", NULL), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_region(o, NULL), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_endpoint_param(o, "Nope", "1"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, NULL, o, &c), SMITHYCURL_E_USAGE);
    CHECK_RC(smithycurl_model_errmsg(m, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "Nope");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_options_free(o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}
