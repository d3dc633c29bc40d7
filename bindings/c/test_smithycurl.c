// Tests of the C API (include/smithycurl.h) against the real library and a
// local go-httpbin (testing/cmd/testserver). Run by bindings/c/run.sh
// (make ctest), which sets:
//
//   SMITHYCURL_HTTPBIN_URL   base URL of go-httpbin
//   SMITHYCURL_PIZZA_URL     base URL of alloy's PizzaAdminService (and SMITHYCURL_SHARED)
//   SMITHYCURL_KV_URL        base URL of the RPC v2 key-value store (testing/servers/kvserver)
//   SMITHYCURL_MODEL_DIR     examples/httpbin (the httpbin model)
//   SMITHYCURL_EVENTS_URL    base URL of the event-stream Ticker service
//   SMITHYCURL_TEST_CALLS    calls per thread in the 8-thread test (500)
//   SMITHYCURL_TEST_SLOW     time multiplier (valgrind runs are slower)
//
// The runner is ours: one line per test ("ok name" or "FAIL name" after the
// failed checks), then "N passed, N failed" as the last line.

#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "smithycurl.h"
#include "ctest.h"

// ---- the runner (ctest.h: CHECK, CHECK_RC, CHECK_CONTAINS) ----

int failures; // failed checks in the current test
static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;

void failf(const char *file, int line, const char *fmt, ...) {
    pthread_mutex_lock(&fail_mu);
    if (failures < 20) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stdout, "    %s:%d: ", file, line);
        vfprintf(stdout, fmt, ap);
        fputc('\n', stdout);
        va_end(ap);
    }
    failures++;
    pthread_mutex_unlock(&fail_mu);
}

// ---- helpers ----

const char *httpbin_url;
const char *model_dir;
int slow = 1;

double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

smithycurl_model *load_httpbin(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, model_dir), SMITHYCURL_OK);
    int rc = smithycurl_loader_load(ld, &m);
    if (rc != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_loader_errmsg(ld, &msg);
        failf(__FILE__, __LINE__, "load %s: %s", model_dir, msg ? msg : "?");
        smithycurl_free(msg);
    }
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
    return m;
}

// new_client makes a client for httpbin (or endpoint) with fast retries off
// unless the options say otherwise.
smithycurl_client *new_client(smithycurl_model *m, const char *endpoint, smithycurl_options *o) {
    smithycurl_client *c = NULL;
    int rc = smithycurl_client_new(m, "smithycurl.examples.httpbin#HttpBin", endpoint ? endpoint : httpbin_url, o, &c);
    if (rc != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_model_errmsg(m, &msg);
        failf(__FILE__, __LINE__, "client_new: %s: %s", smithycurl_strerror(rc), msg ? msg : "?");
        smithycurl_free(msg);
    }
    return c;
}

// call_ok calls op and returns a malloc'd copy of the output ("" on failure,
// after reporting it).
char *call_ok_at(const char *file, int line, smithycurl_client *c, const char *op, const char *in) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call(c, op, in, in ? strlen(in) : 0, NULL, &r);
    const char *out = "";
    size_t n = 0;
    if (rc != SMITHYCURL_OK) {
        const char *msg = "";
        if (r) smithycurl_result_error_message(r, &msg);
        failf(file, line, "%s(%s) = %s: %s", op, in ? in : "", smithycurl_strerror(rc), msg);
    } else if (smithycurl_result_output(r, &out, &n) != SMITHYCURL_OK || strlen(out) != n) {
        failf(file, line, "%s: output length mismatch", op);
    }
    char *copy = strdup(out);
    smithycurl_result_free(r);
    return copy;
}

// call_err checks that op fails with code and kind, and returns the result
// (the caller frees it).
smithycurl_result *call_err_at(const char *file, int line, smithycurl_client *c, const char *op,
                                      const char *in, smithycurl_cancel_token *tok, int code,
                                      smithycurl_error_kind kind) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call(c, op, in, in ? strlen(in) : 0, tok, &r);
    if (rc != code) {
        const char *msg = "";
        if (r) smithycurl_result_error_message(r, &msg);
        failf(file, line, "%s(%s) = %d (%s), want %d (%s); message: %s", op, in ? in : "", rc,
              smithycurl_strerror(rc), code, smithycurl_strerror(code), msg);
    }
    if (!r) {
        failf(file, line, "%s: no result", op);
        return NULL;
    }
    smithycurl_error_kind k = SMITHYCURL_KIND_NONE;
    smithycurl_code stored = SMITHYCURL_OK;
    CHECK_RC(smithycurl_result_error_kind(r, &k), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_code(r, &stored), SMITHYCURL_OK);
    if (k != kind) failf(file, line, "%s: kind %s, want %s", op, smithycurl_error_kind_name(k), smithycurl_error_kind_name(kind));
    if ((int)stored != rc) failf(file, line, "%s: result code %d != call code %d", op, stored, rc);
    const char *out = "x";
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_E_NO_OUTPUT);
    return r;
}

// squash removes JSON whitespace outside strings, in place (go-httpbin
// echoes a request's JSON body as it was sent, spaces and newlines
// included).
char *squash(char *s) {
    char *w = s;
    int in_str = 0;
    for (char *r = s; *r; r++) {
        if (in_str) {
            if (*r == '\\' && r[1]) *w++ = *r++;
            else if (*r == '"') in_str = 0;
        } else if (*r == '"') {
            in_str = 1;
        } else if (*r == ' ' || *r == '\n' || *r == '\r' || *r == '\t') {
            continue;
        }
        *w++ = *r;
    }
    *w = 0;
    return s;
}

const char *message_of(smithycurl_result *r) {
    const char *s = NULL;
    if (!r || smithycurl_result_error_message(r, &s) != SMITHYCURL_OK) return "";
    return s;
}

// ---- tests ----

static void test_version(void) {
    CHECK(strcmp(smithycurl_version(), SMITHYCURL_VERSION) == 0);
    CHECK(smithycurl_version_number() == SMITHYCURL_VERSION_NUMBER);
    CHECK(SMITHYCURL_VERSION_NUMBER ==
          (SMITHYCURL_VERSION_MAJOR << 16 | SMITHYCURL_VERSION_MINOR << 8 | SMITHYCURL_VERSION_PATCH));
    for (int code = 0; code <= SMITHYCURL_E_INTERNAL; code++) {
        CHECK(strcmp(smithycurl_strerror(code), "unknown code") != 0);
    }
    CHECK(strcmp(smithycurl_strerror(999), "unknown code") == 0);
    CHECK(strcmp(smithycurl_error_kind_name(SMITHYCURL_KIND_DECODE), "decode") == 0);
    CHECK(strcmp(smithycurl_error_kind_name(42), "unknown") == 0);
    smithycurl_free(NULL);
}

