/* Every shape kind through a generated typed C client (smithycurl gen c
 * --prefix kinds, model codegen/c/testdata/kinds) and an echo
 * server: what is sent must come back equal. Run by codegen/c's
 * tests with SMITHYCURL_KINDS_URL and SMITHYCURL_KINDS_MODEL set. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "kinds.h"
#include "kinds_outputs.h"

static char *dup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* fill sets every member of e, on the heap, so that one _free releases it. */
static void fill(kinds_everything *e) {
    static const unsigned char bytes[] = {0, 1, 2, 0xfe, 0xff, 'a'};
    kinds_nested *n;
    kinds_node *node;
    size_t i;

    e->name = dup("everything");
    e->has_flag = 1;
    e->flag = 1;
    e->has_tiny = 1;
    e->tiny = -128;
    e->has_small = 1;
    e->small = 32767;
    e->has_int_ = 1;
    e->int_ = -2147483647 - 1;
    e->has_long_ = 1;
    e->long_ = INT64_MAX;
    e->has_float_ = 1;
    e->float_ = 0.1f;
    e->has_double_ = 1;
    e->double_ = -1.0 / 3.0;
    e->has_when = 1;
    e->when.seconds = -1; /* 1969-12-31T23:59:59.5Z: before the epoch, with a fraction */
    e->when.nanos = 500000000;
    e->has_when_text = 1;
    e->when_text.seconds = 1714564800;
    e->when_text.nanos = 123456789;
    e->data.data = malloc(sizeof bytes);
    memcpy(e->data.data, bytes, sizeof bytes);
    e->data.len = sizeof bytes;
    e->big_int = dup("-123456789012345678901234567890");
    e->big_dec = dup("3.14159265358979323846264338327950288");
    e->doc = dup("{\"any\": [\"json\", 1, null, {\"deep\": true}], \"s\": \"\\u00e9\\n\"}");
    e->has_color = 1;
    e->color.value = KINDS_COLOR_RED;
    e->has_size = 1;
    e->size.value = KINDS_SIZE_LARGE;
    e->count = 9;                       /* not the default 7: sent */
    e->shade.value = KINDS_COLOR_GREEN; /* the default: not sent, comes back all the same */
    e->type = dup("type \"quoted\" \\ \t tab, caf\xc3\xa9, \xe2\x82\xac");
    e->has_default_ = 1;
    e->default_ = 42;
    kinds_string_list_alloc(&e->errors, 1);
    e->errors.items[0] = dup("e1");
    e->has_new_ = 1;
    e->new_ = 1;
    e->free = dup("free");
    e->has_struct_ = 1;
    e->struct_ = 3;
    e->class_ = dup("class");
    e->has_errno_ = 1;
    e->errno_ = 4;
    kinds_string_list_alloc(&e->strings, 0); /* empty, not absent */
    kinds_sparse_string_list_alloc(&e->sparse_strings, 3);
    e->sparse_strings.items[0] = dup("a");
    e->sparse_strings.items[2] = dup("c"); /* [1] stays NULL: null */
    kinds_sparse_int_list_alloc(&e->sparse_ints, 2);
    e->sparse_ints.items[1] = malloc(sizeof(int32_t));
    *e->sparse_ints.items[1] = 5;
    n = e->nested = kinds_nested_new();
    n->label = dup("outer");
    n->inner = kinds_nested_new();
    n->inner->label = dup("inner");
    kinds_int_list_alloc(&n->inner->values, 3);
    for (i = 0; i < 3; i++) n->inner->values.items[i] = (int32_t)i * 10;
    kinds_nested_list_alloc(&e->nested_list, 2);
    e->nested_list.items[1].label = dup("second");
    kinds_sparse_nested_list_alloc(&e->sparse_nested, 2);
    e->sparse_nested.items[0] = kinds_nested_new();
    e->sparse_nested.items[0]->label = dup("first");
    kinds_string_map_alloc(&e->map, 2);
    e->map.keys[0] = dup("k1");
    e->map.values[0] = dup("v1");
    e->map.keys[1] = dup("k\"2");
    e->map.values[1] = dup("");
    kinds_sparse_string_map_alloc(&e->sparse_map, 2);
    e->sparse_map.keys[0] = dup("null");
    e->sparse_map.keys[1] = dup("set");
    e->sparse_map.values[1] = dup("x");
    kinds_map_of_lists_alloc(&e->map_of_lists, 1);
    e->map_of_lists.keys[0] = dup("l");
    kinds_int_list_alloc(&e->map_of_lists.values[0], 2);
    e->map_of_lists.values[0].items[0] = 1;
    e->map_of_lists.values[0].items[1] = 2;
    e->shape = kinds_shape_new();
    e->shape->tag = KINDS_SHAPE_CIRCLE;
    e->shape->u.circle = kinds_circle_new();
    e->shape->u.circle->radius = 2.5;
    kinds_shape_list_alloc(&e->shapes, 5);
    e->shapes.items[0].tag = KINDS_SHAPE_SQUARE;
    e->shapes.items[0].u.square = 4;
    e->shapes.items[1].tag = KINDS_SHAPE_NAME;
    e->shapes.items[1].u.name = dup("named");
    e->shapes.items[2].tag = KINDS_SHAPE_NOTHING;
    e->shapes.items[3].tag = KINDS_SHAPE_TAGS;
    kinds_string_list_alloc(&e->shapes.items[3].u.tags, 1);
    e->shapes.items[3].u.tags.items[0] = dup("t");
    e->shapes.items[4].tag = KINDS_SHAPE_INNER;
    e->shapes.items[4].u.inner = kinds_shape_new();
    e->shapes.items[4].u.inner->tag = KINDS_SHAPE_SQUARE;
    e->shapes.items[4].u.inner->u.square = 9;
    kinds_color_list_alloc(&e->colors, 3);
    e->colors.items[0].value = KINDS_COLOR_GREEN;
    e->colors.items[1].value = KINDS_COLOR_UNKNOWN_2; /* the model's own "unknown" */
    e->colors.items[2].value = KINDS_COLOR_RED;
    node = e->node = kinds_node_new();
    for (i = 1; i <= 50; i++) { /* a linked list 50 deep */
        node->value = (int32_t)i;
        if (i < 50) node = node->next = kinds_node_new();
    }
    e->only = kinds_one_member_new();
    e->only->tag = KINDS_ONE_MEMBER_ONLY;
    e->only->u.only = dup("one");
}

