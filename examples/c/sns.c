// SNS (the awsQuery protocol: form-encoded requests, XML responses) from C
// through libsmithycurl: create a topic, publish to it, list topics, then
// ask for a topic that does not exist and get its modeled error. Runs
// against any SNS endpoint; the tests use fauxqs (scripts/emulators.sh).
//
//   cc sns.c $(pkg-config --cflags --libs smithycurl) -o sns
//   AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... ./sns ENDPOINT SNS-MODEL.json
#include "common.h" // aws_client, call, print_result: what the AWS examples share

#define SERVICE "com.amazonaws.sns#AmazonSimpleNotificationService"
#define TOPIC "arn:aws:sns:us-east-1:000000000000:c-example"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ENDPOINT SNS-MODEL.json\n", argv[0]);
        return 2;
    }
    smithycurl_client *client = NULL;
    int status = aws_client(argv[2], SERVICE, argv[1], "us-east-1", &client);
    if (status != 0) return status;

    int failed = call(client, "CreateTopic", "{\"Name\": \"c-example\"}") != SMITHYCURL_OK;
    failed |= call(client, "Publish", "{\"TopicArn\": \"" TOPIC "\", \"Message\": \"from C & <friends>\"}") != SMITHYCURL_OK;
    failed |= call(client, "ListTopics", "{}") != SMITHYCURL_OK;
    // No such topic: a modeled service error (NotFoundException, code NotFound).
    failed |= call(client, "GetTopicAttributes", "{\"TopicArn\": \"" TOPIC "-missing\"}") != SMITHYCURL_E_SERVICE;
    failed |= call(client, "DeleteTopic", "{\"TopicArn\": \"" TOPIC "\"}") != SMITHYCURL_OK;

    smithycurl_client_free(client);
    return failed;
}
