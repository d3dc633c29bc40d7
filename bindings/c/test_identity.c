// Identity callbacks (AWS credentials, bearer tokens, API keys) and the
// AWS profile option, on httpbin's /headers, which echoes what was sent.

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "ctest.h"

static const char identity_model[] =
    "$version: \"2\"\n"
    "namespace test.identity\n"
    "@aws.protocols#restJson1\n"
    "@aws.auth#sigv4(name: \"echo\")\n"
    "@httpBearerAuth\n"
    "@httpApiKeyAuth(name: \"X-Api-Key\", in: \"header\")\n"
    "@auth([aws.auth#sigv4])\n"
    "service Echo { operations: [Signed, WithToken, WithKey] }\n"
    "@readonly @http(method: \"GET\", uri: \"/headers\")\n"
    "operation Signed { output := { headers: Document } }\n"
    "@auth([httpBearerAuth]) @readonly @http(method: \"GET\", uri: \"/headers\")\n"
    "operation WithToken { output := { headers: Document } }\n"
    "@auth([httpApiKeyAuth]) @readonly @http(method: \"GET\", uri: \"/headers\")\n"
    "operation WithKey { output := { headers: Document } }\n";

// What a callback gives, and how often it was called.
struct lease {
    int calls;
    int fail;          // non-zero: fail with a message
    long long life;    // seconds until the identity expires; 0: never
    char key_id[64];   // rewritten on each call: "AKIDCB<calls>"
    char secret[64];
};

static int aws_creds(void *user, smithycurl_aws_credentials *c, char *error, size_t error_size) {
    struct lease *l = user;
    CHECK(c->access_key_id == NULL && c->expiration == 0); // zeroed by the library
    CHECK(error_size >= 256);
    l->calls++;
    if (l->fail) {
        snprintf(error, error_size, "vault sealed (attempt %d)", l->calls);
        return 1;
    }
    snprintf(l->key_id, sizeof l->key_id, "AKIDCB%d", l->calls);
    snprintf(l->secret, sizeof l->secret, "SECRET-CB-%d", l->calls);
    c->access_key_id = l->key_id;
    c->secret_access_key = l->secret;
    c->session_token = NULL;
    c->expiration = l->life ? (long long)time(NULL) + l->life : 0;
    return 0;
}

static int token(void *user, smithycurl_token *t, char *error, size_t error_size) {
    struct lease *l = user;
    (void)error, (void)error_size;
    l->calls++;
    snprintf(l->key_id, sizeof l->key_id, "tok-%d", l->calls);
    t->value = l->key_id;
    t->expiration = l->life ? (long long)time(NULL) + l->life : 0;
    return l->fail; // non-zero without a message
}

// A callback that takes a while, and a call in a thread.
struct slow {
    int entered, returned;
};

static int slow_creds(void *user, smithycurl_aws_credentials *c, char *error, size_t error_size) {
    struct slow *s = user;
    (void)error, (void)error_size;
    __atomic_store_n(&s->entered, 1, __ATOMIC_SEQ_CST);
    usleep(300000 * slow);
    c->access_key_id = "AKIDSLOW";
    c->secret_access_key = "SECRET-SLOW";
    __atomic_store_n(&s->returned, 1, __ATOMIC_SEQ_CST);
    return 0;
}

static void *call_signed(void *client) {
    smithycurl_result *r = NULL;
    smithycurl_call(client, "Signed", NULL, 0, NULL, &r);
    smithycurl_result_free(r);
    return NULL;
}

static smithycurl_model *load_identity(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "identity.smithy", identity_model, sizeof identity_model - 1),
             SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    return m;
}

static smithycurl_client *identity_client(smithycurl_model *m, smithycurl_options *o) {
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, o, &c), SMITHYCURL_OK);
    return c;
}