static void compare(const kinds_everything *a, const kinds_everything *b) {
    const kinds_node *n;
    int depth;
    CHECK(streq(b->name, a->name));
    CHECK(b->has_flag && b->flag == 1);
    CHECK(b->has_tiny && b->tiny == -128);
    CHECK(b->has_small && b->small == 32767);
    CHECK(b->has_int_ && b->int_ == a->int_);
    CHECK(b->has_long_ && b->long_ == INT64_MAX);
    CHECK(b->has_float_ && b->float_ == 0.1f);
    CHECK(b->has_double_ && b->double_ == -1.0 / 3.0);
    CHECK(b->has_when && b->when.seconds == -1 && b->when.nanos == 500000000);
    CHECK(b->has_when_text && b->when_text.seconds == 1714564800 && b->when_text.nanos == 123456789);
    CHECK(b->data.len == a->data.len && memcmp(b->data.data, a->data.data, a->data.len) == 0);
    CHECK(streq(b->big_int, a->big_int));
    CHECK(streq(b->big_dec, a->big_dec));
    CHECK(b->doc && strstr(b->doc, "\"deep\"") && strstr(b->doc, "\"any\""));
    CHECK(b->has_color && b->color.value == KINDS_COLOR_RED && !b->color.unknown);
    CHECK(b->has_size && b->size.value == KINDS_SIZE_LARGE);
    CHECK(b->count == 9 && b->on == 1 && b->shade.value == KINDS_COLOR_GREEN && b->ratio == 0.5);
    CHECK(streq(b->type, a->type));
    CHECK(b->has_default_ && b->default_ == 42);
    CHECK(b->errors.count == 1 && streq(b->errors.items[0], "e1"));
    CHECK(b->has_new_ && b->new_ == 1 && streq(b->free, "free") && b->struct_ == 3 && streq(b->class_, "class"));
    CHECK(b->has_errno_ && b->errno_ == 4);
    CHECK(b->strings.items != NULL && b->strings.count == 0);
    CHECK(b->sparse_strings.count == 3 && streq(b->sparse_strings.items[0], "a") &&
          b->sparse_strings.items[1] == NULL && streq(b->sparse_strings.items[2], "c"));
    CHECK(b->sparse_ints.count == 2 && b->sparse_ints.items[0] == NULL && b->sparse_ints.items[1] &&
          *b->sparse_ints.items[1] == 5);
    CHECK(b->nested && streq(b->nested->label, "outer") && b->nested->inner &&
          streq(b->nested->inner->label, "inner") && b->nested->inner->values.count == 3 &&
          b->nested->inner->values.items[2] == 20 && b->nested->inner->inner == NULL);
    CHECK(b->nested_list.count == 2 && b->nested_list.items[0].label == NULL &&
          streq(b->nested_list.items[1].label, "second"));
    CHECK(b->sparse_nested.count == 2 && b->sparse_nested.items[0] &&
          streq(b->sparse_nested.items[0]->label, "first") && b->sparse_nested.items[1] == NULL);
    CHECK(b->map.count == 2);
    if (b->map.count == 2) {
        /* JSON objects have no order: find by key. */
        int i0 = streq(b->map.keys[0], "k1") ? 0 : 1;
        CHECK(streq(b->map.keys[i0], "k1") && streq(b->map.values[i0], "v1"));
        CHECK(streq(b->map.keys[1 - i0], "k\"2") && streq(b->map.values[1 - i0], ""));
    }
    CHECK(b->sparse_map.count == 2);
    if (b->sparse_map.count == 2) {
        int i0 = streq(b->sparse_map.keys[0], "null") ? 0 : 1;
        CHECK(b->sparse_map.values[i0] == NULL && streq(b->sparse_map.values[1 - i0], "x"));
    }
    CHECK(b->map_of_lists.count == 1 && streq(b->map_of_lists.keys[0], "l") &&
          b->map_of_lists.values[0].count == 2 && b->map_of_lists.values[0].items[1] == 2);
    CHECK(b->shape && b->shape->tag == KINDS_SHAPE_CIRCLE && b->shape->u.circle &&
          b->shape->u.circle->radius == 2.5);
    CHECK(b->shapes.count == 5);
    if (b->shapes.count == 5) {
        CHECK(b->shapes.items[0].tag == KINDS_SHAPE_SQUARE && b->shapes.items[0].u.square == 4);
        CHECK(b->shapes.items[1].tag == KINDS_SHAPE_NAME && streq(b->shapes.items[1].u.name, "named"));
        CHECK(b->shapes.items[2].tag == KINDS_SHAPE_NOTHING);
        CHECK(b->shapes.items[3].tag == KINDS_SHAPE_TAGS && b->shapes.items[3].u.tags.count == 1);
        CHECK(b->shapes.items[4].tag == KINDS_SHAPE_INNER && b->shapes.items[4].u.inner &&
              b->shapes.items[4].u.inner->u.square == 9);
    }
    CHECK(b->colors.count == 3 && b->colors.items[0].value == KINDS_COLOR_GREEN &&
          b->colors.items[1].value == KINDS_COLOR_UNKNOWN_2 && b->colors.items[2].value == KINDS_COLOR_RED);
    for (n = b->node, depth = 0; n; n = n->next) CHECK(n->value == ++depth);
    CHECK(depth == 50);
    CHECK(b->only && b->only->tag == KINDS_ONE_MEMBER_ONLY && streq(b->only->u.only, "one"));
}

