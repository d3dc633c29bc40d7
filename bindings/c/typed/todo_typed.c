/* The Todos example service (examples/todo) through its generated typed C
 * client (smithycurl gen c --prefix todo). Run by internal/gen/cgen's tests
 * with SMITHYCURL_TODO_URL and SMITHYCURL_TODO_MODEL set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char tag_a[] = "home", tag_b[] = "urgent";
    char *tags[2];

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
    CHECK(in != NULL);
    if (!in) return;
    in->title = malloc(4);
    memcpy(in->title, "abc", 4);
    CHECK_RC(todo_tags_alloc(&in->tags, 3), SMITHYCURL_OK);
    CHECK(in->tags.count == 3 && in->tags.items[2] == NULL);
    for (i = 0; i < in->tags.count; i++) {
        in->tags.items[i] = malloc(2);
        in->tags.items[i][0] = (char)('a' + i);
        in->tags.items[i][1] = 0;
    }
    CHECK_RC(todo_tags_alloc(&in->tags, 0), SMITHYCURL_OK); /* frees the old items */
    CHECK(in->tags.items != NULL && in->tags.count == 0);  /* an empty list, not absent */
    in->priority.unknown = malloc(7);
    memcpy(in->priority.unknown, "URGENT", 7);
    todo_create_todo_input_free(in);
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
    smithycurl_client_free(c);
    return check_done();
}