void test_identity(void) {
    smithycurl_model *m = load_identity();
    smithycurl_options *o = NULL;
    char *out;

    // An identity without expiry is asked for once, whatever the clients
    // and calls: the clients of one options handle share its cache.
    struct lease forever = {0};
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_region(o, "us-east-1"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_aws_credentials_fn(o, aws_creds, &forever), SMITHYCURL_OK);
    smithycurl_client *c1 = identity_client(m, o), *c2 = identity_client(m, o);
    for (int i = 0; i < 3; i++) {
        out = call_ok(i % 2 ? c1 : c2, "Signed", NULL);
        CHECK_CONTAINS(out, "Credential=AKIDCB1/");
        CHECK_CONTAINS(out, "/us-east-1/echo/aws4_request");
        free(out);
    }
    CHECK(forever.calls == 1);
    smithycurl_client_free(c1);
    smithycurl_client_free(c2);

    // Credentials that expire within the refresh windows are asked for
    // again once three quarters of their life is over.
    struct lease brief = {.life = 3};
    CHECK_RC(smithycurl_options_set_aws_credentials_fn(o, aws_creds, &brief), SMITHYCURL_OK);
    c1 = identity_client(m, o);
    out = call_ok(c1, "Signed", NULL);
    CHECK_CONTAINS(out, "Credential=AKIDCB1/");
    free(out);
    sleep(3);
    out = call_ok(c1, "Signed", NULL);
    CHECK_CONTAINS(out, "Credential=AKIDCB2/");
    free(out);
    CHECK(brief.calls == 2);
    smithycurl_client_free(c1);

    // A callback's failure fails the call with its message, naming the
    // callback; nothing of the identity is shown.
    struct lease sealed = {.fail = 1};
    CHECK_RC(smithycurl_options_set_aws_credentials_fn(o, aws_creds, &sealed), SMITHYCURL_OK);
    c1 = identity_client(m, o);
    smithycurl_result *r = call_err(c1, "Signed", NULL, NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "vault sealed (attempt 1)");
    CHECK_CONTAINS(message_of(r), "smithycurl_options_set_aws_credentials_fn");
    smithycurl_result_free(r);
    smithycurl_client_free(c1);

    // Bearer token and API key callbacks; a token callback that fails
    // without a message is named by its return value.
    struct lease tok = {.life = 3600}, key = {0};
    CHECK_RC(smithycurl_options_set_aws_credentials_fn(o, NULL, NULL), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_token_fn(o, token, &tok), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_api_key_fn(o, token, &key), SMITHYCURL_OK);
    c1 = identity_client(m, o);
    out = call_ok(c1, "WithToken", NULL);
    CHECK_CONTAINS(out, "\"Authorization\":[\"Bearer tok-1\"]");
    free(out);
    out = call_ok(c1, "WithKey", NULL);
    CHECK_CONTAINS(out, "\"X-Api-Key\":[\"tok-1\"]");
    free(out);
    smithycurl_client_free(c1);
    struct lease bad = {.fail = 7};
    CHECK_RC(smithycurl_options_set_token_fn(o, token, &bad), SMITHYCURL_OK);
    c1 = identity_client(m, o);
    r = call_err(c1, "WithToken", NULL, NULL, SMITHYCURL_E_USAGE, SMITHYCURL_KIND_USAGE);
    CHECK_CONTAINS(message_of(r), "returned 7");
    CHECK(!strstr(message_of(r), "tok-1"));
    smithycurl_result_free(r);
    smithycurl_client_free(c1);
    CHECK_RC(smithycurl_options_set_token_fn(NULL, token, &bad), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_options_free(o), SMITHYCURL_OK);

    // The free of the last client made from the options waits for a call
    // of the callback under way: user_data may go after it.
    struct slow sl = {0};
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_region(o, "us-east-1"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_aws_credentials_fn(o, slow_creds, &sl), SMITHYCURL_OK);
    c1 = identity_client(m, o);
    CHECK_RC(smithycurl_options_free(o), SMITHYCURL_OK);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, call_signed, c1) == 0);
    while (!__atomic_load_n(&sl.entered, __ATOMIC_SEQ_CST)) usleep(1000);
    CHECK_RC(smithycurl_client_free(c1), SMITHYCURL_OK);
    CHECK(__atomic_load_n(&sl.returned, __ATOMIC_SEQ_CST) == 1);
    pthread_join(th, NULL);

    // A profile: its region (run.sh points AWS_CONFIG_FILE at one with
    // [profile ctest]); one that does not exist fails client_new naming it.
    CHECK_RC(smithycurl_options_new(&o), SMITHYCURL_OK);
    struct lease p = {0};
    CHECK_RC(smithycurl_options_set_aws_credentials_fn(o, aws_creds, &p), SMITHYCURL_OK);
    CHECK_RC(smithycurl_options_set_profile(o, "bad\nname"), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_options_set_profile(o, "smithycurl-no-such-profile"), SMITHYCURL_OK);
    smithycurl_client *none = NULL;
    CHECK_RC(smithycurl_client_new(m, NULL, httpbin_url, o, &none), SMITHYCURL_E_USAGE);
    char *msg = NULL;
    CHECK_RC(smithycurl_model_errmsg(m, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "smithycurl-no-such-profile");
    smithycurl_free(msg);
    const char *cfg = getenv("AWS_CONFIG_FILE");
    if (cfg && strstr(cfg, "ctest-aws") && !getenv("AWS_REGION") && !getenv("AWS_DEFAULT_REGION")) {
        CHECK_RC(smithycurl_options_set_profile(o, "ctest"), SMITHYCURL_OK);
        c1 = identity_client(m, o);
        out = call_ok(c1, "Signed", NULL);
        CHECK_CONTAINS(out, "/eu-west-3/echo/aws4_request");
        free(out);
        smithycurl_client_free(c1);
    }
    CHECK_RC(smithycurl_options_free(o), SMITHYCURL_OK);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}
