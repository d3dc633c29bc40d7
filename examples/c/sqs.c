// SQS (awsJson1_0, query-compatible errors) from C through libsmithycurl:
// create a queue, send a message with attributes, receive it, delete it,
// then ask for a queue that does not exist and get its modeled error with
// the query-compatible code. Runs against any SQS endpoint; the tests use
// fauxqs (scripts/emulators.sh).
//
//   cc sqs.c $(pkg-config --cflags --libs smithycurl) -o sqs
//   AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... ./sqs ENDPOINT SQS-MODEL.json
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smithycurl.h>

#define SERVICE "com.amazonaws.sqs#AmazonSQS"

// call prints the output, or the error's kind, shape and code; it returns
// the call's code and, when out is not NULL, a malloc'd copy of the output.
static int call(smithycurl_client *c, const char *op, const char *input, char **out) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call(c, op, input, strlen(input), NULL, &r);
    const char *json = "", *shape = "", *code = "";
    size_t n = 0;
    if (rc == SMITHYCURL_OK) {
        smithycurl_result_output(r, &json, &n);
        printf("%s: %.*s\n", op, (int)n, json);
        if (out) *out = strdup(json);
    } else if (r != NULL) {
        smithycurl_error_kind kind;
        int status = 0;
        smithycurl_result_error_kind(r, &kind);
        smithycurl_result_http_status(r, &status);
        smithycurl_result_error_shape(r, &shape);
        smithycurl_result_error_code(r, &code);
        printf("%s: %s error, HTTP %d, %s (code %s)\n", op, smithycurl_error_kind_name(kind), status, shape, code);
    } else {
        printf("%s: %s\n", op, smithycurl_strerror(rc));
    }
    smithycurl_result_free(r);
    return rc;
}

// string_member copies the first string member called name out of the
// compact JSON the library returns (a minimal reader for this example;
// the generated typed clients, smithycurl gen c, read outputs into structs).
static int string_member(const char *json, const char *name, char *dst, size_t size) {
    char key[64];
    snprintf(key, sizeof key, "\"%s\":\"", name);
    const char *p = json ? strstr(json, key) : NULL;
    if (p == NULL) return 0;
    size_t n = 0;
    for (p += strlen(key); *p && *p != '"' && n + 1 < size; p++) {
        if (*p == '\\' && p[1]) p++; // \" \\ \/: the escaped character
        dst[n++] = *p;
    }
    dst[n] = 0;
    return *p == '"';
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ENDPOINT SQS-MODEL.json\n", argv[0]);
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

    char *out = NULL, url[512] = "", handle[2048] = "", input[4096];
    int failed = call(client, "CreateQueue", "{\"QueueName\": \"c-example\"}", &out) != SMITHYCURL_OK;
    failed |= !string_member(out, "QueueUrl", url, sizeof url);
    free(out);
    out = NULL;
    snprintf(input, sizeof input,
             "{\"QueueUrl\": \"%s\", \"MessageBody\": \"from C & <friends>\", "
             "\"MessageAttributes\": {\"color\": {\"DataType\": \"String\", \"StringValue\": \"red\"}}}", url);
    failed |= call(client, "SendMessage", input, NULL) != SMITHYCURL_OK;
    snprintf(input, sizeof input, "{\"QueueUrl\": \"%s\", \"MessageAttributeNames\": [\"All\"]}", url);
    failed |= call(client, "ReceiveMessage", input, &out) != SMITHYCURL_OK;
    failed |= !string_member(out, "ReceiptHandle", handle, sizeof handle);
    free(out);
    snprintf(input, sizeof input, "{\"QueueUrl\": \"%s\", \"ReceiptHandle\": \"%s\"}", url, handle);
    failed |= call(client, "DeleteMessage", input, NULL) != SMITHYCURL_OK;
    snprintf(input, sizeof input, "{\"QueueUrl\": \"%s\"}", url);
    failed |= call(client, "DeleteQueue", input, NULL) != SMITHYCURL_OK;
    // No such queue: a modeled service error (QueueDoesNotExist) with the
    // code the query protocol had (AWS.SimpleQueueService.NonExistentQueue).
    failed |= call(client, "GetQueueUrl", "{\"QueueName\": \"c-example-missing\"}", NULL) != SMITHYCURL_E_SERVICE;

    smithycurl_client_free(client);
    smithycurl_model_free(model);
    return failed;
}
