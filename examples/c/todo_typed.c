// The Todos service (examples/todo) through a typed C client written by
// `smithycurl gen c`: create an item, read it back, list the items, then
// ask for an item that does not exist and read the modeled TodoNotFound.
//
//   smithycurl gen c --model examples/todo -o gen --prefix todo   # gen/todo.h, gen/todo.c
//   cc todo_typed.c gen/todo.c -Igen $(pkg-config --cflags --libs smithycurl) -o todo_typed
//   ./todo_typed ENDPOINT [model-path]
//
// `make examples` does this into build/ (the client is generated at build
// time); model-path defaults to examples/todo (run from the repository root).
#include <stdio.h>
#include <stdlib.h>

#include <smithycurl.h>

#include "todo.h"

// fail prints what a failed call returned and frees it; returns 1.
static int fail(const char *op, int rc, smithycurl_result *err) {
    const char *msg = "";
    if (err) smithycurl_result_error_message(err, &msg);
    fprintf(stderr, "%s: %s: %s\n", op, smithycurl_strerror(rc), msg);
    smithycurl_result_free(err);
    return 1;
}

static const char *priority_name(todo_priority_value p) {
    switch (p.value) {
    case TODO_PRIORITY_LOW: return "LOW";
    case TODO_PRIORITY_NORMAL: return "NORMAL";
    case TODO_PRIORITY_HIGH: return "HIGH";
    default: return p.unknown ? p.unknown : "?";
    }
}

static int run(smithycurl_client *client) {
    todo_create_todo_input in;
    todo_get_todo_input get;
    todo_list_todos_input list;
    todo_todo_item *item = NULL, *got = NULL;
    todo_list_todos_output *page = NULL;
    smithycurl_result *err = NULL;
    const char *tags[2] = {"home", "shopping"};
    size_t i;
    int rc;

    // Create: a required string, an enum, a list of strings.
    todo_create_todo_input_init(&in); // members absent, the model's defaults set
    in.title = "buy milk";
    in.priority.value = TODO_PRIORITY_HIGH;
    in.tags.items = tags;
    in.tags.count = 2;
    if ((rc = todo_create_todo(client, &in, &item, &err)) != SMITHYCURL_OK) return fail("CreateTodo", rc, err);
    printf("CreateTodo: id %s, title \"%s\", priority %s, %zu tags, created at %lld\n", item->id, item->title,
           priority_name(item->priority), item->tags.count, (long long)item->created.seconds);

    // Get: the id as an HTTP label.
    todo_get_todo_input_init(&get);
    get.id = item->id;
    if ((rc = todo_get_todo(client, &get, &got, &err)) != SMITHYCURL_OK) {
        todo_todo_item_free(item);
        return fail("GetTodo", rc, err);
    }
    printf("GetTodo: \"%s\", done: %s\n", got->title, got->done ? "yes" : "no");
    todo_todo_item_free(got);
    todo_todo_item_free(item); // frees everything it points to

    // List: a query parameter; the output is a list of structures.
    todo_list_todos_input_init(&list);
    list.has_limit = 1;
    list.limit = 10;
    if ((rc = todo_list_todos(client, &list, &page, &err)) != SMITHYCURL_OK) return fail("ListTodos", rc, err);
    printf("ListTodos: %zu items\n", page->items.count);
    for (i = 0; i < page->items.count; i++)
        printf("  - %s [%s]\n", page->items.items[i].title, priority_name(page->items.items[i].priority));
    todo_list_todos_output_free(page);

    // A modeled error: TodoNotFound, read as its typed struct.
    get.id = "00000000-0000-4000-8000-000000000000";
    got = NULL;
    rc = todo_get_todo(client, &get, &got, &err);
    if (rc == SMITHYCURL_E_SERVICE && todo_error_which(err) == TODO_ERROR_TODO_NOT_FOUND) {
        todo_todo_not_found *nf = NULL;
        int status = 0;
        smithycurl_result_http_status(err, &status);
        if (todo_error_as_todo_not_found(err, &nf) == SMITHYCURL_OK) {
            printf("GetTodo (missing id): TodoNotFound, HTTP %d: %s\n", status, nf->message);
            todo_todo_not_found_free(nf);
        }
        smithycurl_result_free(err);
        return 0;
    }
    todo_todo_item_free(got);
    if (rc == SMITHYCURL_OK) {
        fprintf(stderr, "GetTodo (missing id): succeeded, want TodoNotFound\n");
        return 1;
    }
    return fail("GetTodo (missing id)", rc, err);
}

int main(int argc, char **argv) {
    const char *model_path = argc > 2 ? argv[2] : "examples/todo";
    smithycurl_loader *loader = NULL;
    smithycurl_model *model = NULL;
    smithycurl_options *opts = NULL;
    smithycurl_client *client = NULL;
    int rc, failed;
    if (argc < 2) {
        fprintf(stderr, "usage: %s ENDPOINT [model-path]\n", argv[0]);
        return 2;
    }

    // The model is loaded at run time, as for the JSON API; the generated
    // code only turns the typed values into the calls' JSON and back.
    smithycurl_loader_new(&loader);
    if (smithycurl_loader_add_path(loader, model_path) != SMITHYCURL_OK ||
        smithycurl_loader_load(loader, &model) != SMITHYCURL_OK) {
        char *msg = NULL;
        smithycurl_loader_errmsg(loader, &msg);
        fprintf(stderr, "%s\n", msg);
        smithycurl_free(msg);
        smithycurl_loader_free(loader);
        return 1;
    }
    smithycurl_loader_free(loader);

    smithycurl_options_new(&opts);
    smithycurl_options_set_timeout_ms(opts, 10000);
    rc = smithycurl_client_new(model, "smithycurl.examples.todo#Todos", argv[1], opts, &client);
    smithycurl_options_free(opts);
    smithycurl_model_free(model);
    if (rc != SMITHYCURL_OK) {
        fprintf(stderr, "client: %s\n", smithycurl_strerror(rc));
        return 1;
    }
    failed = run(client);
    smithycurl_client_free(client);
    return failed;
}
