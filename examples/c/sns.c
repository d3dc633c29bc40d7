// SNS (the awsQuery protocol: form-encoded requests, XML responses) from C
// through libsmithycurl: create a topic, publish to it, list topics, then
// ask for a topic that does not exist and get its modeled error. Runs
// against any SNS endpoint; the tests use fauxqs (scripts/emulators.sh).
//
//   cc sns.c $(pkg-config --cflags --libs smithycurl) -o sns
//   AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... ./sns ENDPOINT SNS-MODEL.json
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smithycurl.h>

#define SERVICE "com.amazonaws.sns#AmazonSimpleNotificationService"
#define TOPIC "arn:aws:sns:us-east-1:000000000000:c-example"

// call prints the output, or the error's kind, shape and code; it returns
// the call's code.
static int call(smithycurl_client *c, const char *op, const char *input) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call(c, op, input, strlen(input), NULL, &r);
    const char *json = "", *shape = "", *code = "";
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
        smithycurl_result_error_code(r, &code);
        printf("%s: %s error, HTTP %d, %s (code %s)\n", op, smithycurl_error_kind_name(kind), status, shape, code);
    } else {
        printf("%s: %s\n", op, smithycurl_strerror(rc));
    }
    smithycurl_result_free(r);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ENDPOINT SNS-MODEL.json\n", argv[0]);
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

    int failed = call(client, "CreateTopic", "{\"Name\": \"c-example\"}") != SMITHYCURL_OK;
    failed |= call(client, "Publish", "{\"TopicArn\": \"" TOPIC "\", \"Message\": \"from C & <friends>\"}") != SMITHYCURL_OK;
    failed |= call(client, "ListTopics", "{}") != SMITHYCURL_OK;
    // No such topic: a modeled service error (NotFoundException, code NotFound).
    failed |= call(client, "GetTopicAttributes", "{\"TopicArn\": \"" TOPIC "-missing\"}") != SMITHYCURL_E_SERVICE;
    failed |= call(client, "DeleteTopic", "{\"TopicArn\": \"" TOPIC "\"}") != SMITHYCURL_OK;

    smithycurl_client_free(client);
    smithycurl_model_free(model);
    return failed;
}
