/* The Extras test service (testing/servers/extraserver) through its generated
 * typed C client (smithycurl gen c --prefix ex): a typed paginator, a typed
 * waiter (success, failure, timeout, cancel), a modeled error's message,
 * streamed blob bodies (read and write callbacks) and blob payloads as bytes
 * (the plain and asynchronous calls). Run by codegen/c's tests with
 * SMITHYCURL_EXTRAS_URL and SMITHYCURL_EXTRAS_MODEL set. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "ex.h"

static void test_paginator(smithycurl_client *c) {
    ex_list_items_input in;
    ex_list_items_paginator *pg = NULL;
    ex_list_items_output *page = NULL;
    smithycurl_result *err = NULL;
    int rc, pages = 0, items = 0, ordered = 1;
    char want[32];
    ex_list_items_input_init(&in);
    in.has_total = 1;
    in.total = 7;
    in.has_size = 1;
    in.size = 3;
    CHECK_RC(ex_list_items_paginator_new(c, &in, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
    while ((rc = ex_list_items_paginator_next(pg, &page, &err)) == SMITHYCURL_OK && pages < 10) {
        size_t i;
        pages++;
        for (i = 0; i < page->items.count; i++, items++) {
            sprintf(want, "item-%d", items);
            ordered &= streq(page->items.items[i], want);
        }
        ex_list_items_output_free(page);
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    CHECK(err == NULL && page == NULL);
    CHECK(pages == 3 && items == 7 && ordered);
    CHECK_RC(ex_list_items_paginator_next(pg, &page, &err), SMITHYCURL_E_END); /* and again */
    ex_list_items_paginator_free(pg);

    /* max_items cuts the page that reaches it; page_size sets "size". */
    in.has_size = 0;
    CHECK_RC(ex_list_items_paginator_new(c, &in, 5, 4, 0, NULL, &pg), SMITHYCURL_OK);
    items = pages = 0;
    while ((rc = ex_list_items_paginator_next(pg, &page, NULL)) == SMITHYCURL_OK && pages < 10) {
        pages++;
        items += (int)page->items.count;
        ex_list_items_output_free(page);
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    CHECK(pages == 2 && items == 5);
    ex_list_items_paginator_free(pg);

    /* Bad arguments; items are not pages. */
    CHECK_RC(ex_list_items_paginator_new(c, &in, 0, 0, SMITHYCURL_PAGINATE_ITEMS, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(pg == NULL);
    CHECK_RC(ex_list_items_paginator_new(c, NULL, 0, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(ex_list_items_paginator_new(c, &in, -1, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(ex_list_items_paginator_next(NULL, &page, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    ex_list_items_paginator_free(NULL);

    /* A failing request ends the pages with its error in err. */
    CHECK_RC(ex_list_items_paginator_new(NULL, &in, 0, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_HANDLE);
}

static void test_waiter(smithycurl_client *c) {
    ex_get_job_input in;
    ex_get_job_output *out = NULL;
    smithycurl_result *err = NULL;
    const char *msg = "";
    int attempts = 0;
    smithycurl_cancel_token *tok = NULL;
    ex_get_job_input_init(&in);

    /* Running twice, then done. */
    in.id = "done-3";
    CHECK_RC(ex_wait_job_done(c, &in, 20000, NULL, &out, &err), SMITHYCURL_OK);
    if (err) print_err(err);
    CHECK(out && streq(out->id, "done-3") && streq(out->status, "done"));
    ex_get_job_output_free(out);
    /* A retry acceptor on a modeled error; out may be NULL. */
    in.id = "missing-2";
    CHECK_RC(ex_wait_job_done(c, &in, 20000, NULL, NULL, &err), SMITHYCURL_OK);
    CHECK(err == NULL);

    /* A failure acceptor. */
    in.id = "failed";
    CHECK_RC(ex_wait_job_done(c, &in, 20000, NULL, &out, &err), SMITHYCURL_E_WAITER_FAILURE);
    CHECK(out == NULL && err != NULL);
    smithycurl_result_error_message(err, &msg);
    CHECK(strstr(msg, "JobDone") != NULL);
    smithycurl_result_attempts(err, &attempts);
    CHECK(attempts == 1);
    smithycurl_result_free(err);

    /* Never done: max_wait_ms runs out. */
    in.id = "never";
    CHECK_RC(ex_wait_job_done(c, &in, 800, NULL, &out, &err), SMITHYCURL_E_WAITER_TIMEOUT);
    CHECK(out == NULL && err != NULL);
    smithycurl_result_free(err);
    /* Without err the result is freed inside. */
    CHECK_RC(ex_wait_job_done(c, &in, 800, NULL, &out, NULL), SMITHYCURL_E_WAITER_TIMEOUT);

    /* A cancelled token stops it. */
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
    smithycurl_cancel_token_cancel(tok);
    CHECK_RC(ex_wait_job_done(c, &in, 20000, tok, &out, &err), SMITHYCURL_E_CANCELLED);
    smithycurl_result_free(err);
    smithycurl_cancel_token_free(tok);

    /* Bad arguments. */
    CHECK_RC(ex_wait_job_done(c, NULL, 1000, NULL, &out, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(ex_wait_job_done(c, &in, 0, NULL, &out, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_result_free(err);
    /* A missing required member: a validation error before anything is sent. */
    in.id = NULL;
    CHECK_RC(ex_wait_job_done(c, &in, 1000, NULL, &out, &err), SMITHYCURL_E_VALIDATION);
    smithycurl_result_free(err);
}

/* JobLocked models no message member: the message the service sends in
 * the body is the error's message, typed and dynamic. */
static void test_error_message(smithycurl_client *c) {
    ex_get_job_input in;
    ex_get_job_output *out = NULL;
    ex_job_locked *locked = NULL;
    smithycurl_result *err = NULL;
    const char *msg = "";
    ex_get_job_input_init(&in);
    in.id = "locked";
    CHECK_RC(ex_get_job(c, &in, &out, &err), SMITHYCURL_E_SERVICE);
    CHECK(out == NULL && ex_error_which(err) == EX_ERROR_JOB_LOCKED);
    smithycurl_result_error_message(err, &msg);
    CHECK(streq(msg, "job locked is held by ann"));
    CHECK_RC(ex_error_as_job_locked(err, &locked), SMITHYCURL_OK);
    CHECK(locked && streq(locked->holder, "ann"));
    ex_job_locked_free(locked);
    smithycurl_result_free(err);

    err = NULL;
    CHECK_RC(smithycurl_call(c, "GetJob", "{\"id\":\"locked\"}", 15, NULL, &err), SMITHYCURL_E_SERVICE);
    msg = "";
    smithycurl_result_error_message(err, &msg);
    CHECK(streq(msg, "job locked is held by ann"));
    smithycurl_result_free(err);
}

struct source {
    long long off, len, sum;
    int calls;
};

static long long read_bytes(void *ud, char *buf, size_t cap) {
    struct source *s = ud;
    long long n = s->len - s->off, i;
    s->calls++;
    if (n > (long long)cap) n = (long long)cap;
    for (i = 0; i < n; i++) {
        buf[i] = (char)((s->off + i) % 7);
        s->sum += (s->off + i) % 7;
    }
    s->off += n;
    return n;
}

struct sink {
    long long len;
    int ok, calls;
};

static int write_bytes(void *ud, const char *data, size_t len) {
    struct sink *k = ud;
    size_t i;
    k->calls++;
    for (i = 0; i < len; i++, k->len++) {
        if ((unsigned char)data[i] != (unsigned char)(k->len % 251)) k->ok = 0;
    }
    return 0;
}

static int write_stop(void *ud, const char *data, size_t len) {
    (void)data;
    (void)len;
    ((struct sink *)ud)->calls++;
    return 1;
}

static void test_streams(smithycurl_client *c) {
    ex_upload_input up;
    ex_upload_output *upo = NULL;
    ex_download_input down;
    ex_download_output *downo = NULL;
    smithycurl_result *err = NULL;
    const char *msg = "";
    int known;
    ex_upload_input_init(&up);
    up.name = "a";
    for (known = 1; known >= 0; known--) {
        struct source src = {0, 300000, 0, 0};
        CHECK_RC(ex_upload_stream(c, &up, read_bytes, &src, known ? 300000 : -1, NULL, &upo, &err), SMITHYCURL_OK);
        if (err) print_err(err);
        CHECK(upo && upo->has_size && upo->size == 300000 && upo->has_sum && upo->sum == src.sum);
        CHECK(src.calls >= 2);
        ex_upload_output_free(upo);
        upo = NULL;
    }
    /* Without a reader the body is the input's member. */
    up.body.data = (unsigned char *)"\001\002\003";
    up.body.len = 3;
    CHECK_RC(ex_upload_stream(c, &up, NULL, NULL, 0, NULL, &upo, &err), SMITHYCURL_OK);
    CHECK(upo && upo->size == 3 && upo->sum == 6);
    ex_upload_output_free(upo);

    ex_download_input_init(&down);
    down.name = "b";
    down.has_n = 1;
    down.n = 200000;
    {
        struct sink k = {0, 1, 0};
        CHECK_RC(ex_download_stream(c, &down, write_bytes, &k, NULL, &downo, &err), SMITHYCURL_OK);
        CHECK(k.len == 200000 && k.ok && k.calls >= 1);
        CHECK(downo && streq(downo->name, "b") && downo->body.data == NULL);
        ex_download_output_free(downo);
    }
    /* Without a writer the body is in the output. */
    down.n = 300;
    CHECK_RC(ex_download_stream(c, &down, NULL, NULL, NULL, &downo, &err), SMITHYCURL_OK);
    CHECK(downo && downo->body.len == 300 && downo->body.data && downo->body.data[299] == 299 % 251);
    ex_download_output_free(downo);
    /* A writer that stops: a transport error, not retried. */
    {
        struct sink k = {0, 1, 0};
        down.n = 100000;
        CHECK_RC(ex_download_stream(c, &down, write_stop, &k, NULL, &downo, &err), SMITHYCURL_E_TRANSPORT);
        CHECK(downo == NULL && k.calls == 1);
        smithycurl_result_error_message(err, &msg);
        CHECK(strstr(msg, "write callback failed") != NULL);
        smithycurl_result_free(err);
    }
    CHECK_RC(ex_download_stream(c, NULL, NULL, NULL, NULL, &downo, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(ex_download_stream(c, &down, NULL, NULL, NULL, NULL, &err), SMITHYCURL_E_INVALID_ARGUMENT);
}

/* The completions of the asynchronous payload calls (on library threads),
 * under a lock. */
static pthread_mutex_t payload_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t payload_cv = PTHREAD_COND_INITIALIZER;

struct payload_done {
    int calls, rc;
    long long size, sum;
};

static void payload_record(struct payload_done *d, int rc, long long size, long long sum) {
    pthread_mutex_lock(&payload_mu);
    d->calls++;
    d->rc = rc;
    d->size = size;
    d->sum = sum;
    pthread_cond_broadcast(&payload_cv);
    pthread_mutex_unlock(&payload_mu);
}

static void upload_done(void *ud, int rc, ex_upload_output *out, smithycurl_result *err) {
    payload_record(ud, rc, out ? out->size : 0, out ? out->sum : 0);
    ex_upload_output_free(out);
    smithycurl_result_free(err);
}

static void download_done(void *ud, int rc, ex_download_output *out, smithycurl_result *err) {
    long long intact = 0;
    size_t i;
    for (i = 0; out && out->body.data && i < out->body.len; i++) intact += out->body.data[i] == i % 251;
    payload_record(ud, rc, out && out->body.data ? (long long)out->body.len : 0, intact);
    ex_download_output_free(out);
    smithycurl_result_free(err);
}

/* A blob payload that is not @streaming, in and out: the bytes (no valid
 * UTF-8, a NUL among them) come back exact, the input's left as it was. */
static void test_echo(smithycurl_client *c) {
    static const unsigned char bytes[] = {0xff, 0x00, 0xfe, 0x80, 'x', 0xc3, 0x28, 0x01};
    ex_echo_input in;
    ex_echo_output *out = NULL;
    smithycurl_result *err = NULL;
    ex_echo_input_init(&in);
    in.name = "e";
    in.body.data = (unsigned char *)bytes;
    in.body.len = sizeof bytes;
    CHECK_RC(ex_echo(c, &in, &out, &err), SMITHYCURL_OK);
    if (err) print_err(err);
    CHECK(out && streq(out->name, "e") && out->body.data && out->body.len == sizeof bytes &&
          memcmp(out->body.data, bytes, sizeof bytes) == 0);
    CHECK(in.body.data == bytes && in.body.len == sizeof bytes);
    ex_echo_output_free(out);
}

/* 1 MiB up from the input's smithycurl_blob and down into the output's,
 * byte-exact (ex_upload and ex_download are payload calls: the bytes go
 * beside the JSON); the asynchronous calls copy the input's bytes before
 * they return (the buffer is freed at once). */
static void test_payloads(smithycurl_client *c) {
    const size_t size = 1 << 20;
    unsigned char *data = malloc(size);
    ex_upload_input up;
    ex_upload_output *upo = NULL;
    ex_download_input down;
    ex_download_output *downo = NULL;
    smithycurl_result *err = NULL;
    struct payload_done ud = {0, -1, 0, 0}, dd = {0, -1, 0, 0};
    long long sum = 0;
    size_t i;
    int same = 1;
    struct timespec until;
    for (i = 0; i < size; i++) {
        data[i] = (unsigned char)(i * 7 % 256);
        sum += data[i];
    }
    ex_upload_input_init(&up);
    up.name = "p";
    up.body.data = data;
    up.body.len = size;
    CHECK_RC(ex_upload(c, &up, &upo, &err), SMITHYCURL_OK);
    if (err) print_err(err);
    CHECK(upo && upo->size == (long long)size && upo->sum == sum);
    ex_upload_output_free(upo);
    CHECK(up.body.data == data && up.body.len == size); /* the input is left as it was */

    ex_download_input_init(&down);
    down.name = "q";
    down.has_n = 1;
    down.n = (long long)size;
    CHECK_RC(ex_download(c, &down, &downo, &err), SMITHYCURL_OK);
    CHECK(downo && streq(downo->name, "q") && downo->body.len == size && downo->body.data);
    for (i = 0; downo && downo->body.data && i < size; i++) same &= downo->body.data[i] == i % 251;
    CHECK(same);
    ex_download_output_free(downo);

    CHECK_RC(ex_upload_async(c, &up, NULL, upload_done, &ud), SMITHYCURL_OK);
    memset(data, 0, size);
    free(data);
    CHECK_RC(ex_download_async(c, &down, NULL, download_done, &dd), SMITHYCURL_OK);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    pthread_mutex_lock(&payload_mu);
    while ((ud.calls == 0 || dd.calls == 0) && pthread_cond_timedwait(&payload_cv, &payload_mu, &until) == 0) {
    }
    pthread_mutex_unlock(&payload_mu);
    CHECK(ud.calls == 1 && ud.rc == SMITHYCURL_OK && ud.size == (long long)size && ud.sum == sum);
    CHECK(dd.calls == 1 && dd.rc == SMITHYCURL_OK && dd.size == (long long)size && dd.sum == (long long)size);
    test_echo(c);
}

int main(void) {
    const char *url = getenv("SMITHYCURL_EXTRAS_URL"), *path = getenv("SMITHYCURL_EXTRAS_MODEL");
    smithycurl_model *m;
    smithycurl_options *opts = NULL;
    smithycurl_client *c = NULL;
    if (!url || !path) {
        fprintf(stderr, "SMITHYCURL_EXTRAS_URL and SMITHYCURL_EXTRAS_MODEL must be set\n");
        return 2;
    }
    if (!(m = load_model(path))) return 2;
    smithycurl_options_new(&opts);
    /* Each attempt gets at least the minimum delay before max_wait_ms
     * cancels it: 250 ms is enough for a call under valgrind. */
    smithycurl_options_set_waiter_delays(opts, 250, 500);
    CHECK_RC(smithycurl_client_new(m, NULL, url, opts, &c), SMITHYCURL_OK);
    smithycurl_options_free(opts);
    if (c) {
        test_paginator(c);
        test_waiter(c);
        test_error_message(c);
        test_streams(c);
        test_payloads(c);
    }
    smithycurl_client_free(c);
    smithycurl_model_free(m);
    return check_done();
}
