// Interceptors, a custom auth scheme (HMAC, checked by
// testing/servers/signedserver), digest auth and trace spans.

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "ctest.h"

// What the interceptor saw.
struct seen {
    int points[SMITHYCURL_HOOK_READ_AFTER_EXECUTION + 1];
    char status[8];
    int bad_field; // smithycurl_hook_get of a field the hook does not have yet
};

static int count(void *user, smithycurl_hook_context *ctx) {
    struct seen *s = user;
    s->points[smithycurl_hook_point(ctx)]++;
    return 0;
}

static int before_serialization(void *user, smithycurl_hook_context *ctx) {
    struct seen *s = user;
    const char *v = NULL;
    // No request yet.
    if (smithycurl_hook_get(ctx, SMITHYCURL_FIELD_METHOD, NULL, &v, NULL) == SMITHYCURL_E_INVALID_ARGUMENT) s->bad_field++;
    count(user, ctx);
    CHECK_RC(smithycurl_hook_get(ctx, SMITHYCURL_FIELD_OPERATION, NULL, &v, NULL), SMITHYCURL_OK);
    if (v && strcmp(v, "Anything") == 0)
        CHECK_RC(smithycurl_hook_set(ctx, SMITHYCURL_FIELD_INPUT, NULL, "{\"id\": 7, \"test\": \"from C\"}", (size_t)-1),
                 SMITHYCURL_OK);
    return 0;
}

static int before_transmit(void *user, smithycurl_hook_context *ctx) {
    count(user, ctx);
    CHECK_RC(smithycurl_hook_set(ctx, SMITHYCURL_FIELD_REQUEST_HEADER, "X-Hooked", "yes", 3), SMITHYCURL_OK);
    // A read hook may not change the request; a header name must be one.
    CHECK_RC(smithycurl_hook_set(ctx, SMITHYCURL_FIELD_REQUEST_HEADER, "Bad Name", "x", 1), SMITHYCURL_E_INVALID_ARGUMENT);
    return 0;
}

static int after_transmit(void *user, smithycurl_hook_context *ctx) {
    struct seen *s = user;
    count(user, ctx);
    const char *v = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_hook_get(ctx, SMITHYCURL_FIELD_STATUS, NULL, &v, &n), SMITHYCURL_OK);
    if (v && n < sizeof s->status) memcpy(s->status, v, n + 1);
    CHECK_RC(smithycurl_hook_set(ctx, SMITHYCURL_FIELD_STATUS, NULL, "500", 3), SMITHYCURL_E_INVALID_ARGUMENT);
    return 0;
}

static int refuse(void *user, smithycurl_hook_context *ctx) {
    (void)user;
    CHECK_RC(smithycurl_hook_set(ctx, SMITHYCURL_FIELD_ERROR, NULL, "refused by the C interceptor", (size_t)-1),
             SMITHYCURL_OK);
    return 1;
}

void test_interceptors(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_options *o = NULL;
    struct seen s = {0};
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    smithycurl_interceptor in = SMITHYCURL_INTERCEPTOR_INIT;
    in.user_data = &s;
    in.read_before_execution = count;
    in.modify_before_serialization = before_serialization;
    in.read_before_attempt = count;
    in.modify_before_transmit = before_transmit;
    in.read_after_transmit = after_transmit;
    in.read_after_attempt = count;
    in.read_after_execution = count;
    CHECK_RC(smithycurl_options_add_interceptor(o, &in), SMITHYCURL_OK);
    smithycurl_interceptor bad = in;
    bad.size = sizeof bad + 8;
    CHECK_RC(smithycurl_options_add_interceptor(o, &bad), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_add_interceptor(o, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_client *c = new_client(m, NULL, o);
    smithycurl_options_free(o);

    char *out = squash(call_ok(c, "Anything", "{\"id\": 1}"));
    CHECK_CONTAINS(out, "\"test\":\"from C\"");
    CHECK_CONTAINS(out, "\"X-Hooked\":[\"yes\"]");
    free(out);
    CHECK(strcmp(s.status, "200") == 0);
    CHECK(s.bad_field == 1);
    for (int h = 0; h <= SMITHYCURL_HOOK_READ_AFTER_EXECUTION; h++) {
        int want = h == SMITHYCURL_HOOK_READ_BEFORE_EXECUTION || h == SMITHYCURL_HOOK_MODIFY_BEFORE_SERIALIZATION ||
                   h == SMITHYCURL_HOOK_READ_BEFORE_ATTEMPT || h == SMITHYCURL_HOOK_MODIFY_BEFORE_TRANSMIT ||
                   h == SMITHYCURL_HOOK_READ_AFTER_TRANSMIT || h == SMITHYCURL_HOOK_READ_AFTER_ATTEMPT ||
                   h == SMITHYCURL_HOOK_READ_AFTER_EXECUTION;
        if (s.points[h] != want) failf(__FILE__, __LINE__, "hook %d ran %d times, want %d", h, s.points[h], want);
    }
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);

    // A hook that fails: the call fails with its message, nothing is sent.
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    smithycurl_interceptor r = SMITHYCURL_INTERCEPTOR_INIT;
    r.read_before_transmit = refuse;
    CHECK_RC(smithycurl_options_add_interceptor(o, &r), SMITHYCURL_OK);
    c = new_client(m, NULL, o);
    smithycurl_options_free(o);
    smithycurl_result *res = call_err(c, "GetIp", NULL, NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(res), "refused by the C interceptor");
    smithycurl_result_free(res);
    CHECK_RC(smithycurl_client_free(c), SMITHYCURL_OK);
    smithycurl_model_free(m);
}

// hmac_sign signs as signed.smithy's com.example#hmacAuth says.
static int hmac_sign(void *user, smithycurl_hook_context *ctx) {
    const char *secret = user;
    const char *method = NULL, *url = NULL, *date = NULL, *body = NULL, *trait = NULL;
    size_t body_len = 0;
    CHECK(smithycurl_hook_point(ctx) == SMITHYCURL_HOOK_SIGN);
    CHECK_RC(smithycurl_hook_get(ctx, SMITHYCURL_FIELD_METHOD, NULL, &method, NULL), SMITHYCURL_OK);
    CHECK_RC(smithycurl_hook_get(ctx, SMITHYCURL_FIELD_URL, NULL, &url, NULL), SMITHYCURL_OK);
    CHECK_RC(smithycurl_hook_get(ctx, SMITHYCURL_FIELD_SIGNING_TIME, NULL, &date, NULL), SMITHYCURL_OK);
    CHECK_RC(smithycurl_hook_get(ctx, SMITHYCURL_FIELD_REQUEST_BODY, NULL, &body, &body_len), SMITHYCURL_OK);
    CHECK_RC(smithycurl_hook_get(ctx, SMITHYCURL_FIELD_TRAIT, NULL, &trait, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(trait, "HMAC-SHA256");
    if (!method || !url || !date || !body) return 1;
    const char *path = strchr(strstr(url, "://") + 3, '/');
    unsigned char sum[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)body, body_len, sum);
    char text[2048], hex[2 * EVP_MAX_MD_SIZE + 1];
    int n = snprintf(text, sizeof text, "%s\n%s\n%s\n", method, path, date);
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++) n += snprintf(text + n, sizeof text - (size_t)n, "%02x", sum[i]);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int mac_len = 0;
    HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)text, (size_t)n, mac, &mac_len);
    for (unsigned int i = 0; i < mac_len; i++) sprintf(hex + 2 * i, "%02x", mac[i]);
    char auth[256];
    snprintf(auth, sizeof auth, "HMAC-SHA256 keyId=test-key, signature=%s", hex);
    CHECK_RC(smithycurl_hook_set(ctx, SMITHYCURL_FIELD_REQUEST_HEADER, "X-Example-Date", date, (size_t)-1), SMITHYCURL_OK);
    CHECK_RC(smithycurl_hook_set(ctx, SMITHYCURL_FIELD_REQUEST_HEADER, "Authorization", auth, (size_t)-1), SMITHYCURL_OK);
    return 0;
}

