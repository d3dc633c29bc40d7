// The typed C client (smithycurl gen c) against the JSON C path
// (smithycurl_call with JSON text) on the Todos example service on loopback
// (make bench-typed-c): CPU per call of this process (every thread, the Go
// runtime included; the server is another process), the same calls on one
// client, the two paths alternating in short rounds, medians.
//
//   bench-c-typed <todo-url> <todo-model-dir> <calls>
//
// GetTodo: a one-item output; ListTodos: 20 items. The JSON path writes its
// input with snprintf and gets the output as text (it does not parse it);
// the typed path writes the input from a struct and returns the output as
// structs (parsed, allocated, then freed): the whole cost of each to a
// program.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "smithycurl.h"
// The generated client is compiled into this file (not linked) so that the
// C codec's cost can be timed alone, through its static reader.
#include "todo.c"

#define ROUNDS 7

static int failures;

static void json_get(smithycurl_client *c, const char *id, int calls) {
    char in[128];
    for (int i = 0; i < calls; i++) {
        smithycurl_result *r = NULL;
        const char *out;
        size_t n;
        int len = snprintf(in, sizeof in, "{\"id\": \"%s\"}", id);
        if (smithycurl_call(c, "GetTodo", in, (size_t)len, NULL, &r) != SMITHYCURL_OK ||
            smithycurl_result_output(r, &out, &n) != SMITHYCURL_OK || n < 10)
            failures++;
        smithycurl_result_free(r);
    }
}

static void typed_get(smithycurl_client *c, const char *id, int calls) {
    todo_get_todo_input in;
    todo_get_todo_input_init(&in);
    in.id = (char *)id;
    for (int i = 0; i < calls; i++) {
        todo_todo_item *out = NULL;
        if (todo_get_todo(c, &in, &out, NULL) != SMITHYCURL_OK || !out->id) failures++;
        todo_todo_item_free(out);
    }
}

static void json_list(smithycurl_client *c, const char *unused, int calls) {
    (void)unused;
    char in[64];
    for (int i = 0; i < calls; i++) {
        smithycurl_result *r = NULL;
        const char *out;
        size_t n;
        int len = snprintf(in, sizeof in, "{\"limit\": %d}", 20);
        if (smithycurl_call(c, "ListTodos", in, (size_t)len, NULL, &r) != SMITHYCURL_OK ||
            smithycurl_result_output(r, &out, &n) != SMITHYCURL_OK || n < 100)
            failures++;
        smithycurl_result_free(r);
    }
}

static void typed_list(smithycurl_client *c, const char *unused, int calls) {
    (void)unused;
    todo_list_todos_input in;
    todo_list_todos_input_init(&in);
    in.has_limit = 1;
    in.limit = 20;
    for (int i = 0; i < calls; i++) {
        todo_list_todos_output *out = NULL;
        if (todo_list_todos(c, &in, &out, NULL) != SMITHYCURL_OK || out->items.count != 20) failures++;
        todo_list_todos_output_free(out);
    }
}

typedef void (*loop_fn)(smithycurl_client *, const char *, int);

static void compare(smithycurl_client *c, const char *name, loop_fn json, loop_fn typed, const char *arg,
                    int calls) {
    double cj[ROUNDS], ct[ROUNDS], wj[ROUNDS], wt[ROUNDS];
    json(c, arg, calls / 10 + 1); // warm up both
    typed(c, arg, calls / 10 + 1);
    // Short rounds, the order swapped every round, so that the load of a
    // shared machine falls on both sides alike.
    for (int r = 0; r < ROUNDS; r++) {
        for (int side = 0; side < 2; side++) {
            int typed_side = (r + side) % 2;
            double w0 = now_s(), c0 = cpu_s();
            (typed_side ? typed : json)(c, arg, calls);
            double w = (now_s() - w0) / calls * 1e6, cpu = (cpu_s() - c0) / calls * 1e6;
            if (typed_side) ct[r] = cpu, wt[r] = w;
            else cj[r] = cpu, wj[r] = w;
        }
    }
    double mj = median(cj, ROUNDS), mt = median(ct, ROUNDS);
    printf("%-10s JSON path  %7.1f us CPU/call  %7.1f us wall/call\n", name, mj, median(wj, ROUNDS));
    printf("%-10s typed      %7.1f us CPU/call  %7.1f us wall/call   typed/JSON CPU: %.2fx\n", name, mt,
           median(wt, ROUNDS), mt / mj);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s <todo-url> <todo-model-dir> <calls>\n", argv[0]);
        return 2;
    }
    int calls = atoi(argv[3]);
    smithycurl_loader *ld;
    smithycurl_model *m;
    smithycurl_client *c;
    smithycurl_loader_new(&ld);
    smithycurl_loader_add_path(ld, argv[2]);
    if (smithycurl_loader_load(ld, &m) != SMITHYCURL_OK || smithycurl_client_new(m, NULL, argv[1], NULL, &c)) {
        fprintf(stderr, "cannot load %s or connect to %s\n", argv[2], argv[1]);
        return 1;
    }
    smithycurl_loader_free(ld);
    smithycurl_model_free(m);

    // 20 items to list, one to get.
    todo_create_todo_input in;
    todo_todo_item *item = NULL;
    const char *tags[3] = {"home", "errand", "weekly"};
    todo_create_todo_input_init(&in);
    in.title = "a to-do item of a realistic length";
    in.tags.items = tags;
    in.tags.count = 3;
    for (int i = 0; i < 20; i++) {
        todo_todo_item_free(item);
        item = NULL;
        if (todo_create_todo(c, &in, &item, NULL) != SMITHYCURL_OK) {
            fprintf(stderr, "CreateTodo failed\n");
            return 1;
        }
    }
    printf("typed C client vs JSON C path, %d calls x %d rounds, Todos on loopback (medians)\n", calls / ROUNDS, ROUNDS);
    compare(c, "GetTodo", json_get, typed_get, item->id, calls / ROUNDS + 1);
    compare(c, "ListTodos", json_list, typed_list, NULL, calls / ROUNDS + 1);
    // The C side alone: reading the 20-item ListTodos output into structs and
    // freeing them, what the typed path adds to a call.
    {
        smithycurl_result *r = NULL;
        const char *json;
        size_t len;
        int n = calls * 5;
        smithycurl_call(c, "ListTodos", "{\"limit\": 20}", 13, NULL, &r);
        if (smithycurl_result_output(r, &json, &len) == SMITHYCURL_OK) {
            double c0 = cpu_s();
            for (int i = 0; i < n; i++) {
                smithycurl_json_reader rd;
                todo_list_todos_output *o = todo_list_todos_output_new();
                smithycurl_json_reader_init(&rd, json, len);
                if (!o || todo_list_todos_output__r(&rd, o) != SMITHYCURL_OK) failures++;
                todo_list_todos_output_free(o);
            }
            printf("C codec alone: ListTodos output (%zu bytes, 20 items) read into structs and freed: %.1f us\n",
                   len, (cpu_s() - c0) / n * 1e6);
        }
        smithycurl_result_free(r);
    }
    todo_todo_item_free(item);
    smithycurl_client_free(c);
    if (failures) fprintf(stderr, "%d calls failed\n", failures);
    return failures != 0;
}
