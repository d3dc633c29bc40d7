// SQS (awsJson1_0, query-compatible errors) from C through libsmithycurl:
// create a queue, send a message with attributes, receive it, delete it,
// then ask for a queue that does not exist and get its modeled error with
// the query-compatible code. Runs against any SQS endpoint; the tests use
// fauxqs (scripts/emulators.sh).
//
//   cc sqs.c $(pkg-config --cflags --libs smithycurl) -o sqs
//   AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... ./sqs ENDPOINT SQS-MODEL.json
#include "common.h" // aws_client, call, print_result: what the AWS examples share

#define SERVICE "com.amazonaws.sqs#AmazonSQS"

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

// call_member is call (common.h) that then copies the string member name of
// the output into dst; it returns 1 when both worked.
static int call_member(smithycurl_client *c, const char *op, const char *input, const char *name, char *dst,
                       size_t size) {
    smithycurl_result *r = NULL;
    const char *json = NULL;
    int rc = smithycurl_call(c, op, input, strlen(input), NULL, &r);
    print_result(op, rc, r);
    int ok = rc == SMITHYCURL_OK && smithycurl_result_output(r, &json, NULL) == SMITHYCURL_OK &&
             string_member(json, name, dst, size);
    smithycurl_result_free(r);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ENDPOINT SQS-MODEL.json\n", argv[0]);
        return 2;
    }
    smithycurl_client *client = NULL;
    int status = aws_client(argv[2], SERVICE, argv[1], "us-east-1", &client);
    if (status != 0) return status;

    char url[512] = "", handle[2048] = "", input[4096];
    int failed = !call_member(client, "CreateQueue", "{\"QueueName\": \"c-example\"}", "QueueUrl", url, sizeof url);
    snprintf(input, sizeof input,
             "{\"QueueUrl\": \"%s\", \"MessageBody\": \"from C & <friends>\", "
             "\"MessageAttributes\": {\"color\": {\"DataType\": \"String\", \"StringValue\": \"red\"}}}", url);
    failed |= call(client, "SendMessage", input) != SMITHYCURL_OK;
    snprintf(input, sizeof input, "{\"QueueUrl\": \"%s\", \"MessageAttributeNames\": [\"All\"]}", url);
    failed |= !call_member(client, "ReceiveMessage", input, "ReceiptHandle", handle, sizeof handle);
    snprintf(input, sizeof input, "{\"QueueUrl\": \"%s\", \"ReceiptHandle\": \"%s\"}", url, handle);
    failed |= call(client, "DeleteMessage", input) != SMITHYCURL_OK;
    snprintf(input, sizeof input, "{\"QueueUrl\": \"%s\"}", url);
    failed |= call(client, "DeleteQueue", input) != SMITHYCURL_OK;
    // No such queue: a modeled service error (QueueDoesNotExist) with the
    // code the query protocol had (AWS.SimpleQueueService.NonExistentQueue).
    failed |= call(client, "GetQueueUrl", "{\"QueueName\": \"c-example-missing\"}") != SMITHYCURL_E_SERVICE;

    smithycurl_client_free(client);
    return failed;
}