static void test_round_trip(smithycurl_client *c) {
    kinds_everything *in = kinds_everything_new(), *out = NULL;
    smithycurl_result *err = NULL;
    int rc;
    CHECK(in && in->count == 7 && in->on == 1 && in->shade.value == KINDS_COLOR_GREEN && in->ratio == 0.5);
    fill(in);
    rc = kinds_echo(c, in, &out, &err);
    CHECK_RC(rc, SMITHYCURL_OK);
    if (rc != SMITHYCURL_OK) print_err(err);
    if (out) compare(in, out);
    kinds_everything_free(in);
    kinds_everything_free(out);
    smithycurl_result_free(err);
}

/* Absent members stay absent; defaults come back from the model. */
static void test_minimal(smithycurl_client *c) {
    kinds_everything in, *out = NULL;
    kinds_everything_init(&in);
    in.name = "min";
    in.count = 7; /* the default: not sent */
    CHECK_RC(kinds_echo(c, &in, &out, NULL), SMITHYCURL_OK);
    if (!out) return;
    CHECK(streq(out->name, "min"));
    CHECK(!out->has_flag && !out->has_int_ && !out->has_when && !out->has_color);
    CHECK(out->data.data == NULL && out->big_int == NULL && out->doc == NULL);
    CHECK(out->strings.items == NULL && out->map.keys == NULL && out->nested == NULL && out->shape == NULL);
    CHECK(out->count == 7 && out->on == 1 && out->shade.value == KINDS_COLOR_GREEN && out->ratio == 0.5);
    kinds_everything_free(out);
}

