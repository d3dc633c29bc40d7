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

#include "common.h" // aws_client, call, print_result: what the AWS examples share

#define SERVICE "com.amazonaws.dynamodb#DynamoDB_20120810"

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
    smithycurl_client *client = NULL;
    int status = aws_client(argv[2], SERVICE, argv[1], "us-east-1", &client);
    if (status != 0) return status;

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
    return failed;
}
