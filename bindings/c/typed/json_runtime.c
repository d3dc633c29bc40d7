/* The JSON runtime of generated clients (smithycurl_json_* in
 * include/smithycurl.h) on its own: edge cases of the writer and the reader
 * that the round trips through a server do not reach (escapes, surrogates,
 * limits, malformed text). Needs no server. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* written returns the writer's text and resets it for the next case. */
static int written(smithycurl_json_writer *w, const char *want) {
    int ok = w->status == SMITHYCURL_OK && strcmp(w->buf, want) == 0 && strlen(w->buf) == w->len;
    if (!ok) fprintf(stderr, "     wrote [%s] (status %d), want [%s]\n", w->buf, w->status, want);
    smithycurl_json_writer_reset(w);
    return ok;
}

/* message_is reports whether w's message is want, printing it when not. */
static int message_is(const smithycurl_json_writer *w, const char *want) {
    if (streq(smithycurl_json_writer_message(w), want)) return 1;
    fprintf(stderr, "     message: %s\n     want:    %s\n", smithycurl_json_writer_message(w), want);
    return 0;
}

/* A failed writer's message names the member path (document names, read
 * back from the text written so far), the value and what was expected. */
static void test_writer_messages(void) {
    smithycurl_json_writer w;
    smithycurl_timestamp t = {0, 0};
    int i;
    smithycurl_json_writer_init(&w);
    CHECK(message_is(&w, "") && streq(smithycurl_json_writer_message(NULL), ""));
    /* Keys, items, map keys that are not names, and values passed over
     * (strings with brackets, commas and escaped quotes, raw documents). */
    smithycurl_json_begin_object(&w);
    smithycurl_json_key(&w, "a");
    smithycurl_json_string(&w, "x],\"{[");
    smithycurl_json_key(&w, "items");
    smithycurl_json_begin_array(&w);
    smithycurl_json_raw(&w, " {\"k\": [1, \"]\"]} ");
    smithycurl_json_begin_object(&w);
    smithycurl_json_key(&w, "k x\"");
    smithycurl_json_begin_array(&w);
    smithycurl_json_int(&w, 1);
    smithycurl_json_number_text(&w, "12abc\x01");
    CHECK(w.status == SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(message_is(&w, "member items[1][\"k x\\\"\"][1]: \"12abc\\x01\" is not a decimal number (bigInteger and bigDecimal "
                "are JSON number text, e.g. \"-12.5e3\")"));
    /* Sticky: the first failure's message stays. */
    smithycurl_json_key(&w, NULL);
    CHECK(strncmp(smithycurl_json_writer_message(&w), "member items[1]", 15) == 0);
    smithycurl_json_writer_reset(&w);
    /* The top level has no path; enums; the caller's own failure. */
    t.nanos = -5;
    smithycurl_json_timestamp(&w, t);
    CHECK(message_is(&w, "timestamp nanos -5 is outside 0 to 999999999"));
    smithycurl_json_writer_reset(&w);
    {
        static const char *const colors[] = {"red", "green"};
        static const long long sizes[] = {1, 100};
        smithycurl_json_begin_object(&w);
        smithycurl_json_key(&w, "c");
        smithycurl_json_enum(&w, colors, 2, 0, NULL); /* unknown NULL: null */
        smithycurl_json_key(&w, "s");
        smithycurl_json_int_enum(&w, sizes, 2, 0, 7);  /* unknown: 7 */
        CHECK(written(&w, "{\"c\":null,\"s\":7"));
        smithycurl_json_begin_object(&w);
        smithycurl_json_key(&w, "c");
        smithycurl_json_enum(&w, colors, 2, 3, "x");
        CHECK(message_is(&w, "member c: enum value 3 is outside 0 to 2 (the values: 1: \"red\", 2: \"green\")"));
        smithycurl_json_writer_reset(&w);
        smithycurl_json_begin_array(&w);
        smithycurl_json_int_enum(&w, sizes, 2, 2, 0);
        smithycurl_json_int_enum(&w, sizes, 2, -1, 0);
        CHECK(message_is(&w, "member [1]: intEnum value -1 is outside 0 to 2 (the values: 1: 1, 2: 100)"));
        smithycurl_json_writer_reset(&w);
    }
    smithycurl_json_begin_object(&w);
    smithycurl_json_key(&w, "u");
    smithycurl_json_writer_fail(&w, SMITHYCURL_OK, "union tag 9 is outside 0 to 2");
    CHECK(w.status == SMITHYCURL_E_INVALID_ARGUMENT && streq(smithycurl_json_writer_message(&w), "member u: union tag 9 is outside 0 to 2"));
    smithycurl_json_writer_reset(&w);
    /* A deep path keeps its innermost components. */
    smithycurl_json_begin_object(&w);
    for (i = 0; i < 999; i++) {
        smithycurl_json_key(&w, "inner");
        smithycurl_json_begin_object(&w);
    }
    smithycurl_json_key(&w, "inner");
    smithycurl_json_begin_object(&w);
    CHECK(w.status == SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(strncmp(smithycurl_json_writer_message(&w), "member ...inner.inner.", 22) == 0);
    CHECK(strstr(smithycurl_json_writer_message(&w), ".inner: nested deeper than 1000 levels") != NULL);
    smithycurl_json_writer_reset(&w);
}

static void test_writer(void) {
    smithycurl_json_writer w;
    smithycurl_timestamp t;
    unsigned char bytes[3] = {0xfb, 0xff, 0x00};
    smithycurl_blob b;
    int i;

    smithycurl_json_writer_init(&w);
    smithycurl_json_begin_object(&w);
    smithycurl_json_key(&w, "s");
    smithycurl_json_string(&w, "q\"b\\n\n\x01\xc3\xa9");
    smithycurl_json_key(&w, "n");
    smithycurl_json_null(&w);
    smithycurl_json_key(&w, "a");
    smithycurl_json_begin_array(&w);
    smithycurl_json_bool(&w, 1);
    smithycurl_json_int(&w, LLONG_MIN);
    smithycurl_json_int(&w, 0);
    smithycurl_json_end_array(&w);
    smithycurl_json_end_object(&w);
    CHECK(written(&w, "{\"s\":\"q\\\"b\\\\n\\n\\u0001\xc3\xa9\",\"n\":null,\"a\":[true,-9223372036854775808,0]}"));

    smithycurl_json_begin_array(&w);
    smithycurl_json_double(&w, 0.1);
    smithycurl_json_float(&w, 0.1f);
    smithycurl_json_double(&w, 1e300);
    smithycurl_json_double(&w, NAN);
    smithycurl_json_double(&w, -INFINITY);
    smithycurl_json_double(&w, 5);
    smithycurl_json_end_array(&w);
    CHECK(written(&w, "[0.1,0.1,1e+300,\"NaN\",\"-Infinity\",5]"));

    t.seconds = -1;
    t.nanos = 500000000;
    smithycurl_json_timestamp(&w, t);
    CHECK(written(&w, "\"1969-12-31T23:59:59.5Z\""));
    t.seconds = 951782400; /* 2000-02-29 */
    t.nanos = 1;
    smithycurl_json_timestamp(&w, t);
    CHECK(written(&w, "\"2000-02-29T00:00:00.000000001Z\""));
    t.nanos = -1;
    smithycurl_json_timestamp(&w, t);
    CHECK(w.status == SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_json_writer_reset(&w);

    b.data = bytes;
    for (i = 0; i <= 3; i++) {
        static const char *want[] = {"\"\"", "\"+w==\"", "\"+/8=\"", "\"+/8A\""};
        b.len = (size_t)i;
        smithycurl_json_blob(&w, &b);
        CHECK(written(&w, want[i]));
    }

    smithycurl_json_number_text(&w, "-12.5e+3");
    CHECK(written(&w, "-12.5e+3"));
    smithycurl_json_number_text(&w, "1.");
    CHECK(w.status == SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_json_writer_reset(&w);
    smithycurl_json_raw(&w, " {\"a\": [1, {}]} ");
    CHECK(written(&w, " {\"a\": [1, {}]} "));
    smithycurl_json_raw(&w, "{} {}");
    CHECK(w.status == SMITHYCURL_E_INVALID_JSON);
    smithycurl_json_string(&w, "after a failure nothing is written");
    CHECK(w.status == SMITHYCURL_E_INVALID_JSON);
    smithycurl_json_writer_reset(&w);
    smithycurl_json_key(&w, NULL);
    CHECK(w.status == SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_json_writer_reset(&w);

    /* Nesting deeper than 1000 fails; growth past the inline buffer works. */
    for (i = 0; i < 1001; i++) smithycurl_json_begin_array(&w);
    CHECK(w.status == SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_json_writer_reset(&w);
    smithycurl_json_begin_array(&w);
    for (i = 0; i < 10000; i++) smithycurl_json_string(&w, "0123456789");
    smithycurl_json_end_array(&w);
    CHECK(w.status == SMITHYCURL_OK && w.len == 2 + 10000 * 13 - 1 && w.buf[w.len - 1] == ']');
    smithycurl_json_writer_reset(&w);
    smithycurl_json_writer_reset(NULL);
    CHECK(smithycurl_json_writer_status(NULL) == SMITHYCURL_E_INVALID_ARGUMENT);
    test_writer_messages();
}

static void reader(smithycurl_json_reader *r, const char *text) { smithycurl_json_reader_init(r, text, strlen(text)); }

static void test_reader(void) {
    smithycurl_json_reader r;
    char *s = NULL, *k = NULL;
    const char *key;
    size_t n;
    long long x = 0;
    double d = 0;
    int v = 0, more;
    smithycurl_timestamp t;
    smithycurl_blob b = {NULL, 0};
    static const char *const colors[] = {"red", "green/blue"};

    reader(&r, "\"a\\u00e9\\ud83d\\ude00\\ud800x\\/\\\"\"");
    CHECK_RC(smithycurl_json_read_string(&r, &s), SMITHYCURL_OK);
    CHECK(streq(s, "a\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdx/\""));
    reader(&r, "\"bad \\q escape\"");
    CHECK_RC(smithycurl_json_read_string(&r, &s), SMITHYCURL_E_DECODE);
    CHECK(streq(s, "a\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdx/\"")); /* unchanged on failure */
    free(s);
    s = NULL;
    reader(&r, "\"unterminated");
    CHECK_RC(smithycurl_json_read_string(&r, &s), SMITHYCURL_E_DECODE);

    reader(&r, "127");
    CHECK_RC(smithycurl_json_read_int(&r, -128, 127, &x), SMITHYCURL_OK);
    CHECK(x == 127);
    reader(&r, "128");
    CHECK_RC(smithycurl_json_read_int(&r, -128, 127, &x), SMITHYCURL_E_DECODE);
    reader(&r, "1.5");
    CHECK_RC(smithycurl_json_read_int(&r, LLONG_MIN, LLONG_MAX, &x), SMITHYCURL_E_DECODE);
    reader(&r, "-9223372036854775808");
    CHECK_RC(smithycurl_json_read_int(&r, LLONG_MIN, LLONG_MAX, &x), SMITHYCURL_OK);
    CHECK(x == LLONG_MIN);
    reader(&r, "9223372036854775808");
    CHECK_RC(smithycurl_json_read_int(&r, LLONG_MIN, LLONG_MAX, &x), SMITHYCURL_E_DECODE);
    reader(&r, "\"-Infinity\"");
    CHECK_RC(smithycurl_json_read_double(&r, &d), SMITHYCURL_OK);
    CHECK(isinf(d) && d < 0);
    reader(&r, "2.5e-3");
    CHECK_RC(smithycurl_json_read_double(&r, &d), SMITHYCURL_OK);
    CHECK(d == 2.5e-3);

    reader(&r, "\"2024-05-01T13:00:00.25+01:00\"");
    CHECK_RC(smithycurl_json_read_timestamp(&r, &t), SMITHYCURL_OK);
    CHECK(t.seconds == 1714564800 && t.nanos == 250000000);
    reader(&r, "-1.5");
    CHECK_RC(smithycurl_json_read_timestamp(&r, &t), SMITHYCURL_OK);
    CHECK(t.seconds == -2 && t.nanos == 500000000);
    reader(&r, "\"2024-13-01T00:00:00Z\"");
    CHECK_RC(smithycurl_json_read_timestamp(&r, &t), SMITHYCURL_E_DECODE);

    reader(&r, "\"-_8\"");
    CHECK_RC(smithycurl_json_read_blob(&r, &b), SMITHYCURL_OK);
    CHECK(b.len == 2 && b.data[0] == 0xfb && b.data[1] == 0xff);
    reader(&r, "\"\"");
    CHECK_RC(smithycurl_json_read_blob(&r, &b), SMITHYCURL_OK);
    CHECK(b.data != NULL && b.len == 0);
    reader(&r, "\"a\"");
    CHECK_RC(smithycurl_json_read_blob(&r, &b), SMITHYCURL_E_DECODE);
    free(b.data);

    reader(&r, "\"green\\/blue\"");
    CHECK_RC(smithycurl_json_read_enum(&r, colors, 2, &v, &s), SMITHYCURL_OK);
    CHECK(v == 2 && s == NULL);
    reader(&r, "\"purple\"");
    CHECK_RC(smithycurl_json_read_enum(&r, colors, 2, &v, &s), SMITHYCURL_OK);
    CHECK(v == 0 && streq(s, "purple"));
    free(s);
    s = NULL;

    reader(&r, " {\"a\\n\": [1, {\"x\": null}], \"b\": \"2\"} ");
    CHECK_RC(smithycurl_json_enter_object(&r), SMITHYCURL_OK);
    CHECK(smithycurl_json_next_key_dup(&r, &k) == 1 && streq(k, "a\n"));
    free(k);
    CHECK_RC(smithycurl_json_read_raw(&r, &s), SMITHYCURL_OK);
    CHECK(streq(s, "[1, {\"x\": null}]"));
    free(s);
    s = NULL;
    CHECK(smithycurl_json_next_key(&r, &key, &n) == 1 && n == 1 && key[0] == 'b');
    CHECK_RC(smithycurl_json_read_number_text(&r, &s), SMITHYCURL_OK);
    CHECK(streq(s, "2"));
    free(s);
    s = NULL;
    CHECK(smithycurl_json_next_key(&r, &key, &n) == 0);
    CHECK_RC(smithycurl_json_reader_end(&r), SMITHYCURL_OK);

    reader(&r, "[1, 2 3]");
    CHECK_RC(smithycurl_json_skip(&r), SMITHYCURL_E_DECODE);
    reader(&r, "[1,]");
    CHECK_RC(smithycurl_json_enter_array(&r), SMITHYCURL_OK);
    CHECK(smithycurl_json_next_item(&r) == 1);
    CHECK_RC(smithycurl_json_skip(&r), SMITHYCURL_OK);
    more = smithycurl_json_next_item(&r);
    if (more == 1) more = smithycurl_json_skip(&r) == SMITHYCURL_OK ? 1 : -1;
    CHECK(more == -1);
    reader(&r, "{} x");
    CHECK_RC(smithycurl_json_skip(&r), SMITHYCURL_OK);
    CHECK_RC(smithycurl_json_reader_end(&r), SMITHYCURL_E_DECODE);
    {
        /* 1001 nested arrays: refused, not a stack overflow. */
        char deep[2003];
        memset(deep, '[', 1001);
        memset(deep + 1001, ']', 1001);
        deep[2002] = 0;
        reader(&r, deep);
        CHECK_RC(smithycurl_json_skip(&r), SMITHYCURL_E_DECODE);
        reader(&r, deep + 1);
        CHECK_RC(smithycurl_json_skip(&r), SMITHYCURL_OK);
    }
    CHECK(smithycurl_json_grow(NULL, NULL, 1) == NULL);
}

int main(void) {
    (void)load_model; /* check.h's helpers for the programs with a server */
    (void)print_err;
    test_writer();
    test_reader();
    return check_done();
}