static void test_load(void) {
    smithycurl_model *m = load_httpbin();
    CHECK(m != NULL);
    char *json = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_model_services_json(m, &json, &n), SMITHYCURL_OK);
    CHECK(json && strlen(json) == n);
    CHECK_CONTAINS(json, "\"id\":\"smithycurl.examples.httpbin#HttpBin\"");
    CHECK_CONTAINS(json, "\"protocols\":[\"alloy#simpleRestJson\"]");
    const char *ops[] = {"Anything", "BasicAuth", "Bearer", "Delay", "Get", "GetIp", "Gzip", "Headers", "Status"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        char want[64];
        snprintf(want, sizeof want, "\"name\":\"%s\"", ops[i]);
        CHECK_CONTAINS(json, want);
    }
    CHECK_CONTAINS(json, "\"documentation\":\"Returns the caller's IP address.\"");
    // _v2 with flags 0: the same JSON; without documentation: the rest
    char *same = NULL, *brief = NULL;
    size_t same_n = 0, brief_n = 0;
    CHECK_RC(smithycurl_model_services_json_v2(m, 0, &same, &same_n), SMITHYCURL_OK);
    CHECK(same && same_n == n && memcmp(same, json, n) == 0);
    CHECK_RC(smithycurl_model_services_json_v2(m, SMITHYCURL_DESCRIBE_NO_DOCUMENTATION, &brief, &brief_n),
             SMITHYCURL_OK);
    CHECK(brief && strlen(brief) == brief_n && brief_n < n);
    CHECK(strstr(brief, "\"documentation\"") == NULL);
    CHECK_CONTAINS(brief, "\"name\":\"GetIp\",\"id\":\"smithycurl.examples.httpbin#GetIp\"");
    CHECK_CONTAINS(brief, "\"protocols\":[\"alloy#simpleRestJson\"]");
    CHECK_RC(smithycurl_model_services_json_v2(m, 2, &brief, &brief_n), SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_free(same);
    smithycurl_free(brief);
    smithycurl_free(json);

    CHECK_RC(smithycurl_model_operation_json(m, NULL, "Anything", &json, &n), SMITHYCURL_OK);
    CHECK_CONTAINS(json, "{\"name\":\"id\",\"target\":\"smithy.api#Integer\",\"type\":\"integer\",\"required\":true");
    CHECK_CONTAINS(json, "\"http\":{\"location\":\"query\",\"name\":\"query\"}");
    CHECK_CONTAINS(json, "\"smithycurl.examples.httpbin#StringList\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#String\"");
    smithycurl_free(json);

    CHECK_RC(smithycurl_model_operation_json(m, "smithycurl.examples.httpbin#HttpBin", "Status", &json, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(json, "\"constraints\":{\"range\":{\"min\":100,\"max\":599}}");
    CHECK_CONTAINS(json, "\"smithycurl.examples.httpbin#ServerFailure\":{\"type\":\"structure\"");
    CHECK_CONTAINS(json, "\"error\":\"server\",\"http_error\":500");
    smithycurl_free(json);

    CHECK_RC(smithycurl_model_operation_json(m, NULL, "Bearer", &json, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(json, "\"sensitive\":true");
    smithycurl_free(json);

    json = NULL;
    CHECK_RC(smithycurl_model_operation_json(m, NULL, "GetIP", &json, NULL), SMITHYCURL_E_NOT_FOUND);
    CHECK(json == NULL);
    char *msg = NULL;
    CHECK_RC(smithycurl_model_errmsg(m, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "GetIp");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_model_operation_json(m, "no.such#Service", "GetIp", &json, NULL), SMITHYCURL_E_NOT_FOUND);

    CHECK_RC(smithycurl_model_ast_json(m, &json, &n), SMITHYCURL_OK);
    CHECK_CONTAINS(json, "\"smithy\": \"2.0\"");
    smithycurl_free(json);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

static const char bad_model[] =
    "$version: \"2\"\n"
    "namespace a.b\n"
    "\n"
    "structure Foo {\n"
    "    bar: Missing\n"
    "}\n";

static void test_load_errors(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    char *msg = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "inline/bad.smithy", bad_model, strlen(bad_model)), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_E_LOAD);
    CHECK(m == NULL);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "inline/bad.smithy:5:5: error:");
    CHECK_CONTAINS(msg, "a.b#Missing");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);

    // A syntax error, from a file on disk.
    char path[] = "/tmp/smithycurl-test-XXXXXX.smithy";
    int fd = mkstemps(path, 7);
    CHECK(fd >= 0);
    const char *text = "$version: \"2\"\nnamespace a.b\nstructure {\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_E_LOAD);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    char want[128];
    snprintf(want, sizeof want, "%s:3:", path);
    CHECK_CONTAINS(msg, want);
    smithycurl_free(msg);
    unlink(path);

    CHECK_RC(smithycurl_loader_add_path(ld, "/no/such/model.smithy"), SMITHYCURL_E_NOT_FOUND);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "/no/such/model.smithy");
    smithycurl_free(msg);
    const char latin1[] = "namespace a.b\nstring Caf\xe9\n";
    CHECK_RC(smithycurl_loader_add_source(ld, "x.smithy", latin1, strlen(latin1)), SMITHYCURL_E_INVALID_UTF8);
    CHECK_RC(smithycurl_loader_add_source(ld, NULL, "x", 1), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_loader_add_source(ld, "x", NULL, 1), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_loader_add_path(ld, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    // Text over the 256 MiB limit is refused before it is read.
    CHECK_RC(smithycurl_loader_add_source(ld, "huge.smithy", "x", (size_t)300 << 20), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "huge.smithy");
    CHECK_CONTAINS(msg, "256 MiB");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_loader_load(ld, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
}

// A model's snapshot, written to a file, loads alone through
// smithycurl_loader_add_path and calls like the model; a damaged one is a
// load error naming the file; with other files it is an error.
static void test_snapshot(void) {
    smithycurl_model *m = load_httpbin();
    char *data = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_model_snapshot(m, &data, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_model_snapshot(m, &data, &n), SMITHYCURL_OK);
    CHECK(data != NULL && n > 24);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
    char path[] = "/tmp/smithycurl-test-XXXXXX.scmodel";
    int fd = mkstemps(path, 8);
    CHECK(fd >= 0);
    CHECK(write(fd, data, n) == (ssize_t)n);
    close(fd);

    smithycurl_loader *ld = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, NULL);
    char *out = call_ok(c, "GetIp", NULL);
    CHECK_CONTAINS(out, "\"origin\":\"127.0.0.1\"");
    free(out);
    smithycurl_client_free(c);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);

    char *msg = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, model_dir), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_E_LOAD);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "cannot be loaded with other model files");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);

    data[n / 2] ^= 1;
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0);
    CHECK(write(fd, data, n) == (ssize_t)n);
    close(fd);
    smithycurl_free(data);
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    m = NULL;
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_E_LOAD);
    CHECK(m == NULL);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, path);
    CHECK_CONTAINS(msg, "checksum mismatch");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
    unlink(path);
}

