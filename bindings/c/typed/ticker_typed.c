/* The Ticker event-stream service (testing/servers/eventserver) through its
 * generated typed C client (smithycurl gen c --prefix ticker): typed
 * events, the typed initial output, a modeled exception event, an error
 * message, a cut stream and closing early. Run by codegen/c's
 * tests with SMITHYCURL_TICKER_URL and SMITHYCURL_TICKER_MODEL set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ticker.h"

/* Reads every event of a stream of count ticks that ends with fail;
 * returns the code that ended it and the ticks seen in *ticks. */
static int run(smithycurl_client *c, int count, const char *fail, int *ticks, smithycurl_result **err) {
    ticker_tick_input in;
    ticker_tick_output *initial = NULL;
    ticker_tick_events *s = NULL;
    ticker_tick_stream *ev = NULL;
    int rc, n = 0;
    ticker_tick_input_init(&in);
    in.count = count;
    in.fail = (char *)fail;
    *ticks = 0;
    rc = ticker_tick_events_open(c, &in, NULL, &initial, &s, err);
    if (rc) return rc;
    CHECK(initial && streq(initial->session, "s-1") && initial->events == NULL);
    ticker_tick_output_free(initial);
    while ((rc = ticker_tick_events_next(s, &ev, err)) == SMITHYCURL_OK && n < 1000) {
        if (ev->tag == TICKER_TICK_STREAM_TICK && ev->u.tick) {
            char want[32];
            sprintf(want, "tick %d", n);
            CHECK(ev->u.tick->has_seq && ev->u.tick->seq == n && streq(ev->u.tick->message, want));
            CHECK(ev->u.tick->has_at && ev->u.tick->at.seconds == 1730384114LL + n);
            n++;
        } else {
            CHECK(0 && "not a tick");
        }
        ticker_tick_stream_free(ev);
    }
    CHECK(ev == NULL);
    *ticks = n;
    /* Over: later calls end too. */
    if (rc != SMITHYCURL_E_END) {
        smithycurl_result *again = NULL;
        CHECK_RC(ticker_tick_events_next(s, &ev, &again), SMITHYCURL_E_END);
        CHECK(again == NULL);
    }
    ticker_tick_events_free(s);
    return rc;
}

int main(void) {
    const char *url = getenv("SMITHYCURL_TICKER_URL"), *path = getenv("SMITHYCURL_TICKER_MODEL");
    smithycurl_model *m;
    smithycurl_client *c = NULL;
    smithycurl_result *err = NULL;
    ticker_too_fast *tf = NULL;
    ticker_tick_input in;
    ticker_tick_events *s = NULL;
    ticker_tick_stream *ev = NULL;
    const char *code = "";
    int ticks = 0;
    if (!url || !path) {
        fprintf(stderr, "SMITHYCURL_TICKER_URL and SMITHYCURL_TICKER_MODEL must be set\n");
        return 2;
    }
    if (!(m = load_model(path))) return 2;
    CHECK_RC(smithycurl_client_new(m, NULL, url, NULL, &c), SMITHYCURL_OK);

    CHECK_RC(run(c, 3, NULL, &ticks, &err), SMITHYCURL_E_END);
    CHECK(ticks == 3 && err == NULL);
    if (err) print_err(err);

    /* A modeled exception event: TooFast, among the modeled errors. */
    CHECK_RC(run(c, 2, "exception", &ticks, &err), SMITHYCURL_E_SERVICE);
    CHECK(ticks == 2);
    CHECK(ticker_error_which(err) == TICKER_ERROR_TOO_FAST);
    CHECK_RC(ticker_error_as_too_fast(err, &tf), SMITHYCURL_OK);
    CHECK(tf && streq(tf->message, "slow down"));
    ticker_too_fast_free(tf);
    smithycurl_result_free(err);

    /* An error message: an unmodeled service error with its code. */
    CHECK_RC(run(c, 1, "error", &ticks, &err), SMITHYCURL_E_SERVICE);
    CHECK(ticker_error_which(err) == TICKER_ERROR_OTHER);
    smithycurl_result_error_code(err, &code);
    CHECK(streq(code, "internal-error"));
    smithycurl_result_free(err);

    /* A cut stream; without err the result is freed inside. */
    CHECK_RC(run(c, 1, "cut", &ticks, NULL), SMITHYCURL_E_DECODE);
    CHECK(ticks == 1);

    /* An error response instead of a stream: from open, modeled. */
    CHECK_RC(run(c, 1, "refuse", &ticks, &err), SMITHYCURL_E_SERVICE);
    CHECK(ticker_error_which(err) == TICKER_ERROR_BAD_REQUEST);
    smithycurl_result_free(err);

    /* Closing early, without the initial output; NULL arguments. */
    ticker_tick_input_init(&in);
    in.count = 100;
    in.has_interval_ms = 1;
    in.interval_ms = 50;
    CHECK_RC(ticker_tick_events_open(c, &in, NULL, NULL, &s, &err), SMITHYCURL_OK);
    CHECK_RC(ticker_tick_events_next(s, &ev, &err), SMITHYCURL_OK);
    CHECK(ev && ev->tag == TICKER_TICK_STREAM_TICK);
    ticker_tick_stream_free(ev);
    ticker_tick_events_free(s);
    ticker_tick_events_free(NULL);
    CHECK_RC(ticker_tick_events_open(c, NULL, NULL, NULL, &s, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(ticker_tick_events_open(c, &in, NULL, NULL, NULL, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(ticker_tick_events_next(NULL, &ev, &err), SMITHYCURL_E_INVALID_ARGUMENT);

    smithycurl_client_free(c);
    smithycurl_model_free(m);
    return check_done();
}
