// Paginators, blocking (smithycurl_paginator_next) and on a completion
// queue (smithycurl_paginator_next_queued), on the Todos service.

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctest.h"

// todo_client makes a client of the Todos service (examples/todo) at url.
static smithycurl_client *todo_client(const char *url) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_client *c = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, "examples/todo"), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    CHECK_RC(smithycurl_client_new(m, "smithycurl.examples.todo#Todos", url, NULL, &c), SMITHYCURL_OK);
    smithycurl_model_free(m);
    return c;
}

// add_todos creates the todos prefix-0 to prefix-4.
static void add_todos(smithycurl_client *c, const char *prefix) {
    for (int i = 0; i < 5; i++) {
        char in[64];
        snprintf(in, sizeof in, "{\"title\": \"%s-%d\"}", prefix, i);
        free(call_ok(c, "CreateTodo", in));
    }
}

// test_paginator pages through the Todos service's ListTodos (limit 2).
void test_paginator(void) {
    const char *url = need_env("SMITHYCURL_TODO_URL");
    if (!url) return;
    smithycurl_client *c = todo_client(url);
    add_todos(c, "pg");

    // Pages: at least 3 of at most 2 items; ours all seen, in order.
    smithycurl_paginator *pg = NULL;
    smithycurl_result *err = NULL;
    const char *json = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 2, 0, NULL, &pg), SMITHYCURL_OK);
    int pages = 0, rc, seen = 0;
    while ((rc = smithycurl_paginator_next(pg, &json, &n, &err)) == SMITHYCURL_OK && pages < 100) {
        pages++;
        CHECK(json != NULL && strlen(json) == n && err == NULL);
        CHECK_CONTAINS(json, "\"items\":[");
        for (const char *p = json; (p = strstr(p, "\"title\":\"pg-")); p++) seen++;
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    CHECK(json == NULL && n == 0 && err == NULL);
    CHECK(pages >= 3 && seen == 5);
    CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), SMITHYCURL_E_END);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), SMITHYCURL_E_INVALID_HANDLE);

    // Items, cut at max_items across pages; len may be NULL.
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", NULL, 0, 3, 2, SMITHYCURL_PAGINATE_ITEMS, NULL, &pg),
             SMITHYCURL_OK);
    int items = 0;
    while ((rc = smithycurl_paginator_next(pg, &json, NULL, &err)) == SMITHYCURL_OK && items < 100) {
        items++;
        CHECK(json[0] == '{');
        CHECK_CONTAINS(json, "\"title\":");
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    CHECK(items == 3);
    smithycurl_paginator_free(pg);

    // Freed before the end: the last page goes with it (valgrind checks).
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 1, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);

    // Failures come from the first next, with a result; then the pages end.
    struct {
        const char *op, *input;
        int code;
        const char *message;
    } bad[] = {
        {"GetTodo", "{\"id\": \"x\"}", SMITHYCURL_E_USAGE, "operation GetTodo is not paginated"},
        {"ListTodoz", "{}", SMITHYCURL_E_NOT_FOUND, "ListTodos"},
        {"ListTodos", "{\"limit\": ", SMITHYCURL_E_INVALID_JSON, "not valid JSON"},
        {"ListTodos", "{\"limit\": \"2\"}", SMITHYCURL_E_USAGE, "limit"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_RC(smithycurl_paginator_new(c, bad[i].op, bad[i].input, strlen(bad[i].input), 0, 0, 0, NULL, &pg),
                 SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), bad[i].code);
        const char *msg = NULL;
        CHECK(json == NULL && err != NULL);
        if (err) {
            CHECK_RC(smithycurl_result_error_message(err, &msg), SMITHYCURL_OK);
            CHECK_CONTAINS(msg, bad[i].message);
        }
        smithycurl_result_free(err);
        CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &err), SMITHYCURL_E_END);
        smithycurl_paginator_free(pg);
    }
    // A paginator freed without a next frees its pending error.
    CHECK_RC(smithycurl_paginator_new(c, "GetTodo", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);

    // Bad arguments and handles.
    pg = NULL;
    CHECK_RC(smithycurl_paginator_new(c, NULL, "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", NULL, 2, 0, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, -1, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 1LL << 31, 0, NULL, &pg),
             SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 0, 8, NULL, &pg), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 0, 0, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_new(NULL, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(pg == NULL);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_next(pg, NULL, &n, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_next(pg, &json, &n, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_paginator_free((smithycurl_paginator *)c), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_free(NULL), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_client_free(c);
}

// ---- smithycurl_paginator_next_queued ----

// qnext takes one completion of q (waiting up to 10 s, times slow); the
// result goes to *r (the caller frees it). SMITHYCURL_E_END of queue_next
// (nothing in time) shows as -1.
static int qnext(smithycurl_queue *q, void *want_tag, smithycurl_result **r) {
    void *tag = NULL;
    smithycurl_code code = SMITHYCURL_OK;
    *r = NULL;
    int rc = smithycurl_queue_next(q, 10000L * slow, &tag, &code, r);
    if (rc != SMITHYCURL_OK) return -1;
    CHECK(tag == want_tag);
    return code;
}

// Pages and items of the Todos service's ListTodos on a completion queue:
// in order, then E_END with a NULL result; a failure with its result; one
// next at a time; cancel token, paginator free and queue free while a next
// is pending (a server that never answers): CANCELLED, once.
void test_async_paginator(void) {
    const char *url = need_env("SMITHYCURL_TODO_URL");
    if (!url) return;
    smithycurl_client *c = todo_client(url);
    add_todos(c, "qpg");
    smithycurl_queue *q = NULL;
    CHECK_RC(smithycurl_queue_new(&q), SMITHYCURL_OK);
    smithycurl_paginator *pg = NULL;
    smithycurl_result *r = NULL;
    const char *json = NULL;
    size_t n = 0;

    // Pages in order, each checked against the blocking paginator's.
    smithycurl_paginator *sync = NULL;
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 2, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 2, 0, NULL, &sync), SMITHYCURL_OK);
    int pages = 0, code, seen = 0;
    for (; pages < 100; pages++) {
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, &pages), SMITHYCURL_OK);
        code = qnext(q, &pages, &r);
        const char *want = NULL;
        smithycurl_result *e = NULL;
        int wrc = smithycurl_paginator_next(sync, &want, NULL, &e);
        smithycurl_result_free(e);
        if (code != SMITHYCURL_OK) break;
        CHECK_RC(wrc, SMITHYCURL_OK);
        CHECK_RC(smithycurl_result_output(r, &json, &n), SMITHYCURL_OK);
        CHECK(json && strlen(json) == n && want && strcmp(json, want) == 0);
        for (const char *p = json; (p = strstr(p, "\"title\":\"qpg-")); p++) seen++;
        smithycurl_result_free(r);
    }
    CHECK_RC(code, SMITHYCURL_E_END);
    CHECK(r == NULL && pages >= 3 && seen == 5);
    CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
    CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_END);
    CHECK(r == NULL);
    smithycurl_paginator_free(pg);
    smithycurl_paginator_free(sync);

    // Items, cut at max_items.
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", NULL, 0, 3, 2, SMITHYCURL_PAGINATE_ITEMS, NULL, &pg),
             SMITHYCURL_OK);
    int items = 0;
    while (items < 100) {
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
        if ((code = qnext(q, NULL, &r)) != SMITHYCURL_OK) break;
        items++;
        CHECK_RC(smithycurl_result_output(r, &json, &n), SMITHYCURL_OK);
        CHECK(json && json[0] == '{');
        smithycurl_result_free(r);
    }
    CHECK_RC(code, SMITHYCURL_E_END);
    CHECK(items == 3 && r == NULL);
    smithycurl_paginator_free(pg);

    // A failure, with its result; then the pages end.
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{\"limit\": \"2\"}", 14, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
    CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_USAGE);
    CHECK(r != NULL);
    CHECK_CONTAINS(message_of(r), "limit");
    smithycurl_result_free(r);
    CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
    CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_END);
    smithycurl_paginator_free(pg);

    // Bad arguments.
    CHECK_RC(smithycurl_paginator_new(c, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
    CHECK_RC(smithycurl_paginator_next_queued(NULL, q, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_next_queued(pg, NULL, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_next_queued((smithycurl_paginator *)q, q, NULL), SMITHYCURL_E_INVALID_HANDLE);
    CHECK_RC(smithycurl_paginator_next_queued(pg, (smithycurl_queue *)pg, NULL), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_paginator_free(pg);
    CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_E_INVALID_HANDLE);
    smithycurl_client_free(c);

    // Cancelled while pending, on a server that never answers.
    struct hole hole;
    if (hole_open(&hole) == 0) {
        smithycurl_client *hc = todo_client(hole.url);
        smithycurl_cancel_token *tok = NULL;
        void *vtag = NULL;
        smithycurl_code qcode = SMITHYCURL_OK;
        CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
        // The cancel token: CANCELLED once; then the pages end.
        CHECK_RC(smithycurl_paginator_new(hc, "ListTodos", "{}", 2, 0, 0, 0, tok, &pg), SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, &hole), SMITHYCURL_OK);
        // One next at a time: another one, queued or blocking, is refused.
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_E_USAGE);
        smithycurl_result *e = NULL;
        CHECK_RC(smithycurl_paginator_next(pg, &json, &n, &e), SMITHYCURL_E_USAGE);
        CHECK(e == NULL && json == NULL);
        usleep(50 * 1000);
        CHECK_RC(smithycurl_cancel_token_cancel(tok), SMITHYCURL_OK);
        CHECK_RC(qnext(q, &hole, &r), SMITHYCURL_E_CANCELLED);
        smithycurl_result_free(r);
        CHECK_RC(smithycurl_queue_next(q, 100, &vtag, &qcode, &r), SMITHYCURL_E_END); // once
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, NULL), SMITHYCURL_OK);
        CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_END);
        smithycurl_paginator_free(pg);
        smithycurl_cancel_token_free(tok);
        // Freeing the paginator: CANCELLED once, nothing leaks.
        CHECK_RC(smithycurl_paginator_new(hc, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_next_queued(pg, q, &hole), SMITHYCURL_OK);
        usleep(50 * 1000);
        CHECK_RC(smithycurl_paginator_free(pg), SMITHYCURL_OK);
        CHECK_RC(qnext(q, &hole, &r), SMITHYCURL_E_CANCELLED);
        CHECK_CONTAINS(message_of(r), "cancelled");
        smithycurl_result_free(r);
        CHECK_RC(smithycurl_queue_next(q, 100, &vtag, &qcode, &r), SMITHYCURL_E_END);
        // Freeing the queue: the pending next is cancelled, its result freed
        // by the library; the paginator's next works on another queue.
        smithycurl_queue *q2 = NULL;
        CHECK_RC(smithycurl_queue_new(&q2), SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_new(hc, "ListTodos", "{}", 2, 0, 0, 0, NULL, &pg), SMITHYCURL_OK);
        CHECK_RC(smithycurl_paginator_next_queued(pg, q2, NULL), SMITHYCURL_OK);
        usleep(50 * 1000);
        CHECK_RC(smithycurl_queue_free(q2), SMITHYCURL_OK);
        int left = 100;
        while (smithycurl_paginator_next_queued(pg, q, NULL) == SMITHYCURL_E_USAGE && left-- > 0) usleep(10 * 1000);
        CHECK(left >= 0);
        CHECK_RC(qnext(q, NULL, &r), SMITHYCURL_E_END); // the cancelled next ended the pages
        smithycurl_paginator_free(pg);
        smithycurl_client_free(hc);
        hole_close(&hole);
    }
    CHECK_RC(smithycurl_queue_free(q), SMITHYCURL_OK);
}