/* Values the model does not list are kept, both ways (validation off). */
static void test_unknown_values(smithycurl_client *c) {
    kinds_everything in, *out = NULL;
    kinds_everything_init(&in);
    in.name = "unknown";
    in.has_color = 1;
    in.color.value = KINDS_COLOR_UNKNOWN;
    in.color.unknown = "purple";
    in.has_size = 1;
    in.size.value = KINDS_SIZE_UNKNOWN;
    in.size.unknown = 7;
    CHECK_RC(kinds_echo(c, &in, &out, NULL), SMITHYCURL_OK);
    if (!out) return;
    CHECK(out->color.value == KINDS_COLOR_UNKNOWN && streq(out->color.unknown, "purple"));
    CHECK(out->size.value == KINDS_SIZE_UNKNOWN && out->size.unknown == 7);
    kinds_everything_free(out);
}

static void test_special_floats(smithycurl_client *c) {
    kinds_everything in, *out = NULL;
    kinds_everything_init(&in);
    in.name = "floats";
    in.has_double_ = 1;
    in.double_ = NAN;
    in.has_float_ = 1;
    in.float_ = -INFINITY;
    in.ratio = INFINITY;
    CHECK_RC(kinds_echo(c, &in, &out, NULL), SMITHYCURL_OK);
    if (!out) return;
    CHECK(isnan(out->double_) && isinf(out->float_) && out->float_ < 0 && isinf(out->ratio));
    kinds_everything_free(out);
}

/* The completion of one kinds_echo_async() call. */
typedef struct echo_wait {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int calls, rc;
    kinds_everything *out;
    smithycurl_result *err;
} echo_wait;

static void echo_done(void *ud, int rc, kinds_everything *out, smithycurl_result *err) {
    echo_wait *e = ud;
    pthread_mutex_lock(&e->mu);
    e->calls++;
    e->rc = rc;
    e->out = out;
    e->err = err;
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
}

/* A completion that must never run. */
static void refused_done(void *ud, smithycurl_code rc, smithycurl_result *r) {
    (void)ud;
    (void)rc;
    (void)r;
    fprintf(stderr, "FAIL: a refused smithycurl_complete_async() completed\n");
    abort();
}

/* An error result's kind is a usage error and its message holds want. */
static void expect_usage(smithycurl_result *err, const char *want) {
    const char *msg = "";
    smithycurl_error_kind kind = SMITHYCURL_KIND_NONE;
    smithycurl_result_error_message(err, &msg);
    smithycurl_result_error_kind(err, &kind);
    CHECK(kind == SMITHYCURL_KIND_USAGE);
    CHECK(strstr(msg, want) != NULL);
    if (!strstr(msg, want)) fprintf(stderr, "     message: %s\n     want:    %s\n", msg, want);
}

/* kinds_echo_async() of an input the writer refuses: accepted, and its
 * completion gets rc and the same message, once (waited for at most 30 s). */
static void expect_refused_async(smithycurl_client *c, const kinds_everything *in, int want_rc, const char *want) {
    echo_wait e = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL, NULL};
    struct timespec until;
    CHECK_RC(kinds_echo_async(c, in, NULL, echo_done, &e), SMITHYCURL_OK);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 30;
    pthread_mutex_lock(&e.mu);
    while (e.calls == 0 && pthread_cond_timedwait(&e.cv, &e.mu, &until) == 0) {
    }
    pthread_mutex_unlock(&e.mu);
    CHECK(e.calls == 1);
    CHECK_RC(e.rc, want_rc);
    CHECK(e.out == NULL && e.err != NULL);
    if (e.err) expect_usage(e.err, want);
    smithycurl_result_free(e.err);
    kinds_everything_free(e.out);
}

/* An input the writer refuses: rc, no output, and *err a usage error whose
 * message names the member path, the value and what was expected; the
 * asynchronous call's completion gets the same. */
static void expect_refused(smithycurl_client *c, const kinds_everything *in, int want_rc, const char *want) {
    kinds_everything *out = NULL;
    smithycurl_result *err = NULL;
    CHECK_RC(kinds_echo(c, in, &out, &err), want_rc);
    CHECK(out == NULL && err != NULL);
    if (!err) return;
    expect_usage(err, want);
    smithycurl_result_free(err);
    /* Without err, the same code and nothing to free. */
    CHECK_RC(kinds_echo(c, in, &out, NULL), want_rc);
    expect_refused_async(c, in, want_rc, want);
}

