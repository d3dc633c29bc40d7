/* The generated Todos client (smithycurl gen c) against a mock of the
 * service that the program starts itself (smithycurl_mock_start) with
 * testing/fixtures/todo.json, the fixtures of the C, Go, Python and CLI
 * tests: every operation and every modeled error, typed. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "todo.h"

static const char todo_id[] = "0f8fad5b-d9cb-469f-a165-70867728950e";
static const char other_id[] = "00000000-0000-4000-8000-000000000000";

/* Checks that a call failed with TodoNotFound, 404, "no such item"; frees err. */
static void check_not_found(int rc, smithycurl_result *err) {
    todo_todo_not_found *nf = NULL;
    int status = 0;
    CHECK_RC(rc, SMITHYCURL_E_SERVICE);
    if (rc != SMITHYCURL_E_SERVICE) print_err(err);
    CHECK(todo_error_which(err) == TODO_ERROR_TODO_NOT_FOUND);
    smithycurl_result_http_status(err, &status);
    CHECK(status == 404);
    CHECK_RC(todo_error_as_todo_not_found(err, &nf), SMITHYCURL_OK);
    CHECK(nf && streq(nf->message, "no such item"));
    todo_todo_not_found_free(nf);
    smithycurl_result_free(err);
}

static void test_every_operation(smithycurl_client *c) {
    todo_create_todo_input in;
    todo_get_todo_input get;
    todo_update_todo_input upd;
    todo_list_todos_input list;
    todo_delete_todo_input del;
    todo_todo_item *item = NULL;
    todo_list_todos_output *page = NULL;
    todo_too_many_todos *tm = NULL;
    smithycurl_result *err = NULL;
    int rc;

    todo_create_todo_input_init(&in);
    in.title = "milk";
    CHECK_RC(todo_create_todo(c, &in, &item, NULL), SMITHYCURL_OK);
    CHECK(item && streq(item->id, todo_id) && item->priority.value == TODO_PRIORITY_HIGH && item->tags.count == 1);
    todo_todo_item_free(item);
    item = NULL;
    in.title = "full";
    CHECK_RC(todo_create_todo(c, &in, &item, &err), SMITHYCURL_E_SERVICE);
    CHECK(todo_error_which(err) == TODO_ERROR_TOO_MANY_TODOS);
    CHECK_RC(todo_error_as_too_many_todos(err, &tm), SMITHYCURL_OK);
    CHECK(tm && tm->has_limit && tm->limit == 3);
    todo_too_many_todos_free(tm);
    smithycurl_result_free(err);
    err = NULL;

    todo_get_todo_input_init(&get);
    get.id = todo_id;
    CHECK_RC(todo_get_todo(c, &get, &item, NULL), SMITHYCURL_OK);
    CHECK(item && streq(item->title, "milk") && item->created.seconds == 1714979289);
    todo_todo_item_free(item);
    item = NULL;
    get.id = other_id;
    rc = todo_get_todo(c, &get, &item, &err);
    check_not_found(rc, err);
    err = NULL;

    todo_list_todos_input_init(&list);
    CHECK_RC(todo_list_todos(c, &list, &page, NULL), SMITHYCURL_OK);
    CHECK(page && page->items.count == 1 && streq(page->items.items[0].id, todo_id));
    todo_list_todos_output_free(page);
    page = NULL;
    list.has_done = 1;
    list.done = 1;
    CHECK_RC(todo_list_todos(c, &list, &page, NULL), SMITHYCURL_OK);
    CHECK(page && page->items.count == 0);
    todo_list_todos_output_free(page);

    todo_update_todo_input_init(&upd);
    upd.id = todo_id;
    upd.has_done = 1;
    upd.done = 1;
    CHECK_RC(todo_update_todo(c, &upd, &item, NULL), SMITHYCURL_OK);
    CHECK(item && item->done == 1 && item->priority.value == TODO_PRIORITY_LOW);
    todo_todo_item_free(item);
    item = NULL;
    upd.id = other_id;
    rc = todo_update_todo(c, &upd, &item, &err);
    check_not_found(rc, err);
    err = NULL;

    todo_delete_todo_input_init(&del);
    del.id = todo_id;
    CHECK_RC(todo_delete_todo(c, &del, NULL), SMITHYCURL_OK);
    del.id = other_id;
    rc = todo_delete_todo(c, &del, &err);
    check_not_found(rc, err);
}

int main(void) {
    const char *dir = getenv("SMITHYCURL_TODO_MODEL"), *fixtures = getenv("SMITHYCURL_TODO_FIXTURES");
    smithycurl_model *m;
    smithycurl_client *c = NULL;
    smithycurl_mock *mock = NULL;
    smithycurl_mock_options o = SMITHYCURL_MOCK_OPTIONS_INIT;
    const char *url = NULL;
    if (!dir || !fixtures) {
        fprintf(stderr, "set SMITHYCURL_TODO_MODEL and SMITHYCURL_TODO_FIXTURES\n");
        return 2;
    }
    if (!(m = load_model(dir))) return 2;
    o.fixtures_file = fixtures;
    CHECK_RC(smithycurl_mock_start(m, NULL, &o, &mock, &url), SMITHYCURL_OK);
    if (mock) CHECK_RC(smithycurl_client_new(m, NULL, url, NULL, &c), SMITHYCURL_OK);
    smithycurl_model_free(m);
    if (c) test_every_operation(c);
    smithycurl_client_free(c);
    CHECK_RC(smithycurl_mock_stop(mock), SMITHYCURL_OK);
    return check_done();
}
