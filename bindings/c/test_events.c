// Event streams (smithycurl_event_stream_*) against testing/servers/eventserver.

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

// open_event_service loads the model at path and returns a client of its
// service at $SMITHYCURL_EVENTS_URL; NULL (after a failed check) without it.
static smithycurl_client *open_event_service(smithycurl_model **m, const char *path, const char *service) {
    const char *url = need_env("SMITHYCURL_EVENTS_URL");
    *m = NULL;
    if (!url) return NULL;
    smithycurl_loader *ld = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_client_new(*m, service, url, NULL, &c), SMITHYCURL_OK);
    return c;
}

// open_ticker loads testing/servers/eventserver/ticker.smithy and returns a client
// of the Ticker service at $SMITHYCURL_EVENTS_URL; NULL (skipped) without it.
static smithycurl_client *open_ticker(smithycurl_model **m) {
    return open_event_service(m, "testing/servers/eventserver/ticker.smithy", "smithycurl.test.events#Ticker");
}

static char *result_json(smithycurl_result *r) {
    const char *p = NULL;
    size_t n = 0;
    if (smithycurl_result_output(r, &p, &n) != SMITHYCURL_OK) return strdup("(no output)");
    return strndup(p, n);
}

void test_event_stream(void) {
    smithycurl_model *m = NULL;
    smithycurl_client *c = open_ticker(&m);
    if (!c) return;
    smithycurl_result *r = NULL, *ev = NULL;
    smithycurl_event_stream *s = NULL;

    // Three ticks 200 ms apart (x slow), read as they arrive.
    char in_buf[64];
    snprintf(in_buf, sizeof in_buf, "{\"count\":3,\"intervalMs\":%d}", 200 * slow);
    const char *in = in_buf;
    double t0 = now_s();
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    CHECK(s != NULL);
    char *initial = result_json(r);
    CHECK_CONTAINS(initial, "{\"session\":\"s-1\"}");
    free(initial);
    smithycurl_result_free(r);
    double first = 0, last = 0;
    int n = 0, rc;
    while ((rc = smithycurl_event_stream_next(s, &ev)) == SMITHYCURL_OK && n < 10) {
        char *json = result_json(ev);
        char want[64];
        snprintf(want, sizeof want, "{\"tick\":{\"seq\":%d,", n);
        CHECK_CONTAINS(json, want);
        free(json);
        smithycurl_result_free(ev);
        if (n == 0) first = now_s() - t0;
        last = now_s() - t0;
        n++;
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    CHECK(ev == NULL);
    CHECK(n == 3);
    CHECK(last - first >= 0.3 * slow); // streamed, not read at the end
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_END);
    CHECK_RC(smithycurl_event_stream_free(s), SMITHYCURL_OK);
    CHECK_RC(smithycurl_event_stream_free(s), SMITHYCURL_E_INVALID_HANDLE);

    // A modeled exception event after one tick.
    in = "{\"count\":1,\"fail\":\"exception\"}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_OK);
    smithycurl_result_free(ev);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_SERVICE);
    const char *shape = NULL;
    CHECK_RC(smithycurl_result_error_shape(ev, &shape), SMITHYCURL_OK);
    CHECK_CONTAINS(shape, "smithycurl.test.events#TooFast");
    CHECK_CONTAINS(message_of(ev), "slow down");
    smithycurl_result_free(ev);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_END);
    smithycurl_event_stream_free(s);

    // A truncated stream, a corrupt message, an error response.
    in = "{\"count\":1,\"fail\":\"cut\"}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_OK);
    smithycurl_result_free(ev);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_DECODE);
    CHECK_CONTAINS(message_of(ev), "truncated");
    smithycurl_result_free(ev);
    smithycurl_event_stream_free(s);
    in = "{\"count\":1,\"fail\":\"refuse\"}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_E_SERVICE);
    CHECK(s == NULL);
    CHECK_CONTAINS(message_of(r), "refused as asked");
    smithycurl_result_free(r);

    // Freed in the middle of a long stream: the transfer ends at once.
    in = "{\"count\":1000,\"intervalMs\":50}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_OK);
    smithycurl_result_free(ev);
    t0 = now_s();
    CHECK_RC(smithycurl_event_stream_free(s), SMITHYCURL_OK);
    CHECK(now_s() - t0 < 2.0 * slow);

    // smithycurl_call refuses the operation; open refuses other operations.
    CHECK_RC(smithycurl_call(c, "Tick", "{\"count\":1}", 11, NULL, &r), SMITHYCURL_E_USAGE);
    CHECK_CONTAINS(message_of(r), "event stream");
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_open(c, "Nope", NULL, 0, NULL, &r, &s), SMITHYCURL_E_NOT_FOUND);
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", NULL, 0, NULL, NULL, &s), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_event_stream_next(NULL, &ev), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_event_stream_free(NULL), SMITHYCURL_E_INVALID_HANDLE);

    smithycurl_client_free(c);
    smithycurl_model_free(m);
}

