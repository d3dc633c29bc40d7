// What the AWS examples (dynamodb.c, s3.c, sns.c, sqs.c) share: loading a
// model, a client signed with the environment's credentials, and printing
// what a call gave. Static inline functions only, so that each example
// still builds from its one .c file:
//
//   cc sns.c $(pkg-config --cflags --libs smithycurl) -o sns
#ifndef SMITHYCURL_EXAMPLES_COMMON_H
#define SMITHYCURL_EXAMPLES_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smithycurl.h>

// load_model loads the model (a file or a directory) at path; NULL, after
// printing the loader's message, when it cannot.
static inline smithycurl_model *load_model(const char *path) {
    smithycurl_loader *loader = NULL;
    smithycurl_model *model = NULL;
    smithycurl_loader_new(&loader);
    if (smithycurl_loader_add_path(loader, path) != SMITHYCURL_OK ||
        smithycurl_loader_load(loader, &model) != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_loader_errmsg(loader, &msg);
        fprintf(stderr, "%s\n", msg);
        smithycurl_free(msg);
    }
    smithycurl_loader_free(loader);
    return model;
}

// aws_client makes *client, a client of service (its shape id) in the model
// at model_path that calls endpoint, its requests signed (SigV4, region)
// with $AWS_ACCESS_KEY_ID, $AWS_SECRET_ACCESS_KEY and $AWS_SESSION_TOKEN.
// It returns 0, or after saying why, an exit status: 2 without credentials,
// 1 when the model or the client cannot be made.
static inline int aws_client(const char *model_path, const char *service, const char *endpoint, const char *region,
                             smithycurl_client **client) {
    const char *key = getenv("AWS_ACCESS_KEY_ID"), *secret = getenv("AWS_SECRET_ACCESS_KEY");
    if (key == NULL || secret == NULL) {
        fprintf(stderr, "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY\n");
        return 2;
    }
    smithycurl_model *model = load_model(model_path);
    if (model == NULL) return 1;
    smithycurl_options *opts = NULL;
    smithycurl_options_new(&opts);
    smithycurl_options_set_aws_sigv4(opts, key, secret, getenv("AWS_SESSION_TOKEN"), region);
    int rc = smithycurl_client_new(model, service, endpoint, opts, client);
    smithycurl_options_free(opts);
    if (rc != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_model_errmsg(model, &msg);
        fprintf(stderr, "client: %s: %s\n", smithycurl_strerror(rc), msg ? msg : "");
        smithycurl_free(msg);
    }
    smithycurl_model_free(model); // the client keeps what it needs
    return rc == SMITHYCURL_OK ? 0 : 1;
}

// print_result prints what the call named label gave (its code rc and
// result r): the output, or the error's kind, HTTP status, shape, code and
// members. It returns rc.
static inline int print_result(const char *label, int rc, smithycurl_result *r) {
    const char *json = "";
    size_t n = 0;
    if (rc == SMITHYCURL_OK) {
        smithycurl_result_output(r, &json, &n);
        printf("%s: %.*s\n", label, (int)n, json);
    } else if (r != NULL) {
        smithycurl_error_kind kind = SMITHYCURL_KIND_NONE;
        int status = 0;
        const char *shape = "", *code = "";
        smithycurl_result_error_kind(r, &kind);
        smithycurl_result_http_status(r, &status);
        smithycurl_result_error_shape(r, &shape);
        smithycurl_result_error_code(r, &code);
        smithycurl_result_error_members(r, &json, &n);
        printf("%s: %s error, HTTP %d, %s (code %s)%s%.*s\n", label, smithycurl_error_kind_name(kind), status, shape,
               code, n ? ": " : "", (int)n, json);
    } else {
        printf("%s: %s\n", label, smithycurl_strerror(rc));
    }
    return rc;
}

// call calls op with input (JSON) and prints what it gave; it returns the
// call's code.
static inline int call(smithycurl_client *c, const char *op, const char *input) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call(c, op, input, strlen(input), NULL, &r);
    print_result(op, rc, r);
    smithycurl_result_free(r);
    return rc;
}

#endif