/* Inputs the library or the writer rejects, before anything is sent. */
static void test_bad_inputs(smithycurl_client *c) {
    kinds_everything in, *out = NULL;
    smithycurl_result *err = NULL;
    const char *msg = "";
    kinds_everything_init(&in);
    in.name = "bad";
    in.doc = "{\"unclosed\": ";
    expect_refused(c, &in, SMITHYCURL_E_INVALID_JSON,
                   "input for Echo: member doc: document \"{\\\"unclosed\\\": \" is not one well-formed JSON value");
    in.doc = "1, \"name\": \"injected\"";
    expect_refused(c, &in, SMITHYCURL_E_INVALID_JSON, "member doc: document");
    in.doc = NULL;
    in.big_int = "12abc";
    expect_refused(c, &in, SMITHYCURL_E_INVALID_ARGUMENT,
                   "input for Echo: member bigInt: \"12abc\" is not a decimal number");
    in.big_int = NULL;
    in.has_when = 1;
    in.when.nanos = 1000000000;
    expect_refused(c, &in, SMITHYCURL_E_INVALID_ARGUMENT,
                   "member when: timestamp nanos 1000000000 is outside 0 to 999999999");
    in.when.nanos = 0;
    in.when.seconds = 253402300800LL;
    expect_refused(c, &in, SMITHYCURL_E_INVALID_ARGUMENT, "member when: timestamp seconds 253402300800 is out of range");
    in.has_when = 0;
    /* Enum values and union tags outside their C enums. */
    in.has_color = 1;
    in.color.value = (kinds_color)7;
    expect_refused(c, &in, SMITHYCURL_E_INVALID_ARGUMENT,
                   "member color: enum value 7 is outside 0 to 3 (the values: 1: \"red\", 2: \"green\", 3: \"unknown\")");
    in.has_color = 0;
    in.has_size = 1;
    in.size.value = (kinds_size)-1;
    expect_refused(c, &in, SMITHYCURL_E_INVALID_ARGUMENT,
                   "member size: intEnum value -1 is outside 0 to 2 (the values: 1: 1, 2: 100)");
    in.has_size = 0;
    CHECK_RC(kinds_color_list_alloc(&in.colors, 2), SMITHYCURL_OK);
    in.colors.items[0].value = KINDS_COLOR_RED;
    in.colors.items[1].value = (kinds_color)9;
    expect_refused(c, &in, SMITHYCURL_E_INVALID_ARGUMENT, "member colors[1]: enum value 9 is outside 0 to 3");
    kinds_color_list_clear(&in.colors);
    CHECK_RC(kinds_shape_list_alloc(&in.shapes, 2), SMITHYCURL_OK);
    in.shapes.items[0].tag = KINDS_SHAPE_SQUARE;
    in.shapes.items[0].u.square = 2;
    in.shapes.items[1].tag = (kinds_shape_tag)42;
    expect_refused(c, &in, SMITHYCURL_E_INVALID_ARGUMENT,
                   "input for Echo: member shapes[1]: union tag 42 is outside 0 to 6 (kinds_shape)");
    kinds_shape_list_clear(&in.shapes);
    /* A NULL map key: the path is the map's. */
    CHECK_RC(kinds_string_map_alloc(&in.map, 1), SMITHYCURL_OK);
    expect_refused(c, &in, SMITHYCURL_E_INVALID_ARGUMENT, "member map: a map key is NULL");
    kinds_string_map_clear(&in.map);
    /* A cycle of pointers fails instead of recursing forever. */
    {
        kinds_nested loop;
        kinds_nested_init(&loop);
        loop.inner = &loop;
        in.nested = &loop;
        expect_refused(c, &in, SMITHYCURL_E_INVALID_ARGUMENT, ".inner.inner: nested deeper than 1000 levels");
        in.nested = NULL;
    }
    /* A union with no member set. */
    in.only = kinds_one_member_new();
    CHECK_RC(kinds_echo(c, &in, &out, &err), SMITHYCURL_E_USAGE);
    if (err) {
        smithycurl_result_error_message(err, &msg);
        CHECK(strstr(msg, "OneMember") != NULL); /* the library names the union */
        if (!strstr(msg, "OneMember")) fprintf(stderr, "     message: %s\n", msg);
        smithycurl_result_free(err);
        err = NULL;
    }
    kinds_one_member_free(in.only);
    /* smithycurl_complete_async() refusals: done is never called, the
       result stays the caller's. */
    CHECK_RC(smithycurl_result_new_input_error(SMITHYCURL_E_INVALID_ARGUMENT, "Echo", "m", &err), SMITHYCURL_OK);
    CHECK_RC(smithycurl_complete_async(NULL, err, refused_done, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_complete_async(c, NULL, refused_done, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_complete_async(c, err, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_result_free(err), SMITHYCURL_OK);
}

/* A union member the model does not know (the server answers some when the
 * name is "newer") keeps its name and value; sending it back is refused,
 * naming the member path. */
static void test_unknown_union_member(smithycurl_client *c) {
    kinds_everything in, *out = NULL, *again = NULL;
    smithycurl_result *err = NULL;
    const char *msg = NULL;
    kinds_everything_init(&in);
    in.name = "newer";
    CHECK_RC(kinds_echo(c, &in, &out, NULL), SMITHYCURL_OK);
    if (!out) return;
    CHECK(out->shape && out->shape->tag == KINDS_SHAPE_UNKNOWN && streq(out->shape->unknown, "NEWTYPE") &&
          streq(out->shape->unknown_value, "{\"k\":[1,\"v\"]}"));
    CHECK(out->shapes.count == 2 && out->shapes.items[0].tag == KINDS_SHAPE_SQUARE &&
          out->shapes.items[1].tag == KINDS_SHAPE_UNKNOWN && streq(out->shapes.items[1].unknown, "LATER") &&
          streq(out->shapes.items[1].unknown_value, "\"x\""));
    CHECK_RC(kinds_echo(c, out, &again, &err), SMITHYCURL_E_USAGE);
    CHECK(again == NULL);
    if (err) {
        smithycurl_result_error_message(err, &msg);
        static const char want[] =
            "member shape: union smithycurl.test.kinds#Shape: member \"NEWTYPE\" is one this model does not know";
        CHECK(msg && strstr(msg, want));
        if (msg && !strstr(msg, want)) fprintf(stderr, "     message: %s\n", msg);
        smithycurl_result_free(err);
    }
    kinds_everything_free(out);
}

static void test_errors(smithycurl_client *c) {
    kinds_fail_input in;
    smithycurl_result *err = NULL;
    kinds_kinds_error *e = NULL;
    int status = 0;
    kinds_fail_input_init(&in);
    in.message = "boom";
    in.has_code = 1;
    in.code = 77;
    CHECK_RC(kinds_fail(c, &in, &err), SMITHYCURL_E_SERVICE);
    CHECK(kinds_error_which(err) == KINDS_ERROR_KINDS_ERROR);
    smithycurl_result_http_status(err, &status);
    CHECK(status == 400);
    CHECK_RC(kinds_error_as_kinds_error(err, &e), SMITHYCURL_OK);
    CHECK(e && streq(e->message, "boom") && e->has_code && e->code == 77 && e->details.count == 2 &&
          streq(e->details.items[1], "b"));
    kinds_kinds_error_free(e);
    smithycurl_result_free(err);
    CHECK_RC(kinds_ping(c, NULL), SMITHYCURL_OK);
}

int main(void) {
    const char *url = getenv("SMITHYCURL_KINDS_URL"), *dir = getenv("SMITHYCURL_KINDS_MODEL");
    smithycurl_model *m;
    smithycurl_options *o;
    smithycurl_client *c = NULL, *lax = NULL;
    if (!url || !dir) {
        fprintf(stderr, "set SMITHYCURL_KINDS_URL and SMITHYCURL_KINDS_MODEL\n");
        return 2;
    }
    if (!(m = load_model(dir))) return 2;
    CHECK_RC(smithycurl_client_new(m, NULL, url, NULL, &c), SMITHYCURL_OK);
    smithycurl_options_new(&o);
    smithycurl_options_set_validation(o, 0);
    CHECK_RC(smithycurl_client_new(m, NULL, url, o, &lax), SMITHYCURL_OK);
    smithycurl_options_free(o);
    smithycurl_model_free(m);
    test_round_trip(c);
    test_minimal(c);
    test_unknown_values(lax);
    test_special_floats(c);
    test_bad_inputs(c);
    test_errors(c);
    test_out_of_type(c);
    test_unknown_union_member(c);
    smithycurl_client_free(c);
    smithycurl_client_free(lax);
    return check_done();
}