static void test_operations(void) {
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

// A service on httpbin whose operation gets HTML back where it expects JSON.
static const char decode_model[] =
    "$version: \"2\"\n"
    "namespace test.decode\n"
    "@alloy#simpleRestJson\n"
    "service Html { operations: [GetHtml] }\n"
    "@readonly @http(method: \"GET\", uri: \"/html\")\n"
    "operation GetHtml { output := { title: String } }\n";

static void test_error_kinds(void) {
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

struct canceller {
    smithycurl_cancel_token *tok;
    int delay_ms;
};

static void *cancel_later(void *arg) {
    struct canceller *cn = arg;
    usleep(cn->delay_ms * 1000);
    CHECK_RC(smithycurl_cancel_token_cancel(cn->tok), SMITHYCURL_OK);
    return NULL;
}

static void test_cancel(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    smithycurl_cancel_token *tok = NULL;
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);

    // An unused token does nothing.
    char *out = NULL;
    smithycurl_result *r = NULL;
    CHECK_RC(smithycurl_call(c, "GetIp", NULL, 0, tok, &r), SMITHYCURL_OK);
    smithycurl_result_free(r);

    struct canceller cn = {tok, 200 * slow};
    pthread_t th;
    pthread_create(&th, NULL, cancel_later, &cn);
    double t0 = now_s();
    r = call_err(c, "Delay", "{\"seconds\": 5}", tok, SMITHYCURL_E_CANCELLED, SMITHYCURL_KIND_CANCELLED);
    double took = now_s() - t0;
    CHECK(took < 2.0 * slow);
    smithycurl_result_free(r);
    pthread_join(th, NULL);

    // A cancelled token fails later calls at once; cancelling twice is fine.
    CHECK_RC(smithycurl_cancel_token_cancel(tok), SMITHYCURL_OK);
    r = call_err(c, "GetIp", NULL, tok, SMITHYCURL_E_CANCELLED, SMITHYCURL_KIND_CANCELLED);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_cancel_token_free(tok), SMITHYCURL_OK);
    CHECK_RC(smithycurl_cancel_token_free(tok), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_cancel_token_cancel(tok), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_call(c, "GetIp", NULL, 0, tok, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(r == NULL);
    out = call_ok(c, "GetIp", NULL); // the client is unaffected
    free(out);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

struct in_flight {
    smithycurl_client *c;
    int rc;
};

static void *delayed_call(void *arg) {
    struct in_flight *f = arg;
    smithycurl_result *r = NULL;
    f->rc = smithycurl_call(f->c, "Delay", "{\"seconds\": 5}", 14, NULL, &r);
    smithycurl_result_free(r);
    return NULL;
}

// Freeing a client cancels the calls in flight on other threads. The call
// goes to a server that never answers, and the client is freed once its
// connection is in the server's backlog: the call is then certainly in
// flight, and only the free can end it.
static void test_free_in_flight(void) {
    smithycurl_model *m = load_httpbin();
    struct hole hole;
    if (hole_open(&hole) != 0) {
        smithycurl_model_free(m);
        return;
    }
    smithycurl_client *c = new_client(m, hole.url, NULL);
    struct in_flight f = {c, -1};
    pthread_t th;
    pthread_create(&th, NULL, delayed_call, &f);
    struct pollfd p = {.fd = hole.fd, .events = POLLIN};
    CHECK(poll(&p, 1, 10000 * slow) == 1); // the call connected
    double t0 = now_s();
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    pthread_join(th, NULL);
    CHECK(now_s() - t0 < 2.0 * slow);
    CHECK_RC(f.rc, SMITHYCURL_E_CANCELLED);
    hole_close(&hole);
    smithycurl_model_free(m);
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

static void test_options(void) {
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
static void test_credentials(void) {
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
static void test_host_prefix(void) {
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
static void test_endpoint_rules(void) {
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

static void test_bad_handles(void) {
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

// ---- 8 threads x N calls on one client ----

struct worker {
    smithycurl_client *c;
    int id, calls, bad;
};

static void *work(void *arg) {
    struct worker *w = arg;
    char in[96], want[64];
    for (int i = 0; i < w->calls; i++) {
        int id = w->id * 1000000 + i;
        int n = snprintf(in, sizeof in, "{\"id\": %d, \"test\": \"t%d\"}", id, w->id);
        smithycurl_result *r = NULL;
        int rc = smithycurl_call(w->c, "Anything", in, (size_t)n, NULL, &r);
        const char *out = NULL;
        size_t len = 0;
        char *copy = NULL;
        snprintf(want, sizeof want, "\"json\":{\"id\":%d,\"test\":\"t%d\"}", id, w->id);
        if (rc != SMITHYCURL_OK || smithycurl_result_output(r, &out, &len) != SMITHYCURL_OK ||
            strlen(out) != len || !strstr(squash(copy = strdup(out)), want)) {
            if (w->bad++ < 3)
                failf(__FILE__, __LINE__, "thread %d call %d: %s %.200s", w->id, i, smithycurl_strerror(rc),
                      out ? out : message_of(r));
        }
        free(copy);
        smithycurl_result_free(r);
    }
    return NULL;
}

static void test_threads(void) {
    int calls = 500;
    const char *env = getenv("SMITHYCURL_TEST_CALLS");
    if (env) calls = atoi(env);
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    enum { T = 8 };
    pthread_t th[T];
    struct worker w[T];
    double t0 = now_s();
    for (int i = 0; i < T; i++) {
        w[i] = (struct worker){c, i + 1, calls, 0};
        pthread_create(&th[i], NULL, work, &w[i]);
    }
    int bad = 0;
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        bad += w[i].bad;
    }
    double took = now_s() - t0;
    CHECK(bad == 0);
    CHECK(took < 60.0 * slow);
    printf("    %d threads x %d calls: %.2f s, %.0f calls/s\n", T, calls, took, T * calls / took);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// After fork(), the child gets SMITHYCURL_E_FORKED at once; the parent is
// unaffected.
static void test_fork(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_client *c = new_client(m, NULL, NULL);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        smithycurl_result *r = (smithycurl_result *)1;
        smithycurl_loader *ld = NULL;
        int ok = smithycurl_call(c, "GetIp", NULL, 0, NULL, &r) == SMITHYCURL_E_FORKED && r == NULL &&
                 smithycurl_loader_new(&ld) == SMITHYCURL_E_FORKED &&
                 smithycurl_client_free(c) == SMITHYCURL_E_FORKED &&
                 strcmp(smithycurl_version(), SMITHYCURL_VERSION) == 0;
        _exit(ok ? 0 : 1);
    }
    CHECK(pid > 0);
    int st = 0;
    // Bounded wait: a hang in the child is a failure, not a stuck suite.
    double t0 = now_s();
    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (now_s() - t0 > 10.0 * slow) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            failf(__FILE__, __LINE__, "forked child hung");
            break;
        }
        usleep(10000);
    }
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *out = call_ok(c, "GetIp", NULL);
    free(out);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// ---- alloy's PizzaAdminService (testserver -pizza), every operation ----

struct pizza_case {
    const char *op, *input;
    int code;            // SMITHYCURL_OK or SMITHYCURL_E_SERVICE / _VALIDATION
    const char *shape;   // error shape, for SMITHYCURL_E_SERVICE
    int status;          // HTTP status, for SMITHYCURL_E_SERVICE
    const char *expect;  // a fragment of the output or of the error members (squashed JSON)
};

static const struct pizza_case pizza_cases[] = {
    {"AddMenuItem", "{\"restaurant\": \"c-kitchen\", \"menuItem\": {\"food\": {\"pizza\": {\"name\": \"margharita\", \"base\": \"T\", \"toppings\": [\"MUSHROOM\"]}}, \"price\": 9.0}}",
     SMITHYCURL_OK, NULL, 0, "\"itemId\":"},
    {"GetMenu", "{\"restaurant\": \"c-kitchen\"}", SMITHYCURL_OK, NULL, 0, "\"name\":\"margharita\""},
    {"AddMenuItem", "{\"restaurant\": \"bobs\", \"menuItem\": {\"food\": {\"salad\": {\"name\": \"air\", \"ingredients\": []}}, \"price\": 0}}",
     SMITHYCURL_E_SERVICE, "alloy.test#PriceError", 400, "\"message\":\"Price must be greater than 0\""},
    {"GetMenu", "{\"restaurant\": \"nowhere\"}", SMITHYCURL_E_SERVICE, "alloy.test#NotFoundError", 404, "\"name\":\"nowhere\""},
    {"GetMenu", "{\"restaurant\": \"fallback\"}", SMITHYCURL_E_SERVICE, "alloy.test#FallbackError", 400, "\"error\":"},
    {"AddMenuItem", "{\"restaurant\": \"boom\", \"menuItem\": {\"food\": {\"pizza\": {\"name\": \"m\", \"base\": \"T\", \"toppings\": []}}, \"price\": 1}}",
     SMITHYCURL_E_SERVICE, "alloy.test#GenericServerError", 502, "the oven exploded"},
    {"Version", NULL, SMITHYCURL_OK, NULL, 0, "\"version\":\"1.0.0\""},
    {"Health", "{\"query\": \"hello\"}", SMITHYCURL_OK, NULL, 0, "\"status\":\"ok\""},
    {"Health", "{\"query\": \"fail\"}", SMITHYCURL_E_SERVICE, "alloy.test#UnknownServerError", 500, "\"errorCode\":\"server.error\""},
    // @length and enum values are not checked by default: the server has the last word
    {"Health", "{\"query\": \"too long\"}", SMITHYCURL_E_SERVICE, "alloy.test#GenericClientError", 418, "query longer than 5"},
    {"HeaderEndpoint", "{\"uppercaseHeader\": \"UP\", \"capitalizedHeader\": \"Cap\", \"lowercaseHeader\": \"low\", \"mixedHeader\": \"mIx\"}",
     SMITHYCURL_OK, NULL, 0, "\"mixedHeader\":\"mIx\""},
    {"RoundTrip", "{\"label\": \"the label/\xc3\xbc\", \"header\": \"h\", \"query\": \"q&x=1\", \"body\": \"b\"}",
     SMITHYCURL_OK, NULL, 0, "\"label\":\"the label/\xc3\xbc\""},
    {"GetEnum", "{\"aa\": \"v2\"}", SMITHYCURL_OK, NULL, 0, "\"result\":\"v2\""},
    {"GetIntEnum", "{\"aa\": 1}", SMITHYCURL_OK, NULL, 0, "\"result\":1"},
    {"GetEnum", "{\"aa\": \"v3\"}", SMITHYCURL_E_SERVICE, "alloy.test#GenericClientError", 418, "TheEnum has no value"},
    {"CustomCode", "{\"code\": 201}", SMITHYCURL_OK, NULL, 0, "\"code\":201"},
    {"CustomCode", "{\"code\": 600}", SMITHYCURL_E_SERVICE, "alloy.test#GenericClientError", 418, "want 200 to 399"},
    {"HttpPayloadWithDefault", "{}", SMITHYCURL_OK, NULL, 0, "\"body\":\"default value\""},
    {"HttpPayloadRequiredWithDefault", "{\"body\": \"custom\"}", SMITHYCURL_OK, NULL, 0, "\"body\":\"custom\""},
    {"OpenUnions", "{\"data\": {\"discriminated\": {\"smol\": {\"content\": \"s\"}}}}", SMITHYCURL_OK, NULL, 0, "\"smol\":{\"content\":\"s\"}"},
    {"Primitives", "{\"uuid\": \"51216269-c0c8-454a-871e-329513e54e23\", \"localDate\": \"2025-08-15\", \"localTime\": \"13:26:51.123456789\", \"duration\": 86400.000000001, \"offsetDateTime\": \"2025-08-15T20:26:51Z\"}",
     SMITHYCURL_OK, NULL, 0, "86400.000000001"},
    {"PreserveOrder", "{\"map\": {\"z\": 1, \"a\": 2}, \"document\": {\"zz\": [1], \"aa\": null}}", SMITHYCURL_OK, NULL, 0,
     "{\"map\":{\"z\":1,\"a\":2},\"document\":{\"zz\":[1],\"aa\":null}}"},
};

static void test_pizza(void) {
    const char *url = getenv("SMITHYCURL_PIZZA_URL"), *shared = getenv("SMITHYCURL_SHARED");
    if (!url || !shared) {
        failf(__FILE__, __LINE__, "SMITHYCURL_PIZZA_URL and SMITHYCURL_SHARED are needed (bindings/c/run.sh sets them)");
        return;
    }
    const char *dirs[] = {"conformance/disneystreaming-alloy/modules/core/resources/META-INF/smithy",
                          "conformance/disneystreaming-alloy/modules/protocol-tests/resources/META-INF/smithy",
                          "conformance/smithy-lang-smithy/smithy-protocol-test-traits/src/main/resources/META-INF/smithy"};
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", shared, dirs[i]);
        CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    }
    if (smithycurl_loader_load(ld, &m) != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_loader_errmsg(ld, &msg);
        failf(__FILE__, __LINE__, "pizza model: %s", msg ? msg : "?");
        smithycurl_free(msg);
        smithycurl_loader_free(ld);
        return;
    }
    smithycurl_loader_free(ld);
    smithycurl_options *o = NULL;
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(o, 0, 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, "alloy.test#PizzaAdminService", url, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);

    for (size_t i = 0; i < sizeof pizza_cases / sizeof *pizza_cases; i++) {
        const struct pizza_case *pc = &pizza_cases[i];
        if (pc->code == SMITHYCURL_OK) {
            char *out = squash(call_ok(c, pc->op, pc->input));
            CHECK_CONTAINS(out, pc->expect);
            free(out);
            continue;
        }
        smithycurl_error_kind kind = pc->code == SMITHYCURL_E_SERVICE ? SMITHYCURL_KIND_SERVICE : SMITHYCURL_KIND_VALIDATION;
        smithycurl_result *r = call_err(c, pc->op, pc->input, NULL, pc->code, kind);
        if (!r || pc->code != SMITHYCURL_E_SERVICE) {
            smithycurl_result_free(r);
            continue;
        }
        const char *shape = "", *members = "";
        size_t n = 0;
        int status = 0;
        CHECK_RC(smithycurl_result_error_shape(r, &shape), SMITHYCURL_OK);
        CHECK_RC(smithycurl_result_http_status(r, &status), SMITHYCURL_OK);
        CHECK_RC(smithycurl_result_error_members(r, &members, &n), SMITHYCURL_OK);
        if (strcmp(shape, pc->shape) != 0 || status != pc->status)
            failf(__FILE__, __LINE__, "%s(%s): %s %d, want %s %d", pc->op, pc->input, shape, status, pc->shape, pc->status);
        char *copy = squash(strdup(members));
        CHECK_CONTAINS(copy, pc->expect);
        free(copy);
        smithycurl_result_free(r);
    }
    // Every operation of the service is in the table.
    char *svc = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_model_services_json(m, &svc, &n), SMITHYCURL_OK);
    const char *ops[] = {"AddMenuItem", "GetMenu", "Version", "Health", "HeaderEndpoint", "RoundTrip", "GetEnum",
                         "GetIntEnum", "CustomCode", "HttpPayloadWithDefault", "HttpPayloadRequiredWithDefault",
                         "OpenUnions", "Primitives", "PreserveOrder"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) CHECK_CONTAINS(svc, ops[i]);
    smithycurl_free(svc);
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

// ---- the key-value store of testing/servers/kvserver (testserver), both RPC v2 protocols ----

// service_error checks a modeled error's shape, status and members.
static void check_service_error(smithycurl_result *r, const char *shape, int status, const char *members) {
    const char *got_shape = "", *got_members = "";
    size_t n = 0;
    int got_status = 0;
    if (!r) return;
    CHECK_RC(smithycurl_result_error_shape(r, &got_shape), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_http_status(r, &got_status), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_error_members(r, &got_members, &n), SMITHYCURL_OK);
    if (strcmp(got_shape, shape) != 0 || got_status != status)
        failf(__FILE__, __LINE__, "error %s %d, want %s %d", got_shape, got_status, shape, status);
    CHECK_CONTAINS(got_members, members);
}

static void test_rpcv2(void) {
    const char *url = getenv("SMITHYCURL_KV_URL");
    if (!url) {
        failf(__FILE__, __LINE__, "SMITHYCURL_KV_URL is needed (bindings/c/run.sh sets it)");
        return;
    }
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, "testing/servers/kvserver/kv.smithy"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
    if (!m) return;
    const char *services[] = {"smithycurl.kv#KVCbor", "smithycurl.kv#KVJson"};
    for (size_t i = 0; i < 2; i++) {
        smithycurl_options *o = NULL;
        smithycurl_client *c = NULL;
        CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
        CHECK_RC(smithycurl_options_set_retries(o, 1, 2), SMITHYCURL_OK);
        CHECK_RC(smithycurl_client_new(m, services[i], url, o, &c), SMITHYCURL_OK);
        smithycurl_options_free(o);
        if (!c) continue;
        char put[512], get[128], conflict[128];
        snprintf(put, sizeof put,
                 "{\"key\": \"c/%zu\", \"value\": \"AAE=\", \"tags\": {\"k\": \"v\"}, \"score\": 0.25, "
                 "\"size\": -123456789012345678901234567890, \"ratio\": 1234.5678, "
                 "\"expires\": \"2026-12-01T10:20:30.125Z\", \"secret\": \"s3cret\"}", i);
        snprintf(get, sizeof get, "{\"key\": \"c/%zu\"}", i);
        snprintf(conflict, sizeof conflict, "{\"key\": \"c/%zu\", \"ifVersion\": 9}", i);
        free(call_ok(c, "Ping", NULL));
        char *out = call_ok(c, "Put", put);
        CHECK_CONTAINS(out, "\"version\":1");
        free(out);
        out = call_ok(c, "Get", get);
        CHECK_CONTAINS(out, "\"value\":\"AAE=\",\"tags\":{\"k\":\"v\"},\"score\":0.25,"
                            "\"size\":-123456789012345678901234567890,\"ratio\":1234.5678,"
                            "\"expires\":\"2026-12-01T10:20:30.125Z\",\"version\":1");
        free(out);
        out = call_ok(c, "List", "{\"prefix\": \"c/\"}");
        CHECK_CONTAINS(out, "\"key\":\"c/");
        free(out);
        smithycurl_result *r = call_err(c, "Put", conflict, NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
        check_service_error(r, "smithycurl.kv#Conflict", 400, "\"current\":1");
        smithycurl_result_free(r);
        free(call_ok(c, "Delete", get));
        r = call_err(c, "Get", get, NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
        check_service_error(r, "smithycurl.kv#NotFound", 400, "\"key\":\"c/");
        smithycurl_result_free(r);
        r = call_err(c, "Get", "{\"key\": \"unavailable\"}", NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
        check_service_error(r, "smithycurl.kv#Unavailable", 503, "try again later");
        int attempts = 0;
        if (r) CHECK_RC(smithycurl_result_attempts(r, &attempts), SMITHYCURL_OK);
        CHECK(attempts == 2); // @retryable and @readonly: retried (2 attempts at most)
        smithycurl_result_free(r);
        r = call_err(c, "Put", "{\"key\": \"k\", \"ifVersion\": 1.5}", NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
        CHECK_CONTAINS(message_of(r), "ifVersion");
        smithycurl_result_free(r);
        CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
        // Nothing listens on port 9 of 127.0.0.1 (discard, not served here).
        CHECK_RC(smithycurl_client_new(m, services[i], "http://127.0.0.1:9", NULL, &c), SMITHYCURL_OK);
        smithycurl_result_free(call_err(c, "Ping", NULL, NULL, SMITHYCURL_E_TRANSPORT, SMITHYCURL_KIND_TRANSPORT));
        CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    }
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

// An API Gateway service (by its shape id) on httpbin: the Accept header
// API Gateway needs, type checks, an empty blob payload, streaming members.
static const char exact_model[] =
    "$version: \"2\"\n"
    "namespace com.amazonaws.apigateway\n"
    "@aws.protocols#restJson1\n"
    "service BackplaneControlService { operations: [GetHeaders, GetEmpty, Put, Upload, Subscribe] }\n"
    "@readonly @http(method: \"GET\", uri: \"/headers\")\n"
    "operation GetHeaders { output := { headers: Document } }\n"
    "@readonly @http(method: \"GET\", uri: \"/status/200\")\n"
    "operation GetEmpty { output := { @httpPayload data: Blob } }\n"
    "@http(method: \"POST\", uri: \"/anything\")\n"
    "operation Put {\n"
    "    input := { @required name: String, @pattern(\"^[a-z]+$\") code: String, b: Byte, l: Long, f: Float,\n"
    "               t: Timestamp, blob: Blob }\n"
    "    output := { json: Document }\n"
    "}\n"
    "@http(method: \"POST\", uri: \"/anything/upload\")\n"
    "operation Upload { input := { @httpPayload data: StreamingBlob } }\n"
    "@streaming blob StreamingBlob\n"
    "@http(method: \"POST\", uri: \"/anything/events\")\n"
    "operation Subscribe { output := { @httpPayload events: Events } }\n"
    "@streaming union Events { a: Ev }\n"
    "structure Ev { x: String }\n";

static void test_exact(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_options *o = NULL;
    smithycurl_client *c = NULL, *cv = NULL;
    smithycurl_result *r;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "exact.smithy", exact_model, sizeof exact_model - 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(o, 0, 0), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, o, &c), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_validation(o, 1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, o, &cv), SMITHYCURL_OK);
    smithycurl_options_free(o);

    // API Gateway: Accept: application/json on every request (httpbin echoes it)
    char *out = squash(call_ok(c, "GetHeaders", NULL));
    CHECK_CONTAINS(out, "\"Accept\":[\"application/json\"]");
    free(out);
    // an empty blob payload is an empty blob
    out = call_ok(c, "GetEmpty", NULL);
    CHECK(strcmp(out, "{\"data\":\"\"}") == 0);
    free(out);

    // type errors, with or without validation: usage errors naming the member
    static const struct { const char *in, *want; } bad[] = {
        {"{\"name\": \"x\", \"b\": 128}", "member b: 128 is out of range (byte: -128 to 127)"},
        {"{\"name\": \"x\", \"l\": 9223372036854775808}", "member l: 9223372036854775808 is out of range (long: -9223372036854775808 to 9223372036854775807)"},
        {"{\"name\": \"x\", \"f\": 1e39}", "member f: 1e39 is out of range (float: "},
        {"{\"name\": \"x\", \"t\": 1e20}", "member t: timestamp 1e20 is out of range: years 0001 to 9999"},
        {"{\"name\": \"x\", \"t\": -1e20}", "member t: timestamp -1e20 is out of range"},
        {"{\"name\": \"x\", \"blob\": \"!!!notbase64\"}", "member blob: invalid base64: illegal character '!' at offset 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        r = call_err(c, "Put", bad[i].in, NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
        CHECK_CONTAINS(message_of(r), bad[i].want);
        smithycurl_result_free(r);
        r = call_err(cv, "Put", bad[i].in, NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
        CHECK_CONTAINS(message_of(r), bad[i].want);
        smithycurl_result_free(r);
    }
    // @pattern: sent by default, refused with validation; @required always refused
    out = squash(call_ok(c, "Put", "{\"name\": \"x\", \"code\": \"ABC\"}"));
    CHECK_CONTAINS(out, "\"code\":\"ABC\"");
    free(out);
    r = call_err(cv, "Put", "{\"name\": \"x\", \"code\": \"ABC\"}", NULL, SMITHYCURL_E_VALIDATION, SMITHYCURL_KIND_VALIDATION);
    CHECK_CONTAINS(message_of(r), "code: value \"ABC\" does not match the pattern ^[a-z]+$");
    smithycurl_result_free(r);
    r = call_err(c, "Put", "{\"code\": \"ABC\"}", NULL, SMITHYCURL_E_VALIDATION, SMITHYCURL_KIND_VALIDATION);
    CHECK_CONTAINS(message_of(r), "name: is required");
    smithycurl_result_free(r);

    // a streaming blob given in the document is sent as the body; an event
    // stream is refused by smithycurl_call before sending
    free(call_ok(c, "Upload", "{\"data\": \"aGk=\"}"));
    r = call_err(c, "Subscribe", NULL, NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "operation Subscribe: its output is an event stream (member events): open it as a stream (CallStream in Go, smithycurl_event_stream_open in C");
    int attempts = -1;
    smithycurl_result_attempts(r, &attempts);
    CHECK(attempts == 0);
    smithycurl_result_free(r);

    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_free(cv), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

// ---- event streams (testing/servers/eventserver) ----

// open_event_service loads the model at path and returns a client of its
// service at $SMITHYCURL_EVENTS_URL; NULL (skipped) without it.
static smithycurl_client *open_event_service(smithycurl_model **m, const char *path, const char *service) {
    const char *url = getenv("SMITHYCURL_EVENTS_URL");
    *m = NULL;
    if (!url) {
        if (getenv("CI")) failf(__FILE__, __LINE__, "SMITHYCURL_EVENTS_URL is needed in CI");
        else printf("    skipped: SMITHYCURL_EVENTS_URL not set\n");
        return NULL;
    }
    smithycurl_loader *ld = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(*m, service, url, NULL, &c), SMITHYCURL_OK);
    return c;
}

// open_ticker loads testing/servers/eventserver/ticker.smithy and returns a client
// of the Ticker service at $SMITHYCURL_EVENTS_URL; NULL (skipped) without it.
static smithycurl_client *open_ticker(smithycurl_model **m) {
    return open_event_service(m, "testing/servers/eventserver/ticker.smithy", "smithycurl.test.events#Ticker");
}

static char *result_json(smithycurl_result *r) {
    const char *p = NULL;
    size_t n = 0;
    if (smithycurl_result_output(r, &p, &n) != SMITHYCURL_OK) return strdup("(no output)");
    return strndup(p, n);
}

static void test_event_stream(void) {
    smithycurl_model *m = NULL;
    smithycurl_client *c = open_ticker(&m);
    if (!c) return;
    smithycurl_result *r = NULL, *ev = NULL;
    smithycurl_event_stream *s = NULL;

    // Three ticks 200 ms apart (x slow), read as they arrive.
    char in_buf[64];
    snprintf(in_buf, sizeof in_buf, "{\"count\":3,\"intervalMs\":%d}", 200 * slow);
    const char *in = in_buf;
    double t0 = now_s();
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    CHECK(s != NULL);
    char *initial = result_json(r);
    CHECK_CONTAINS(initial, "{\"session\":\"s-1\"}");
    free(initial);
    smithycurl_result_free(r);
    double first = 0, last = 0;
    int n = 0, rc;
    while ((rc = smithycurl_event_stream_next(s, &ev)) == SMITHYCURL_OK && n < 10) {
        char *json = result_json(ev);
        char want[64];
        snprintf(want, sizeof want, "{\"tick\":{\"seq\":%d,", n);
        CHECK_CONTAINS(json, want);
        free(json);
        smithycurl_result_free(ev);
        if (n == 0) first = now_s() - t0;
        last = now_s() - t0;
        n++;
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    CHECK(ev == NULL);
    CHECK(n == 3);
    CHECK(last - first >= 0.3 * slow); // streamed, not read at the end
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_END);
    CHECK_RC(smithycurl_event_stream_free(s), SMITHYCURL_OK);
    CHECK_RC(smithycurl_event_stream_free(s), SMITHYCURL_E_INVALID_HANDLE);

    // A modeled exception event after one tick.
    in = "{\"count\":1,\"fail\":\"exception\"}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_OK);
    smithycurl_result_free(ev);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_SERVICE);
    const char *shape = NULL;
    CHECK_RC(smithycurl_result_error_shape(ev, &shape), SMITHYCURL_OK);
    CHECK_CONTAINS(shape, "smithycurl.test.events#TooFast");
    CHECK_CONTAINS(message_of(ev), "slow down");
    smithycurl_result_free(ev);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_END);
    smithycurl_event_stream_free(s);

    // A truncated stream, a corrupt message, an error response.
    in = "{\"count\":1,\"fail\":\"cut\"}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_OK);
    smithycurl_result_free(ev);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_DECODE);
    CHECK_CONTAINS(message_of(ev), "truncated");
    smithycurl_result_free(ev);
    smithycurl_event_stream_free(s);
    in = "{\"count\":1,\"fail\":\"refuse\"}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_E_SERVICE);
    CHECK(s == NULL);
    CHECK_CONTAINS(message_of(r), "refused as asked");
    smithycurl_result_free(r);

    // Freed in the middle of a long stream: the transfer ends at once.
    in = "{\"count\":1000,\"intervalMs\":50}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_OK);
    smithycurl_result_free(ev);
    t0 = now_s();
    CHECK_RC(smithycurl_event_stream_free(s), SMITHYCURL_OK);
    CHECK(now_s() - t0 < 2.0 * slow);

    // smithycurl_call refuses the operation; open refuses other operations.
    CHECK_RC(smithycurl_call(c, "Tick", "{\"count\":1}", 11, NULL, &r), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(message_of(r), "event stream");
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_open(c, "Nope", NULL, 0, NULL, &r, &s), SMITHYCURL_E_NOT_FOUND);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", NULL, 0, NULL, NULL, &s), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_event_stream_next(NULL, &ev), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_event_stream_free(NULL), SMITHYCURL_E_INVALID_HANDLE);

    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// The ticker in rpcv2Cbor: the initial output is the stream's first message
// (an initial-response event), the events are CBOR.
static void test_event_stream_rpc(void) {
    smithycurl_model *m = NULL;
    smithycurl_client *c = open_event_service(&m, "testing/servers/eventserver/rpcticker.smithy", "smithycurl.test.events.rpc#TickerCbor");
    if (!c) return;
    smithycurl_result *r = NULL, *ev = NULL;
    smithycurl_event_stream *s = NULL;
    char in_buf[64];
    snprintf(in_buf, sizeof in_buf, "{\"count\":2,\"intervalMs\":%d,\"fail\":\"exception\"}", 200 * slow);
    const char *in = in_buf;
    double t0 = now_s();
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    char *initial = result_json(r);
    CHECK_CONTAINS(initial, "{\"session\":\"s-1\"}");
    free(initial);
    smithycurl_result_free(r);
    double first = 0;
    for (int n = 0; n < 2; n++) {
        CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_OK);
        char *json = result_json(ev);
        char want[96];
        snprintf(want, sizeof want, "{\"tick\":{\"seq\":%d,\"at\":\"2024-10-31T14:15:1%dZ\",\"message\":\"tick %d\"}}", n, 4 + n, n);
        CHECK_CONTAINS(json, want);
        free(json);
        smithycurl_result_free(ev);
        if (n == 0) first = now_s() - t0;
    }
    CHECK(now_s() - t0 - first >= 0.15 * slow); // streamed, not read at the end
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_SERVICE);
    const char *shape = NULL;
    CHECK_RC(smithycurl_result_error_shape(ev, &shape), SMITHYCURL_OK);
    CHECK_CONTAINS(shape, "smithycurl.test.events.rpc#TooFast");
    CHECK_CONTAINS(message_of(ev), "slow down");
    smithycurl_result_free(ev);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_END);
    CHECK_RC(smithycurl_event_stream_free(s), SMITHYCURL_OK);

    // An error response (CBOR body, __type) before any stream.
    in = "{\"count\":1,\"fail\":\"refuse\"}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_E_SERVICE);
    CHECK(s == NULL);
    CHECK_RC(smithycurl_result_error_shape(r, &shape), SMITHYCURL_OK);
    CHECK_CONTAINS(shape, "smithycurl.test.events.rpc#BadRequest");
    CHECK_CONTAINS(message_of(r), "refused as asked");
    smithycurl_result_free(r);

    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// ---- streaming blob payloads (smithycurl_call_stream) ----

static const char stream_model[] =
    "$version: \"2\"\n"
    "namespace t\n"
    "use aws.protocols#restJson1\n"
    "@restJson1\n"
    "service S { operations: [Upload, Download] }\n"
    "@streaming\n"
    "blob Stream\n"
    "@http(method: \"PUT\", uri: \"/anything/up\")\n"
    "operation Upload {\n"
    "    input := { @httpPayload Body: Stream }\n"
    "    output := { data: String, method: String }\n"
    "}\n"
    "@readonly\n"
    "@http(method: \"GET\", uri: \"/bytes/{n}\")\n"
    "operation Download {\n"
    "    input := { @required @httpLabel n: Integer }\n"
    "    output := { @httpPayload Body: Stream }\n"
    "}\n";

struct source {
    size_t off, len, fail_at; // fail_at 0: never
    int calls;
};

// Produces len bytes of "0123456789…", in pieces of at most cap.
static long long read_digits(void *ud, char *buf, size_t cap) {
    struct source *s = ud;
    s->calls++;
    if (s->fail_at && s->off >= s->fail_at) return -1;
    size_t n = s->len - s->off;
    if (n > cap) n = cap;
    for (size_t i = 0; i < n; i++) buf[i] = (char)('0' + (s->off + i) % 10);
    s->off += n;
    return (long long)n;
}

struct sink {
    size_t len, stop_at; // stop_at 0: never
    int calls;
};

static int write_count(void *ud, const char *data, size_t len) {
    struct sink *k = ud;
    (void)data;
    k->calls++;
    k->len += len;
    return k->stop_at && k->len >= k->stop_at ? 1 : 0;
}

static void test_streaming(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_client *c = NULL;
    smithycurl_result *r = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "stream.smithy", stream_model, strlen(stream_model)), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, NULL, &c), SMITHYCURL_OK);
    if (!c) return;

    // Upload from a read callback, known and unknown length: go-httpbin
    // echoes the body as "data".
    for (int known = 1; known >= 0; known--) {
        struct source src = {.len = 200000};
        CHECK_RC(smithycurl_call_stream(c, "Upload", "{}", 2, read_digits, &src, known ? 200000 : -1, NULL, NULL,
                                        NULL, &r),
                 SMITHYCURL_OK);
        const char *out = NULL;
        size_t n = 0;
        CHECK_RC(smithycurl_result_output(r, &out, &n), SMITHYCURL_OK);
        CHECK_CONTAINS(out, "\"data\":\"data:application/octet-stream;base64,MDEyMzQ1Njc4OTAx");
        CHECK_CONTAINS(out, "\"method\":\"PUT\"");
        CHECK(n > 266666 && n < 266800);
        CHECK(src.off == 200000 && src.calls >= 2);
        smithycurl_result_free(r);
    }

    // Download to a write callback: the output JSON has no Body.
    struct sink sk = {0};
    CHECK_RC(smithycurl_call_stream(c, "Download", "{\"n\": 90000}", 12, NULL, NULL, 0, write_count, &sk, NULL, &r),
             SMITHYCURL_OK);
    const char *out = NULL;
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK(out && strcmp(out, "{}") == 0);
    CHECK(sk.len == 90000 && sk.calls >= 1);
    smithycurl_result_free(r);

    // Without callbacks the body is base64 in the output, as before.
    CHECK_RC(smithycurl_call(c, "Download", "{\"n\": 3}", 8, NULL, &r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK(out && strncmp(out, "{\"Body\":\"", 9) == 0 && strlen(out) == 15);
    smithycurl_result_free(r);

    // A read callback failing half way, a write callback stopping: clear
    // errors, not retried.
    const char *msg = NULL;
    struct source bad = {.len = 200000, .fail_at = 100000};
    CHECK_RC(smithycurl_call_stream(c, "Upload", "{}", 2, read_digits, &bad, 200000, NULL, NULL, NULL, &r),
             SMITHYCURL_E_TRANSPORT);
    CHECK_RC(smithycurl_result_error_message(r, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "reading the request body: the read callback failed");
    smithycurl_result_free(r);
    struct sink stop = {.stop_at = 1};
    CHECK_RC(smithycurl_call_stream(c, "Download", "{\"n\": 90000}", 12, NULL, NULL, 0, write_count, &stop, NULL, &r),
             SMITHYCURL_E_TRANSPORT);
    CHECK_RC(smithycurl_result_error_message(r, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "writing the response body: the write callback failed");
    CHECK(stop.calls == 1);
    smithycurl_result_free(r);

    // Callbacks for an operation without such a payload.
    struct source src = {.len = 1};
    CHECK_RC(smithycurl_call_stream(c, "Download", "{\"n\": 1}", 8, read_digits, &src, 1, NULL, NULL, NULL, &r),
             SMITHYCURL_E_USAGE);
    CHECK_RC(smithycurl_result_error_message(r, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "has no streaming blob input payload");
    CHECK(src.calls == 0);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_call_stream(c, "Download", "{}", 2, NULL, NULL, 0, NULL, NULL, NULL, NULL),
             SMITHYCURL_E_INVALID_ARGUMENT);

    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

// ---- streamed bodies against testing/servers/blobserver (PutBlob reads and
// checks the pattern, byte i being i % 251; GetBlob writes it) ----

struct pattern_src {
    long long off, len, fail_at; // fail_at 0: never
    int calls, rewinds;
};

static long long read_pattern(void *ud, char *buf, size_t cap) {
    struct pattern_src *s = ud;
    s->calls++;
    if (s->fail_at && s->off >= s->fail_at) return -1;
    long long n = s->len - s->off;
    if (n > (long long)cap) n = (long long)cap;
    for (long long i = 0; i < n; i++) buf[i] = (char)((s->off + i) % 251);
    s->off += n;
    return n;
}

static int rewind_pattern(void *ud) {
    struct pattern_src *s = ud;
    s->rewinds++;
    s->off = 0;
    return 0;
}

struct pattern_sink {
    long long len;
    int bad; // a byte was not the pattern's
};

static int write_pattern(void *ud, const char *data, size_t len) {
    struct pattern_sink *k = ud;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)data[i] != (k->len + (long long)i) % 251) k->bad = 1;
    k->len += (long long)len;
    return 0;
}

// A /proc/self/status value in KiB, -1 when unknown.
static long status_kib(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') v = atol(line + n + 1);
    fclose(f);
    return v;
}

static smithycurl_client *blobs_client(smithycurl_model **m) {
    const char *url = getenv("SMITHYCURL_BLOBS_URL");
    smithycurl_loader *ld = NULL;
    smithycurl_client *c = NULL;
    *m = NULL;
    CHECK(url != NULL);
    if (!url) return NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, "testing/servers/blobserver/blobs.smithy"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_timeout_ms(o, 120000L * slow), SMITHYCURL_OK);
    CHECK_RC(smithycurl_client_new(*m, NULL, url, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    return c;
}

// 128 MiB up from a read callback and 128 MiB down to a write callback:
// the peak resident set (VmHWM, reset through /proc/self/clear_refs)
// grows by a few MiB at most. Under valgrind (SMITHYCURL_TEST_SLOW) the
// sizes shrink to 8 MiB and the memory is not measured.
static void test_streaming_memory(void) {
    smithycurl_model *m;
    smithycurl_client *c = blobs_client(&m);
    if (!c) return;
    smithycurl_result *r = NULL;
    const char *out = NULL;
    long long size = slow > 1 ? 8LL << 20 : 128LL << 20;
    struct pattern_src warm = {.len = 1 << 20};
    struct pattern_sink wsink = {0};
    CHECK_RC(smithycurl_call_stream(c, "PutBlob", "{\"key\":\"c-warm\"}", 16, read_pattern, &warm, warm.len, NULL,
                                    NULL, NULL, &r),
             SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_call_stream(c, "GetBlob", "{\"size\":1048576}", 16, NULL, NULL, 0, write_pattern, &wsink,
                                    NULL, &r),
             SMITHYCURL_OK);
    smithycurl_result_free(r);

    FILE *clear = fopen("/proc/self/clear_refs", "w");
    int measured = clear && fputs("5", clear) >= 0;
    if (clear) measured = fclose(clear) == 0 && measured;
    long rss0 = status_kib("VmRSS");
    double t0 = now_s();
    struct pattern_src src = {.len = size};
    CHECK_RC(smithycurl_call_stream(c, "PutBlob", "{\"key\":\"c-big\"}", 15, read_pattern, &src, size, NULL, NULL,
                                    NULL, &r),
             SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    char want[128];
    snprintf(want, sizeof want, "\"intact\":true,\"size\":%lld", size);
    CHECK_CONTAINS(out, want);
    smithycurl_result_free(r);
    double t1 = now_s();
    struct pattern_sink sink = {0};
    char in[64];
    snprintf(in, sizeof in, "{\"size\":%lld}", size);
    CHECK_RC(smithycurl_call_stream(c, "GetBlob", in, strlen(in), NULL, NULL, 0, write_pattern, &sink, NULL, &r),
             SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK(sink.len == size && !sink.bad);
    long peak = status_kib("VmHWM");
    printf("    %lld MiB up in %.2f s, down in %.2f s; RSS %ld MiB, peak +%.1f MiB\n", size >> 20, t1 - t0,
           now_s() - t1, rss0 >> 10, (peak - rss0) / 1024.0);
    if (slow == 1) {
        CHECK(measured && rss0 > 0 && peak > 0);
        CHECK(peak - rss0 < 24 * 1024); // holding a body would be +128 MiB
    }
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// Retries of a streamed body (PutBlob is @idempotent; failFirst makes the
// server answer 503 after reading the body): with a rewind callback the
// body is sent again; without one, or after the read callback failed half
// way, never.
static void test_streaming_retry(void) {
    smithycurl_model *m;
    smithycurl_client *c = blobs_client(&m);
    if (!c) return;
    smithycurl_result *r = NULL;
    const char *out = NULL, *msg = NULL;
    int attempts = 0, status = 0;

    struct pattern_src src = {.len = 300000};
    const char *in = "{\"key\":\"c-rw\",\"failFirst\":2}";
    CHECK_RC(smithycurl_call_stream_v2(c, "PutBlob", in, strlen(in), read_pattern, rewind_pattern, &src, src.len,
                                       NULL, NULL, NULL, &r),
             SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(out, "\"attempt\":3,\"intact\":true,\"size\":300000");
    CHECK(src.rewinds == 2);
    smithycurl_result_free(r);

    // No rewind: the 503 of the first send is the answer.
    struct pattern_src once = {.len = 300000};
    in = "{\"key\":\"c-once\",\"failFirst\":1}";
    CHECK_RC(smithycurl_call_stream(c, "PutBlob", in, strlen(in), read_pattern, &once, once.len, NULL, NULL, NULL,
                                    &r),
             SMITHYCURL_E_SERVICE);
    CHECK_RC(smithycurl_result_attempts(r, &attempts), SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_http_status(r, &status), SMITHYCURL_OK);
    CHECK(attempts == 1 && status == 503);
    smithycurl_result_free(r);

    // A read callback failing half way, with or without rewind: a clear
    // error, one send, no rewind.
    for (int with_rewind = 0; with_rewind < 2; with_rewind++) {
        struct pattern_src bad = {.len = 400000, .fail_at = 200000};
        in = with_rewind ? "{\"key\":\"c-bad-rw\"}" : "{\"key\":\"c-bad\"}";
        CHECK_RC(smithycurl_call_stream_v2(c, "PutBlob", in, strlen(in), read_pattern,
                                           with_rewind ? rewind_pattern : NULL, &bad, bad.len, NULL, NULL, NULL, &r),
                 SMITHYCURL_E_TRANSPORT);
        CHECK_RC(smithycurl_result_error_message(r, &msg), SMITHYCURL_OK);
        CHECK_CONTAINS(msg, "reading the request body: the read callback failed");
        CHECK_RC(smithycurl_result_attempts(r, &attempts), SMITHYCURL_OK);
        CHECK(attempts == 1);
        CHECK(bad.rewinds == 0 && bad.off >= 200000 && bad.off < 400000);
        smithycurl_result_free(r);
    }
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

struct test {
    const char *name;
    void (*fn)(void);
};

// Waiters added to the httpbin model with `apply`: TestIs succeeds when
// go-httpbin echoes the input's test (inputOutput) for id 1, fails on test
// "failed" (with the acceptor's message), and never matches otherwise;
// StatusServerFailure succeeds on the ServerFailure error (errorType) and
// fails on a success.
static const char waiters_src[] =
    "$version: \"2\"\n"
    "namespace smithycurl.examples.httpbin\n"
    "apply Anything @smithy.waiters#waitable(\n"
    "    TestIs: { minDelay: 1, acceptors: [\n"
    "        { state: \"failure\", message: \"join(' ', ['test is', json.test])\",\n"
    "          matcher: { output: { path: \"json.test\", comparator: \"stringEquals\", expected: \"failed\" } } }\n"
    "        { state: \"success\", matcher: { inputOutput: {\n"
    "            path: \"input.test == output.json.test && input.id == `1`\", comparator: \"booleanEquals\", expected: \"true\" } } }\n"
    "    ] }\n"
    ")\n"
    "apply Status @smithy.waiters#waitable(\n"
    "    StatusServerFailure: { acceptors: [\n"
    "        { state: \"success\", matcher: { errorType: \"ServerFailure\" } }\n"
    "        { state: \"failure\", matcher: { success: true } }\n"
    "    ] }\n"
    ")\n";

static smithycurl_result *wait_rc_at(const char *file, int line, smithycurl_client *c, const char *waiter,
                                     const char *in, long long max_wait_ms, smithycurl_cancel_token *tok, int want) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_wait(c, waiter, in, in ? strlen(in) : 0, max_wait_ms, tok, &r);
    if (rc != want) {
        failf(file, line, "wait %s(%s) = %d (%s), want %d (%s); message: %s", waiter, in ? in : "", rc,
              smithycurl_strerror(rc), want, smithycurl_strerror(want), message_of(r));
    }
    if (!r) failf(file, line, "wait %s: no result", waiter);
    return r;
}
#define wait_rc(c, w, in, ms, tok, want) wait_rc_at(__FILE__, __LINE__, c, w, in, ms, tok, want)

static void test_wait(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, model_dir), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "waiters.smithy", waiters_src, strlen(waiters_src)), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    if (!m) return;
    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_waiter_delays(o, -1, 0), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_waiter_delays(o, 50, 20), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_waiter_delays(o, 20, 50), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_retries(o, 0, 0), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, o);
    smithycurl_client *slow_c = new_client(m, NULL, NULL); // the model's delays: 1 s to 120 s
    smithycurl_options_free(o);

    // Success: the output of the call that matched.
    smithycurl_result *r = wait_rc(c, "TestIs", "{\"id\": 1, \"test\": \"ok\"}", 10000LL * slow, NULL, SMITHYCURL_OK);
    const char *out = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_result_output(r, &out, &n), SMITHYCURL_OK);
    CHECK_CONTAINS(out, "\"json\":{\"id\":1,\"test\":\"ok\"}");
    CHECK(n == strlen(out));
    smithycurl_result_free(r);
    // Names ignore case.
    smithycurl_result_free(wait_rc(c, "testis", "{\"id\": 1, \"test\": \"ok\"}", 10000LL * slow, NULL, SMITHYCURL_OK));

    // A failure acceptor: which one, and its message.
    r = wait_rc(c, "TestIs", "{\"id\": 1, \"test\": \"failed\"}", 10000LL * slow, NULL, SMITHYCURL_E_WAITER_FAILURE);
    smithycurl_error_kind k = SMITHYCURL_KIND_NONE;
    CHECK_RC(smithycurl_result_error_kind(r, &k), SMITHYCURL_OK);
    CHECK(k == SMITHYCURL_KIND_WAITER_FAILURE);
    CHECK(strcmp(smithycurl_error_kind_name(k), "waiter_failure") == 0);
    CHECK_CONTAINS(message_of(r), "waiter TestIs reached its failure state: acceptor 1 (output json.test stringEquals \"failed\") matched on attempt 1: test is failed");
    CHECK_RC(smithycurl_result_output(r, &out, &n), SMITHYCURL_E_NO_OUTPUT);
    smithycurl_result_free(r);

    // Never matched: a timeout at max_wait_ms, after several attempts.
    double t0 = now_s();
    r = wait_rc(c, "TestIs", "{\"id\": 2, \"test\": \"ok\"}", 300, NULL, SMITHYCURL_E_WAITER_TIMEOUT);
    double took = now_s() - t0;
    CHECK(took >= 0.3 && took < 2.0 * slow);
    CHECK_RC(smithycurl_result_error_kind(r, &k), SMITHYCURL_OK);
    CHECK(k == SMITHYCURL_KIND_WAITER_TIMEOUT);
    int attempts = 0;
    CHECK_RC(smithycurl_result_attempts(r, &attempts), SMITHYCURL_OK);
    CHECK(attempts >= 3);
    CHECK_CONTAINS(message_of(r), "waiter TestIs timed out after");
    smithycurl_result_free(r);

    // errorType: success on the modeled error; a success matched as failure.
    r = wait_rc(c, "StatusServerFailure", "{\"code\": 500}", 10000LL * slow, NULL, SMITHYCURL_OK);
    CHECK_RC(smithycurl_result_output(r, &out, &n), SMITHYCURL_OK);
    CHECK(strcmp(out, "{}") == 0);
    smithycurl_result_free(r);
    r = wait_rc(c, "StatusServerFailure", "{\"code\": 200}", 10000LL * slow, NULL, SMITHYCURL_E_WAITER_FAILURE);
    CHECK_CONTAINS(message_of(r), "acceptor 2 (success true)");
    smithycurl_result_free(r);
    // An error no acceptor expects stops the waiter with that error.
    r = wait_rc(c, "TestIs", "{\"test\": \"ok\"}", 10000LL * slow, NULL, SMITHYCURL_E_VALIDATION);
    smithycurl_result_free(r);

    // Unknown waiter, bad arguments.
    r = wait_rc(c, "Nope", "{}", 1000, NULL, SMITHYCURL_E_NOT_FOUND);
    CHECK_CONTAINS(message_of(r), "unknown waiter \"Nope\"; the waiters of HttpBin are: StatusServerFailure, TestIs");
    smithycurl_result_free(r);
    smithycurl_result_free(wait_rc(c, "TestIs", "{\"id\": ", 1000, NULL, SMITHYCURL_E_INVALID_JSON));
    smithycurl_result_free(wait_rc(c, "TestIs", "{\"id\": 1, \"test\": \"\xff\"}", 1000, NULL, SMITHYCURL_E_INVALID_UTF8));
    r = (smithycurl_result *)1;
    CHECK_RC(smithycurl_wait(c, "TestIs", "{}", 2, 0, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_RC(smithycurl_wait(c, NULL, "{}", 2, 1000, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_wait(c, "TestIs", NULL, 2, 1000, NULL, &r), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_wait(c, "TestIs", "{}", 2, 1000, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_wait(NULL, "TestIs", "{}", 2, 1000, NULL, &r), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(r == NULL);

    // Cancelled while sleeping between attempts (the model's 1 s minDelay).
    smithycurl_cancel_token *tok = NULL;
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
    struct canceller cn = {tok, 200 * slow};
    pthread_t th;
    pthread_create(&th, NULL, cancel_later, &cn);
    t0 = now_s();
    r = wait_rc(slow_c, "TestIs", "{\"id\": 2, \"test\": \"ok\"}", 60000, tok, SMITHYCURL_E_CANCELLED);
    CHECK(now_s() - t0 < 0.9 * slow + 0.5);
    smithycurl_result_free(r);
    pthread_join(th, NULL);
    smithycurl_cancel_token_free(tok);

    smithycurl_client_free(slow_c);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// test_paginator pages through the Todos service's ListTodos (limit 2).
static void test_paginator(void) {
    const char *url = getenv("SMITHYCURL_TODO_URL");
    if (!url) {
        if (getenv("CI")) failf(__FILE__, __LINE__, "SMITHYCURL_TODO_URL is needed in CI");
        else printf("    skipped: SMITHYCURL_TODO_URL not set\n");
        return;
    }
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, "examples/todo"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    CHECK_RC(smithycurl_client_new(m, "smithycurl.examples.todo#Todos", url, NULL, &c), SMITHYCURL_OK);
    smithycurl_model_free(m);
    for (int i = 0; i < 5; i++) {
        char in[64];
        snprintf(in, sizeof in, "{\"title\": \"pg-%d\"}", i);
        free(call_ok(c, "CreateTodo", in));
    }

    // Pages: at least 3 of at most 2 items; ours all seen, in order.
    smithycurl_paginator *pg = NULL;
    smithycurl_result *err = NULL;
    const char *json = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 2, 0, NULL, &pg), SMITHYCURL_OK);
    int pages = 0, rc, seen = 0;
    while ((rc = smithycurl_paginator_next(pg, &json, &n, &err)) == SMITHYCURL_OK && pages < 100) {
        pages++;
        CHECK(json != NULL && strlen(json) == n && err == NULL);
        CHECK_CONTAINS(json, "\"items\":[");
        for (const char *p = json; (p = strstr(p, "\"title\":\"pg-")); p++) seen++;
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    CHECK(json == NULL && n == 0 && err == NULL);
    CHECK(pages >= 3 && seen == 5);
    CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), SMITHYCURL_E_END);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), SMITHYCURL_E_INVALID_HANDLE);

    // Items, cut at max_items across pages; len may be NULL.
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", NULL, 0, 3, 2, SMITHYCURL_PAGINATE_ITEMS, NULL, &pg),
             SMITHYCURL_OK);
    int items = 0;
    while ((rc = smithycurl_paginator_next(pg, &json, NULL, &err)) == SMITHYCURL_OK && items < 100) {
        items++;
        CHECK(json[0] == '{');
        CHECK_CONTAINS(json, "\"title\":");
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    CHECK(items == 3);
    smithycurl_paginator_free(pg);

    // Freed before the end: the last page goes with it (valgrind checks).
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 1, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);

    // Failures come from the first next, with a result; then the pages end.
    struct {
        const char *op, *input;
        int code;
        const char *message;
    } bad[] = {
        {"GetTodo", "{\"id\": \"x\"}", SMITHYCURL_E_USAGE, "operation GetTodo is not paginated"},
        {"ListTodoz", "{}", SMITHYCURL_E_NOT_FOUND, "ListTodos"},
        {"ListTodos", "{\"limit\": ", SMITHYCURL_E_INVALID_JSON, "not valid JSON"},
        {"ListTodos", "{\"limit\": \"2\"}", SMITHYCURL_E_USAGE, "limit"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_RC(smithycurl_paginator_new(c, bad[i].op, bad[i].input, strlen(bad[i].input), 0, 0, 0, NULL, &pg),
                 SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), bad[i].code);
        const char *msg = NULL;
        CHECK(json == NULL && err != NULL);
        if (err) {
            CHECK_RC(smithycurl_result_error_message(err, &msg), SMITHYCURL_OK);
            CHECK_CONTAINS(msg, bad[i].message);
        }
        smithycurl_result_free(err);
        CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), SMITHYCURL_E_END);
        smithycurl_paginator_free(pg);
    }
    // A paginator freed without a next frees its pending error.
    CHECK_RC(smithycurl_paginator_new(c, "GetTodo", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);

    // Bad arguments and handles.
    pg = NULL;
    CHECK_RC(smithycurl_paginator_new(c, NULL, "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", NULL, 2, 0, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, -1, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 1LL << 31, 0, NULL, &pg),
             SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 0, 8, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 0, 0, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(NULL, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(pg == NULL);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_next(pg, NULL, &n, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_next(pg, &json, &n, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_free((smithycurl_paginator *)c), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_free(NULL), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_client_free(c);
}

static const struct test tests[] = {
    {"version", test_version},
    {"load", test_load},
    {"load_errors", test_load_errors},
    {"snapshot", test_snapshot},
    {"operations", test_operations},
    {"error_kinds", test_error_kinds},
    {"cancel", test_cancel},
    {"free_in_flight", test_free_in_flight},
    {"options", test_options},
    {"credentials", test_credentials},
    {"host_prefix", test_host_prefix},
    {"endpoint_rules", test_endpoint_rules},
    {"bad_handles", test_bad_handles},
    {"threads", test_threads},
    {"fork", test_fork},
    {"pizza", test_pizza},
    {"rpcv2", test_rpcv2},
    {"exact", test_exact},
    {"wait", test_wait},
    {"event_stream", test_event_stream},
    {"event_stream_rpc", test_event_stream_rpc},
    {"streaming", test_streaming},
    {"streaming_retry", test_streaming_retry},
    {"streaming_memory", test_streaming_memory},
    {"paginator", test_paginator},
    {"async_paginator", test_async_paginator},
    {"async_callback", test_async_callback},
    {"async_queue", test_async_queue},
    {"async_cancel_many", test_async_cancel_many},
    {"async_client_free", test_async_client_free},
    {"async_queue_free", test_async_queue_free},
    {"async_reentrant", test_async_reentrant},
    {"async_slow_timeout", test_async_slow_timeout},
    {"async_fork", test_async_fork},
    {"async_bad_args", test_async_bad_args},
};

int main(int argc, char **argv) {
    httpbin_url = getenv("SMITHYCURL_HTTPBIN_URL");
    model_dir = getenv("SMITHYCURL_MODEL_DIR");
    if (!model_dir) model_dir = "examples/httpbin";
    if (getenv("SMITHYCURL_TEST_SLOW")) slow = atoi(getenv("SMITHYCURL_TEST_SLOW"));
    if (slow < 1) slow = 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    int passed = 0, failed = 0;
    if (!httpbin_url) {
        printf("SMITHYCURL_HTTPBIN_URL is not set (run bindings/c/run.sh)\n");
        printf("0 passed, 1 failed\n");
        return 1;
    }
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        failures = 0;
        double t0 = now_s();
        tests[i].fn();
        if (failures) {
            printf("FAIL %s (%d failed checks, %.2f s)\n", tests[i].name, failures, now_s() - t0);
            failed++;
        } else {
            printf("ok   %s (%.2f s)\n", tests[i].name, now_s() - t0);
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
