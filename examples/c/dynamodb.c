// DynamoDB from C through libsmithycurl: create a table, wait until it
// exists (the model's TableExists waiter), put and get an item, then a
// conditional put that fails with its modeled error, and 100 puts in flight
// at once on a completion queue (no thread per call). Runs against any
// DynamoDB endpoint; the tests use dynalite (scripts/emulators.sh).
//
//   cc dynamodb.c $(pkg-config --cflags --libs smithycurl) -o dynamodb
//   AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... ./dynamodb ENDPOINT DYNAMODB-MODEL.json
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smithycurl.h>

#define SERVICE "com.amazonaws.dynamodb#DynamoDB_20120810"

// call prints the output, or the error's kind, shape and members; it
// returns the call's code.
static int call(smithycurl_client *c, const char *op, const char *input) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call(c, op, input, strlen(input), NULL, &r);
    const char *json = "", *shape = "";
    size_t n = 0;
    if (rc == SMITHYCURL_OK) {
        smithycurl_result_output(r, &json, &n);
        printf("%s: %.*s\n", op, (int)n, json);
    } else if (r != NULL) {
        smithycurl_error_kind kind;
        int status = 0;
        smithycurl_result_error_kind(r, &kind);
        smithycurl_result_http_status(r, &status);
        smithycurl_result_error_shape(r, &shape);
        smithycurl_result_error_members(r, &json, &n);
        printf("%s: %s error, HTTP %d, %s: %.*s\n", op, smithycurl_error_kind_name(kind), status, shape, (int)n, json);
    } else {
        printf("%s: %s\n", op, smithycurl_strerror(rc));
    }
    smithycurl_result_free(r);
    return rc;
}

// fan_out puts 100 items at once: each call returns at once, and its
// completion goes to a queue whose file descriptor poll() watches (an event
// loop - epoll, libuv - would watch it the same way). Returns the number of
// calls that failed.
static int fan_out(smithycurl_client *c) {
    enum { N = 100 };
    smithycurl_queue *q = NULL;
    int fd = -1, pending = 0, failed = 0;
    if (smithycurl_queue_new(&q) != SMITHYCURL_OK || smithycurl_queue_fd(q, &fd) != SMITHYCURL_OK) return N;
    for (int i = 0; i < N; i++) {
        char in[128];
        int n = snprintf(in, sizeof in, "{\"TableName\": \"c-example\", \"Item\": {\"id\": {\"S\": \"fan-%d\"}}}", i);
        if (smithycurl_call_queued(c, "PutItem", in, (size_t)n, NULL, q, (void *)(intptr_t)i) == SMITHYCURL_OK)
            pending++;
        else
            failed++;
    }
    while (pending > 0) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 60000) <= 0) { // 60 s without a completion: give up
            failed += pending;
            break;
        }
        void *tag;
        smithycurl_code rc;
        smithycurl_result *r;
        while (smithycurl_queue_next(q, 0, &tag, &rc, &r) == SMITHYCURL_OK) {
            if (rc != SMITHYCURL_OK) failed++;
            smithycurl_result_free(r);
            pending--;
        }
    }
    printf("%d PutItems in flight at once: %d failed\n", N, failed);
    smithycurl_queue_free(q); // frees the results of calls still pending, if any
    return failed;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ENDPOINT DYNAMODB-MODEL.json\n", argv[0]);
        return 2;
    }
    const char *key = getenv("AWS_ACCESS_KEY_ID"), *secret = getenv("AWS_SECRET_ACCESS_KEY");
    if (key == NULL || secret == NULL) {
        fprintf(stderr, "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY\n");
        return 2;
    }
    smithycurl_loader *loader = NULL;
    smithycurl_model *model = NULL;
    smithycurl_loader_new(&loader);
    if (smithycurl_loader_add_path(loader, argv[2]) != SMITHYCURL_OK ||
        smithycurl_loader_load(loader, &model) != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_loader_errmsg(loader, &msg);
        fprintf(stderr, "%s\n", msg);
        smithycurl_free(msg);
        smithycurl_loader_free(loader);
        return 1;
    }
    smithycurl_loader_free(loader);

    smithycurl_options *opts = NULL;
    smithycurl_client *client = NULL;
    smithycurl_options_new(&opts);
    smithycurl_options_set_aws_sigv4(opts, key, secret, getenv("AWS_SESSION_TOKEN"), "us-east-1");
    int rc = smithycurl_client_new(model, SERVICE, argv[1], opts, &client);
    smithycurl_options_free(opts);
    if (rc != SMITHYCURL_OK) {
        fprintf(stderr, "client: %s\n", smithycurl_strerror(rc));
        smithycurl_model_free(model);
        return 1;
    }

    int failed = call(client, "CreateTable",
                      "{\"TableName\": \"c-example\", \"BillingMode\": \"PAY_PER_REQUEST\","
                      " \"AttributeDefinitions\": [{\"AttributeName\": \"id\", \"AttributeType\": \"S\"}],"
                      " \"KeySchema\": [{\"AttributeName\": \"id\", \"KeyType\": \"HASH\"}]}") != SMITHYCURL_OK;
    // A new table is CREATING until it becomes ACTIVE: wait for it (60 s at
    // most), as the model's TableExists waiter says.
    smithycurl_result *w = NULL;
    const char *table = "{\"TableName\": \"c-example\"}";
    int wrc = smithycurl_wait(client, "TableExists", table, strlen(table), 60000, NULL, &w);
    printf("TableExists: %s\n", smithycurl_strerror(wrc));
    failed |= wrc != SMITHYCURL_OK;
    smithycurl_result_free(w);
    failed |= call(client, "PutItem",
                   "{\"TableName\": \"c-example\", \"Item\": {\"id\": {\"S\": \"1\"}, \"name\": {\"S\": \"from C\"}}}") !=
              SMITHYCURL_OK;
    failed |= call(client, "GetItem", "{\"TableName\": \"c-example\", \"Key\": {\"id\": {\"S\": \"1\"}}}") != SMITHYCURL_OK;
    // The item exists, so this conditional put fails: a modeled service error.
    failed |= call(client, "PutItem",
                   "{\"TableName\": \"c-example\", \"Item\": {\"id\": {\"S\": \"1\"}},"
                   " \"ConditionExpression\": \"attribute_not_exists(id)\"}") != SMITHYCURL_E_SERVICE;
    failed |= fan_out(client) != 0;
    failed |= call(client, "Scan", "{\"TableName\": \"c-example\", \"Select\": \"COUNT\"}") != SMITHYCURL_OK;
    failed |= call(client, "DeleteTable", "{\"TableName\": \"c-example\"}") != SMITHYCURL_OK;

    smithycurl_client_free(client);
    smithycurl_model_free(model);
    return failed;
}
