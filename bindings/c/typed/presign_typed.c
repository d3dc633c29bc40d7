/* Typed presigners (smithycurl gen c --prefix ps of
 * codegen/c/testdata/presign): the S3 documentation's presigned GET to the
 * byte, a PUT whose signed Content-Type is listed to send, and the
 * refusals. Nothing is sent. Run by codegen/c's tests with
 * SMITHYCURL_PRESIGN_MODEL set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ps.h"

int main(void) {
    const char *path = getenv("SMITHYCURL_PRESIGN_MODEL");
    smithycurl_model *m;
    smithycurl_options *opts = NULL;
    smithycurl_client *c = NULL;
    ps_presigned *p = NULL;
    smithycurl_result *err = NULL;
    ps_put_text_input put;
    if (!path) {
        fprintf(stderr, "SMITHYCURL_PRESIGN_MODEL must be set\n");
        return 2;
    }
    if (!(m = load_model(path))) return 2;
    smithycurl_options_new(&opts);
    smithycurl_options_set_aws_sigv4(opts, "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", NULL,
                                     "us-east-1");
    CHECK_RC(smithycurl_client_new(m, NULL, "https://examplebucket.s3.amazonaws.com", opts, &c), SMITHYCURL_OK);
    smithycurl_options_free(opts);
    if (c) {
        /* "Authenticating Requests: Using Query Parameters", signed on
         * 2013-05-24 for a day. */
        CHECK_RC(ps_presign_get_text(c, 86400, 1369353600LL, &p, &err), SMITHYCURL_OK);
        print_err(err);
        CHECK(p != NULL);
        if (p) {
            CHECK(streq(p->url, "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                                "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                                "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                                "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"));
            CHECK(streq(p->method, "GET"));
            CHECK(p->expires.seconds == 1369353600LL + 86400 && p->expires.nanos == 0);
            CHECK(p->n_headers == 0);
        }
        ps_presigned_free(p);
        p = NULL;

        /* A signed header the sender must send. */
        ps_put_text_input_init(&put);
        put.key = "a.txt";
        put.content_type = "text/plain";
        CHECK_RC(ps_presign_put_text(c, &put, 60, 0, &p, &err), SMITHYCURL_OK);
        print_err(err);
        CHECK(p != NULL);
        if (p) {
            CHECK(streq(p->method, "PUT"));
            CHECK(p->url && strstr(p->url, "https://examplebucket.s3.amazonaws.com/a.txt?") == p->url);
            CHECK(p->url && strstr(p->url, "content-type") != NULL); /* in X-Amz-SignedHeaders */
            CHECK(p->n_headers == 1);
            if (p->n_headers == 1) {
                CHECK(streq(p->header_names[0], "Content-Type") && streq(p->header_values[0], "text/plain"));
            }
        }
        ps_presigned_free(p);
        p = NULL;

        /* Refusals: out of range (a result saying so), a missing required
         * member (before anything), NULL pointers. */
        CHECK_RC(ps_presign_get_text(c, 604801, 0, &p, &err), SMITHYCURL_E_USAGE);
        CHECK(p == NULL && err != NULL);
        if (err) {
            const char *msg = "";
            smithycurl_result_error_message(err, &msg);
            CHECK(strstr(msg, "not between 1 and 604800") != NULL);
        }
        smithycurl_result_free(err);
        err = NULL;
        put.key = NULL;
        CHECK_RC(ps_presign_put_text(c, &put, 60, 0, &p, &err), SMITHYCURL_E_VALIDATION);
        CHECK(p == NULL);
        smithycurl_result_free(err);
        err = NULL;
        CHECK_RC(ps_presign_put_text(c, NULL, 60, 0, &p, &err), SMITHYCURL_E_INVALID_ARGUMENT);
        CHECK_RC(ps_presign_get_text(c, 60, 0, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
        ps_presigned_free(NULL);
    }
    smithycurl_client_free(c);
    smithycurl_model_free(m);
    return check_done();
}