static smithycurl_client *signed_client(smithycurl_model *m, smithycurl_options *o) {
    smithycurl_client *c = NULL;
    const char *url = need_env("SMITHYCURL_SIGNED_URL");
    CHECK_RC(smithycurl_client_new(m, "com.example#Signed", url ? url : "http://127.0.0.1:1", o, &c), SMITHYCURL_OK);
    return c;
}

void test_custom_auth(void) {
    smithycurl_model *m = load_model("testing/servers/signedserver/signed.smithy", NULL, 0);
    if (!m) return;

    smithycurl_options *o = NULL;
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_add_auth_scheme(o, "hmacAuth", hmac_sign, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_add_auth_scheme(o, "com.example#hmacAuth", hmac_sign, "test-secret"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_digest_auth(o, "ann", "pw"), SMITHYCURL_OK);
    smithycurl_client *c = signed_client(m, o);
    smithycurl_options_free(o);
    char *out = squash(call_ok(c, "Echo", "{\"message\": \"hi from C\"}"));
    CHECK_CONTAINS(out, "\"signedBy\":\"test-key\"");
    CHECK_CONTAINS(out, "\"message\":\"hi from C\"");
    free(out);
    out = squash(call_ok(c, "DigestAuth", "{\"qop\": \"auth\", \"user\": \"ann\", \"passwd\": \"pw\"}"));
    CHECK_CONTAINS(out, "\"authenticated\":true");
    free(out);
    smithycurl_client_free(c);

    // The wrong secret: the service refuses the signature.
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_add_auth_scheme(o, "com.example#hmacAuth", hmac_sign, "wrong"), SMITHYCURL_OK);
    c = signed_client(m, o);
    smithycurl_options_free(o);
    smithycurl_result *r = call_err(c, "Echo", "{}", NULL, SMITHYCURL_E_SERVICE, SMITHYCURL_KIND_SERVICE);
    CHECK_CONTAINS(message_of(r), "signature mismatch");
    smithycurl_result_free(r);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

struct spans {
    int starts, ends;
    int call_end_ok; // the call's span_end with its attributes
};

static void on_trace(void *user, const char *ev, size_t len) {
    (void)len;
    struct spans *s = user;
    if (strstr(ev, "\"phase\":\"span_start\"")) s->starts++;
    if (strstr(ev, "\"phase\":\"span_end\"")) {
        s->ends++;
        if (strstr(ev, "\"name\":\"HttpBin.GetIp\"") && strstr(ev, "\"rpc.method\":\"GetIp\"") &&
            strstr(ev, "\"rpc.system\":\"smithy\"") && strstr(ev, "\"http.response.status_code\":200"))
            s->call_end_ok++;
    }
}

void test_trace_spans(void) {
    smithycurl_model *m = load_httpbin();
    smithycurl_options *o = NULL;
    struct spans s = {0};
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_trace(o, on_trace, &s), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_trace_spans(o, 1), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, o);
    smithycurl_options_free(o);
    free(call_ok(c, "GetIp", NULL));
    CHECK(s.starts == 2); // the call and its attempt
    CHECK(s.ends == 2);
    CHECK(s.call_end_ok == 1);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
