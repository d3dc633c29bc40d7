// The seed's example in C: call httpbin's GET /ip, then POST /anything with a
// query parameter and a required member, through libsmithycurl.
//
//   cc httpbin.c $(pkg-config --cflags --libs smithycurl) -o httpbin
//   ./httpbin [endpoint [model-path]]
//
// endpoint: argv[1], else $HTTPBIN_URL, else http://127.0.0.1:8080 (start a
// local httpbin with build/testserver). model-path: argv[2], else
// examples/httpbin (run from the repository root).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smithycurl.h>

// call prints an operation's output or its error; returns 0 on success.
static int call(smithycurl_client *c, const char *op, const char *input) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call(c, op, input, strlen(input), NULL, &r);
    if (rc == SMITHYCURL_OK) {
        const char *out;
        size_t n;
        smithycurl_result_output(r, &out, &n);
        printf("%s: %.*s\n", op, (int)n, out);
    } else if (r != NULL) {
        smithycurl_error_kind kind;
        const char *msg, *shape;
        int status;
        smithycurl_result_error_kind(r, &kind);
        smithycurl_result_error_message(r, &msg);
        smithycurl_result_error_shape(r, &shape);
        smithycurl_result_http_status(r, &status);
        fprintf(stderr, "%s: %s error (HTTP %d%s%s): %s\n", op, smithycurl_error_kind_name(kind), status,
                *shape ? ", " : "", shape, msg);
    } else {
        fprintf(stderr, "%s: %s\n", op, smithycurl_strerror(rc));
    }
    smithycurl_result_free(r); // harmless on NULL
    return rc == SMITHYCURL_OK ? 0 : 1;
}

int main(int argc, char **argv) {
    const char *endpoint = argc > 1 ? argv[1] : getenv("HTTPBIN_URL");
    const char *model_path = argc > 2 ? argv[2] : "examples/httpbin";
    if (endpoint == NULL) endpoint = "http://127.0.0.1:8080";
    if (smithycurl_version_number() < SMITHYCURL_VERSION_NUMBER) {
        fprintf(stderr, "libsmithycurl %s is older than this program's header %s\n", smithycurl_version(),
                SMITHYCURL_VERSION);
        return 1;
    }

    // Load the model; errors come back as file:line:column lines.
    smithycurl_loader *loader = NULL;
    smithycurl_model *model = NULL;
    smithycurl_loader_new(&loader);
    if (smithycurl_loader_add_path(loader, model_path) != SMITHYCURL_OK ||
        smithycurl_loader_load(loader, &model) != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_loader_errmsg(loader, &msg);
        fprintf(stderr, "%s\n", msg);
        smithycurl_free(msg);
        smithycurl_loader_free(loader);
        return 1;
    }
    smithycurl_loader_free(loader);

    // A client for the model's service, with a 10 s bound on each call.
    smithycurl_options *opts = NULL;
    smithycurl_client *client = NULL;
    smithycurl_options_new(&opts);
    smithycurl_options_set_timeout_ms(opts, 10000);
    int rc = smithycurl_client_new(model, "smithycurl.examples.httpbin#HttpBin", endpoint, opts, &client);
    smithycurl_options_free(opts);
    if (rc != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_model_errmsg(model, &msg);
        fprintf(stderr, "client: %s: %s\n", smithycurl_strerror(rc), msg);
        smithycurl_free(msg);
        smithycurl_model_free(model);
        return 1;
    }

    int failed = call(client, "GetIp", "{}");
    failed |= call(client, "Anything", "{\"id\": 25, \"test\": \"yo\", \"queryParam\": \"hello\"}");

    smithycurl_client_free(client);
    smithycurl_model_free(model);
    return failed;
}
