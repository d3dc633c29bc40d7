// S3 (restXml, path-style to an explicit endpoint) from C through
// libsmithycurl: create a bucket, put an object holding every byte value
// with metadata and a CRC32C checksum (the input JSON written with the
// library's JSON writer, the body as base64), read its metadata back, get
// it streamed into a buffer through a write callback, list the bucket, get
// a missing key and its modeled NoSuchKey error, then delete the object and
// the bucket. Runs against any S3 endpoint; the tests use s3rver and fauxqs
// (scripts/emulators.sh).
//
//   cc s3.c $(pkg-config --cflags --libs smithycurl) -o s3
//   AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... ./s3 ENDPOINT S3-MODEL.json BUCKET
#include "common.h" // aws_client, call, print_result: what the AWS examples share

#define SERVICE "com.amazonaws.s3#AmazonS3"
#define KEY "dir/all bytes.bin"

// A response body collected by the write callback.
struct buffer {
    unsigned char data[1024];
    size_t len;
};

static int to_buffer(void *user_data, const char *data, size_t len) {
    struct buffer *b = user_data;
    if (len > sizeof b->data - b->len) return 1; // larger than expected: stop
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}

// get_object streams GetObject's body into body (the output JSON leaves it
// out) and prints what the call named label gave; it returns the call's code.
static int get_object(smithycurl_client *c, const char *label, const char *input, struct buffer *body) {
    smithycurl_result *r = NULL;
    int rc = smithycurl_call_stream(c, "GetObject", input, strlen(input), NULL, NULL, 0, to_buffer, body, NULL, &r);
    print_result(label, rc, r);
    smithycurl_result_free(r);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s ENDPOINT S3-MODEL.json BUCKET\n", argv[0]);
        return 2;
    }
    const char *region = getenv("AWS_REGION") ? getenv("AWS_REGION") : "us-east-1";
    const char *bucket = argv[3];
    smithycurl_client *client = NULL;
    int status = aws_client(argv[2], SERVICE, argv[1], region, &client);
    if (status != 0) return status;

    char input[512];
    snprintf(input, sizeof input, "{\"Bucket\": \"%s\"}", bucket);
    int failed = call(client, "CreateBucket", input) != SMITHYCURL_OK;

    // PutObject's input, with the body as a blob (base64 in the JSON).
    unsigned char bytes[256];
    for (int i = 0; i < 256; i++) bytes[i] = (unsigned char)i;
    smithycurl_blob blob = {bytes, sizeof bytes};
    smithycurl_json_writer w;
    smithycurl_json_writer_init(&w);
    smithycurl_json_begin_object(&w);
    smithycurl_json_key(&w, "Bucket");
    smithycurl_json_string(&w, bucket);
    smithycurl_json_key(&w, "Key");
    smithycurl_json_string(&w, KEY);
    smithycurl_json_key(&w, "ChecksumAlgorithm");
    smithycurl_json_string(&w, "CRC32C");
    smithycurl_json_key(&w, "Metadata");
    smithycurl_json_begin_object(&w);
    smithycurl_json_key(&w, "colour");
    smithycurl_json_string(&w, "blue");
    smithycurl_json_end_object(&w);
    smithycurl_json_key(&w, "Body");
    smithycurl_json_blob(&w, &blob);
    smithycurl_json_end_object(&w);
    if (smithycurl_json_writer_status(&w) != SMITHYCURL_OK) {
        fprintf(stderr, "PutObject input: %s\n", smithycurl_strerror(smithycurl_json_writer_status(&w)));
        failed = 1;
    } else {
        failed |= call(client, "PutObject", w.buf) != SMITHYCURL_OK;
    }
    smithycurl_json_writer_reset(&w);

    snprintf(input, sizeof input, "{\"Bucket\": \"%s\", \"Key\": \"%s\"}", bucket, KEY);
    failed |= call(client, "HeadObject", input) != SMITHYCURL_OK;
    // The body streamed to the callback; the output JSON leaves it out.
    struct buffer body = {.len = 0};
    snprintf(input, sizeof input, "{\"Bucket\": \"%s\", \"Key\": \"%s\", \"ChecksumMode\": \"ENABLED\"}", bucket, KEY);
    failed |= get_object(client, "GetObject", input, &body) != SMITHYCURL_OK;
    int same = body.len == sizeof bytes && memcmp(body.data, bytes, sizeof bytes) == 0;
    printf("GetObject: %zu bytes, %s\n", body.len, same ? "every byte value in order" : "NOT the bytes put");
    failed |= !same;
    snprintf(input, sizeof input, "{\"Bucket\": \"%s\"}", bucket);
    failed |= call(client, "ListObjectsV2", input) != SMITHYCURL_OK;
    // No such key: the modeled error NoSuchKey, nothing written to the callback.
    struct buffer none = {.len = 0};
    snprintf(input, sizeof input, "{\"Bucket\": \"%s\", \"Key\": \"dir/missing\"}", bucket);
    failed |= get_object(client, "GetObject dir/missing", input, &none) != SMITHYCURL_E_SERVICE || none.len != 0;
    snprintf(input, sizeof input, "{\"Bucket\": \"%s\", \"Key\": \"%s\"}", bucket, KEY);
    failed |= call(client, "DeleteObject", input) != SMITHYCURL_OK;
    snprintf(input, sizeof input, "{\"Bucket\": \"%s\"}", bucket);
    failed |= call(client, "DeleteBucket", input) != SMITHYCURL_OK;

    smithycurl_client_free(client);
    return failed;
}
