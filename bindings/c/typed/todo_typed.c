/* The Todos example service (examples/todo) through its generated typed C
 * client (smithycurl gen c --prefix todo). Run by codegen/c's tests
 * with SMITHYCURL_TODO_URL and SMITHYCURL_TODO_MODEL set. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "todo.h"

static const char *missing_id = "00000000-0000-0000-0000-000000000000";

static void test_null_arguments(smithycurl_client *c) {
    todo_create_todo_input in;
    todo_todo_item *out = NULL;
    smithycurl_result *err = (smithycurl_result *)&in; /* must be reset to NULL */
    todo_create_todo_input_init(&in);
    CHECK_RC(todo_create_todo(c, NULL, &out, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(err == NULL);
    CHECK_RC(todo_create_todo(c, &in, NULL, &err), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(todo_create_todo(c, &in, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    in.title = "x";
    CHECK_RC(todo_create_todo(NULL, &in, &out, &err), SMITHYCURL_E_INVALID_HANDLE);
    CHECK(out == NULL && err == NULL);
    /* NULL is ignored by every _free and _clear. */
    todo_todo_item_free(NULL);
    todo_create_todo_input_clear(NULL);
    todo_tags_clear(NULL);
    CHECK_RC(todo_tags_alloc(NULL, 1), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK(todo_error_which(NULL) == TODO_ERROR_NONE);
    CHECK_RC(todo_error_as_todo_not_found(NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
}

static void test_required(smithycurl_client *c) {
    todo_create_todo_input in;
    todo_todo_item *out = NULL;
    smithycurl_result *err = NULL;
    const char *msg = "";
    smithycurl_error_kind kind = SMITHYCURL_KIND_NONE;
    int attempts = -1;
    todo_create_todo_input_init(&in); /* title (required) left NULL */
    CHECK_RC(todo_create_todo(c, &in, &out, &err), SMITHYCURL_E_VALIDATION);
    CHECK(out == NULL && err != NULL);
    smithycurl_result_error_message(err, &msg);
    CHECK(strstr(msg, "title") != NULL);
    smithycurl_result_error_kind(err, &kind);
    CHECK(kind == SMITHYCURL_KIND_VALIDATION);
    smithycurl_result_attempts(err, &attempts);
    CHECK(attempts == 0); /* nothing was sent */
    CHECK(todo_error_which(err) == TODO_ERROR_OTHER);
    smithycurl_result_free(err);
    /* Without err: the result is freed inside. */
    CHECK_RC(todo_create_todo(c, &in, &out, NULL), SMITHYCURL_E_VALIDATION);
}

static void test_crud(smithycurl_client *c) {
    todo_create_todo_input in;
    todo_get_todo_input get;
    todo_update_todo_input upd;
    todo_list_todos_input list;
    todo_delete_todo_input del;
    todo_todo_item *item = NULL, *got = NULL, *updated = NULL, *plain = NULL;
    todo_list_todos_output *page = NULL;
    todo_todo_not_found *nf = NULL;
    todo_too_many_todos *tm = NULL;
    smithycurl_result *err = NULL;
    const char *shape = "";
    int status = 0, rc;
    size_t i;
    const char *tag_a = "home", *tag_b = "urgent"; /* literals: inputs are const char * */
    const char *tags[2];

    /* Create: an enum, a list. */
    todo_create_todo_input_init(&in);
    CHECK(in.priority.value == TODO_PRIORITY_NORMAL); /* the model's default */
    in.title = "buy milk";
    in.priority.value = TODO_PRIORITY_HIGH;
    /* (due is left out: the example server reads only RFC 3339 dates, and
       the model sends this one as epoch seconds; the kinds test covers
       timestamps.) */
    tags[0] = tag_a;
    tags[1] = tag_b;
    in.tags.items = tags;
    in.tags.count = 2;
    rc = todo_create_todo(c, &in, &item, &err);
    CHECK_RC(rc, SMITHYCURL_OK);
    if (rc != SMITHYCURL_OK) {
        print_err(err);
        smithycurl_result_free(err);
        return;
    }
    CHECK(err == NULL);
    CHECK(item->id && strlen(item->id) == 36);
    CHECK(streq(item->title, "buy milk"));
    CHECK(item->priority.value == TODO_PRIORITY_HIGH && item->priority.unknown == NULL);
    CHECK(item->done == 0);
    CHECK(!item->has_due);
    CHECK(item->tags.count == 2 && streq(item->tags.items[0], "home") && streq(item->tags.items[1], "urgent"));
    CHECK(item->created.seconds > 1700000000);

    /* The default priority is sent as absent, and comes back as NORMAL. */
    todo_create_todo_input_init(&in);
    in.title = "plain";
    CHECK_RC(todo_create_todo(c, &in, &plain, NULL), SMITHYCURL_OK);
    CHECK(plain && plain->priority.value == TODO_PRIORITY_NORMAL && !plain->has_due && plain->tags.items == NULL);

    /* Get and update. */
    todo_get_todo_input_init(&get);
    get.id = item->id;
    CHECK_RC(todo_get_todo(c, &get, &got, NULL), SMITHYCURL_OK);
    CHECK(got && streq(got->id, item->id) && got->created.seconds == item->created.seconds);
    todo_update_todo_input_init(&upd);
    upd.id = item->id;
    upd.has_done = 1;
    upd.done = 1;
    upd.has_priority = 1;
    upd.priority.value = TODO_PRIORITY_LOW;
    CHECK_RC(todo_update_todo(c, &upd, &updated, NULL), SMITHYCURL_OK);
    CHECK(updated && updated->done == 1 && updated->priority.value == TODO_PRIORITY_LOW);
    CHECK(updated && streq(updated->title, "buy milk"));

    /* List: a list of structures, a query parameter. */
    todo_list_todos_input_init(&list);
    list.has_limit = 1;
    list.limit = 100;
    CHECK_RC(todo_list_todos(c, &list, &page, NULL), SMITHYCURL_OK);
    CHECK(page && page->items.count >= 2);
    for (i = 0; page && i < page->items.count; i++)
        if (streq(page->items.items[i].id, item->id)) CHECK(page->items.items[i].done == 1);

    /* Delete (no output), then a modeled error. */
    todo_delete_todo_input_init(&del);
    del.id = item->id;
    CHECK_RC(todo_delete_todo(c, &del, NULL), SMITHYCURL_OK);
    get.id = item->id;
    todo_todo_item_free(got);
    got = NULL;
    CHECK_RC(todo_get_todo(c, &get, &got, &err), SMITHYCURL_E_SERVICE);
    CHECK(got == NULL && err != NULL);
    CHECK(todo_error_which(err) == TODO_ERROR_TODO_NOT_FOUND);
    smithycurl_result_error_shape(err, &shape);
    CHECK(streq(shape, "smithycurl.examples.todo#TodoNotFound"));
    smithycurl_result_http_status(err, &status);
    CHECK(status == 404);
    CHECK_RC(todo_error_as_too_many_todos(err, &tm), SMITHYCURL_E_NOT_FOUND);
    CHECK(tm == NULL);
    CHECK_RC(todo_error_as_todo_not_found(err, &nf), SMITHYCURL_OK);
    CHECK(nf && nf->message && nf->message[0]);
    todo_todo_not_found_free(nf);
    smithycurl_result_free(err);
    err = NULL;

    /* A label that breaks @pattern is sent (constraint checks are off by
     * default, as the Smithy spec says for clients): the server refuses it. */
    get.id = (char *)missing_id + 1;
    CHECK_RC(todo_get_todo(c, &get, &got, NULL), SMITHYCURL_E_SERVICE);
    get.id = (char *)missing_id;
    CHECK_RC(todo_get_todo(c, &get, &got, NULL), SMITHYCURL_E_SERVICE);

    todo_todo_item_free(item);
    todo_todo_item_free(plain);
    todo_todo_item_free(updated);
    todo_list_todos_output_free(page);
}

/* Values built on the heap, freed with one call each. */
static void test_ownership(void) {
    todo_create_todo_input *in = todo_create_todo_input_new();
    size_t i;
    char *s, *tag;
    CHECK(in != NULL);
    if (!in) return;
    s = malloc(4);
    memcpy(s, "abc", 4);
    in->title = s; /* the input owns it: _free frees it */
    CHECK_RC(todo_tags_alloc(&in->tags, 3), SMITHYCURL_OK);
    CHECK(in->tags.count == 3 && in->tags.items[2] == NULL);
    for (i = 0; i < in->tags.count; i++) {
        in->tags.items[i] = tag = malloc(2);
        tag[0] = (char)('a' + i);
        tag[1] = 0;
    }
    CHECK_RC(todo_tags_alloc(&in->tags, 0), SMITHYCURL_OK); /* frees the old items */
    CHECK(in->tags.items != NULL && in->tags.count == 0);  /* an empty list, not absent */
    s = malloc(7);
    memcpy(s, "URGENT", 7);
    in->priority.unknown = s;
    todo_create_todo_input_free(in);
}

/* Completions of the asynchronous calls, gathered under a lock (they run on
   library threads). */
#define ASYNC_N 40
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;                    /* completions so far */
    int rc[ASYNC_N + 8];         /* each call's rc, by its index (user data) */
    int calls[ASYNC_N + 8];      /* completions of each call: exactly one */
    todo_todo_item *out[ASYNC_N + 8];
    smithycurl_result *err[ASYNC_N + 8];
} async_state = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {0}, {0}, {0}, {0}};

static void async_record(void *ud, int rc, todo_todo_item *out, smithycurl_result *err) {
    int i = (int)(size_t)ud;
    pthread_mutex_lock(&async_state.mu);
    async_state.rc[i] = rc;
    async_state.calls[i]++;
    async_state.out[i] = out;
    async_state.err[i] = err;
    async_state.done++;
    pthread_cond_broadcast(&async_state.cv);
    pthread_mutex_unlock(&async_state.mu);
}

static void async_deleted(void *ud, int rc, smithycurl_result *err) { async_record(ud, rc, NULL, err); }

/* Waits (at most 30 s) until n completions have come in all. */
static int async_wait(int n) {
    struct timespec until;
    int ok = 1;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 30;
    pthread_mutex_lock(&async_state.mu);
    while (async_state.done < n && ok)
        ok = pthread_cond_timedwait(&async_state.cv, &async_state.mu, &until) == 0;
    ok = async_state.done >= n;
    pthread_mutex_unlock(&async_state.mu);
    return ok;
}

/* The typed asynchronous calls: outputs, typed errors, validation, cancel,
   refused arguments, and ASYNC_N calls in flight at once. */
static void test_async(smithycurl_client *c) {
    todo_create_todo_input in;
    todo_get_todo_input get;
    todo_delete_todo_input del;
    todo_todo_not_found *nf = NULL;
    smithycurl_cancel_token *tok = NULL;
    char title[ASYNC_N][24];
    int i, j, n = 0, distinct = 1;

    /* Refused at once: the completion is never called. */
    todo_create_todo_input_init(&in);
    CHECK_RC(todo_create_todo_async(c, NULL, NULL, async_record, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(todo_create_todo_async(c, &in, NULL, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    in.title = "x";
    CHECK_RC(todo_create_todo_async(NULL, &in, NULL, async_record, NULL), SMITHYCURL_E_INVALID_HANDLE);

    /* ASYNC_N creates in flight at once, each output its own. */
    for (i = 0; i < ASYNC_N; i++) {
        snprintf(title[i], sizeof title[i], "async %d", i);
        todo_create_todo_input_init(&in);
        in.title = title[i];
        CHECK_RC(todo_create_todo_async(c, &in, NULL, async_record, (void *)(size_t)i), SMITHYCURL_OK);
    }
    n += ASYNC_N;
    /* A missing item: the modeled error, typed. */
    todo_get_todo_input_init(&get);
    get.id = (char *)missing_id;
    CHECK_RC(todo_get_todo_async(c, &get, NULL, async_record, (void *)(size_t)ASYNC_N), SMITHYCURL_OK);
    /* A missing required member: accepted, then refused before anything
       is sent, as the call would. */
    todo_create_todo_input_init(&in);
    CHECK_RC(todo_create_todo_async(c, &in, NULL, async_record, (void *)(size_t)(ASYNC_N + 1)), SMITHYCURL_OK);
    /* A cancelled token: SMITHYCURL_E_CANCELLED. */
    CHECK_RC(smithycurl_cancel_token_new(&tok), SMITHYCURL_OK);
    smithycurl_cancel_token_cancel(tok);
    in.title = "never";
    CHECK_RC(todo_create_todo_async(c, &in, tok, async_record, (void *)(size_t)(ASYNC_N + 2)), SMITHYCURL_OK);
    n += 3;
    CHECK(async_wait(n));

    pthread_mutex_lock(&async_state.mu);
    for (i = 0; i < ASYNC_N; i++) {
        todo_todo_item *it = async_state.out[i];
        CHECK(async_state.calls[i] == 1);
        CHECK_RC(async_state.rc[i], SMITHYCURL_OK);
        CHECK(it && streq(it->title, title[i]) && it->id && strlen(it->id) == 36 && async_state.err[i] == NULL);
        for (j = 0; it && j < i; j++)
            if (async_state.out[j] && streq(async_state.out[j]->id, it->id)) distinct = 0;
    }
    CHECK(distinct);
    CHECK(async_state.calls[ASYNC_N] == 1 && async_state.out[ASYNC_N] == NULL);
    CHECK_RC(async_state.rc[ASYNC_N], SMITHYCURL_E_SERVICE);
    CHECK(todo_error_which(async_state.err[ASYNC_N]) == TODO_ERROR_TODO_NOT_FOUND);
    CHECK_RC(todo_error_as_todo_not_found(async_state.err[ASYNC_N], &nf), SMITHYCURL_OK);
    todo_todo_not_found_free(nf);
    CHECK_RC(async_state.rc[ASYNC_N + 1], SMITHYCURL_E_VALIDATION);
    CHECK(async_state.err[ASYNC_N + 1] != NULL && async_state.out[ASYNC_N + 1] == NULL);
    CHECK_RC(async_state.rc[ASYNC_N + 2], SMITHYCURL_E_CANCELLED);
    pthread_mutex_unlock(&async_state.mu);
    smithycurl_cancel_token_free(tok);

    /* An operation without output: deletes of what was created. */
    for (i = 0; i < ASYNC_N; i++) {
        if (!async_state.out[i]) continue;
        todo_delete_todo_input_init(&del);
        del.id = async_state.out[i]->id;
        CHECK_RC(todo_delete_todo_async(c, &del, NULL, async_deleted, (void *)(size_t)(ASYNC_N + 3)), SMITHYCURL_OK);
        n++;
    }
    CHECK(async_wait(n));
    CHECK_RC(async_state.rc[ASYNC_N + 3], SMITHYCURL_OK);
    CHECK(async_state.err[ASYNC_N + 3] == NULL);
    for (i = 0; i < ASYNC_N + 8; i++) {
        todo_todo_item_free(async_state.out[i]);
        smithycurl_result_free(async_state.err[i]);
    }
}

int main(void) {
    const char *url = getenv("SMITHYCURL_TODO_URL"), *dir = getenv("SMITHYCURL_TODO_MODEL");
    smithycurl_model *m;
    smithycurl_client *c = NULL;
    if (!url || !dir) {
        fprintf(stderr, "set SMITHYCURL_TODO_URL and SMITHYCURL_TODO_MODEL\n");
        return 2;
    }
    if (!(m = load_model(dir))) return 2;
    CHECK_RC(smithycurl_client_new(m, NULL, url, NULL, &c), SMITHYCURL_OK);
    smithycurl_model_free(m);
    test_null_arguments(c);
    test_required(c);
    test_crud(c);
    test_ownership();
    test_async(c);
    smithycurl_client_free(c);
    return check_done();
}