// The ticker in rpcv2Cbor: the initial output is the stream's first message
// (an initial-response event), the events are CBOR.
void test_event_stream_rpc(void) {
    smithycurl_model *m = NULL;
    smithycurl_client *c = open_event_service(&m, "testing/servers/eventserver/rpcticker.smithy", "smithycurl.test.events.rpc#TickerCbor");
    if (!c) return;
    smithycurl_result *r = NULL, *ev = NULL;
    smithycurl_event_stream *s = NULL;
    char in_buf[64];
    snprintf(in_buf, sizeof in_buf, "{\"count\":2,\"intervalMs\":%d,\"fail\":\"exception\"}", 200 * slow);
    const char *in = in_buf;
    double t0 = now_s();
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_OK);
    char *initial = result_json(r);
    CHECK_CONTAINS(initial, "{\"session\":\"s-1\"}");
    free(initial);
    smithycurl_result_free(r);
    double first = 0;
    for (int n = 0; n < 2; n++) {
        CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_OK);
        char *json = result_json(ev);
        char want[96];
        snprintf(want, sizeof want, "{\"tick\":{\"seq\":%d,\"at\":\"2024-10-31T14:15:1%dZ\",\"message\":\"tick %d\"}}", n, 4 + n, n);
        CHECK_CONTAINS(json, want);
        free(json);
        smithycurl_result_free(ev);
        if (n == 0) first = now_s() - t0;
    }
    CHECK(now_s() - t0 - first >= 0.15 * slow); // streamed, not read at the end
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_SERVICE);
    const char *shape = NULL;
    CHECK_RC(smithycurl_result_error_shape(ev, &shape), SMITHYCURL_OK);
    CHECK_CONTAINS(shape, "smithycurl.test.events.rpc#TooFast");
    CHECK_CONTAINS(message_of(ev), "slow down");
    smithycurl_result_free(ev);
    CHECK_RC(smithycurl_event_stream_next(s, &ev), SMITHYCURL_E_END);
    CHECK_RC(smithycurl_event_stream_free(s), SMITHYCURL_OK);

    // An error response (CBOR body, __type) before any stream.
    in = "{\"count\":1,\"fail\":\"refuse\"}";
    CHECK_RC(smithycurl_event_stream_open(c, "Tick", in, strlen(in), NULL, &r, &s), SMITHYCURL_E_SERVICE);
    CHECK(s == NULL);
    CHECK_RC(smithycurl_result_error_shape(r, &shape), SMITHYCURL_OK);
    CHECK_CONTAINS(shape, "smithycurl.test.events.rpc#BadRequest");
    CHECK_CONTAINS(message_of(r), "refused as asked");
    smithycurl_result_free(r);

    smithycurl_client_free(c);
    smithycurl_model_free(m);
}
