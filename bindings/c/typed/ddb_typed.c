/* DynamoDB on dynalite through its generated typed C client (smithycurl
 * gen c --prefix ddb): CreateTable, the TableExists waiter, ListTables page
 * by page, DeleteTable and the TableNotExists waiter. Run by
 * codegen/c's tests with SMITHYCURL_DYNALITE_URL and
 * SMITHYCURL_DDB_MODEL set (and AWS_* credentials). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "ddb.h"

#define TABLES 3

static char names[TABLES][64];

static char *dupstr(const char *s) {
    char *d = malloc(strlen(s) + 1);
    if (d) strcpy(d, s);
    return d;
}

static void create(smithycurl_client *c, const char *name) {
    ddb_create_table_input in;
    ddb_create_table_output *out = NULL;
    smithycurl_result *err = NULL;
    ddb_create_table_input_init(&in);
    in.table_name = (char *)name;
    ddb_attribute_definitions_alloc(&in.attribute_definitions, 1);
    in.attribute_definitions.items[0].attribute_name = dupstr("pk");
    in.attribute_definitions.items[0].attribute_type.value = DDB_SCALAR_ATTRIBUTE_TYPE_S;
    ddb_key_schema_alloc(&in.key_schema, 1);
    in.key_schema.items[0].attribute_name = dupstr("pk");
    in.key_schema.items[0].key_type.value = DDB_KEY_TYPE_HASH;
    in.has_billing_mode = 1;
    in.billing_mode.value = DDB_BILLING_MODE_PAY_PER_REQUEST;
    CHECK_RC(ddb_create_table(c, &in, &out, &err), SMITHYCURL_OK);
    if (err) print_err(err);
    smithycurl_result_free(err);
    ddb_create_table_output_free(out);
    in.table_name = NULL; /* not ours to free */
    ddb_create_table_input_clear(&in);
}

int main(void) {
    const char *url = getenv("SMITHYCURL_DYNALITE_URL"), *path = getenv("SMITHYCURL_DDB_MODEL");
    smithycurl_model *m;
    smithycurl_options *opts = NULL;
    smithycurl_client *c = NULL;
    smithycurl_result *err = NULL;
    ddb_describe_table_input dt;
    ddb_describe_table_output *dto = NULL;
    ddb_list_tables_input lt;
    ddb_list_tables_paginator *pg = NULL;
    ddb_list_tables_output *page = NULL;
    ddb_delete_table_input del;
    ddb_delete_table_output *delo = NULL;
    int i, rc, pages = 0, found = 0;
    char prefix[32];
    if (!url || !path) {
        fprintf(stderr, "SMITHYCURL_DYNALITE_URL and SMITHYCURL_DDB_MODEL must be set\n");
        return 2;
    }
    if (!(m = load_model(path))) return 2;
    smithycurl_options_new(&opts);
    smithycurl_options_set_region(opts, "us-east-1");
    smithycurl_options_set_waiter_delays(opts, 250, 500); /* an attempt under valgrind fits in 250 ms */
    CHECK_RC(smithycurl_client_new(m, NULL, url, opts, &c), SMITHYCURL_OK);
    smithycurl_options_free(opts);
    if (!c) return check_done();

    /* Runs side by side (the test's variants) each name their tables apart. */
    if (getenv("SMITHYCURL_DDB_PREFIX") && strlen(getenv("SMITHYCURL_DDB_PREFIX")) < sizeof prefix)
        strcpy(prefix, getenv("SMITHYCURL_DDB_PREFIX"));
    else
        sprintf(prefix, "typedc-%d-", (int)(time(NULL) % 100000));
    for (i = 0; i < TABLES; i++) {
        sprintf(names[i], "%s%d", prefix, i);
        create(c, names[i]);
        ddb_describe_table_input_init(&dt);
        dt.table_name = names[i];
        CHECK_RC(ddb_wait_table_exists(c, &dt, 60000, NULL, &dto, &err), SMITHYCURL_OK);
        if (err) print_err(err);
        CHECK(dto && dto->table && streq(dto->table->table_name, names[i]) && dto->table->has_table_status &&
              dto->table->table_status.value == DDB_TABLE_STATUS_ACTIVE);
        ddb_describe_table_output_free(dto);
        dto = NULL;
    }

    /* One table per page. */
    ddb_list_tables_input_init(&lt);
    CHECK_RC(ddb_list_tables_paginator_new(c, &lt, 0, 1, 0, NULL, &pg), SMITHYCURL_OK);
    while ((rc = ddb_list_tables_paginator_next(pg, &page, &err)) == SMITHYCURL_OK && pages < 1000) {
        size_t k;
        pages++;
        CHECK(page->table_names.count <= 1);
        for (k = 0; k < page->table_names.count; k++)
            if (strncmp(page->table_names.items[k], prefix, strlen(prefix)) == 0) found++;
        ddb_list_tables_output_free(page);
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    if (err) print_err(err);
    CHECK(found == TABLES && pages >= TABLES);
    ddb_list_tables_paginator_free(pg);

    /* max_items: two tables in all. */
    CHECK_RC(ddb_list_tables_paginator_new(c, &lt, 2, 1, 0, NULL, &pg), SMITHYCURL_OK);
    pages = 0;
    while ((rc = ddb_list_tables_paginator_next(pg, &page, NULL)) == SMITHYCURL_OK && pages < 10) {
        pages++;
        ddb_list_tables_output_free(page);
    }
    CHECK_RC(rc, SMITHYCURL_E_END);
    CHECK(pages == 2);
    ddb_list_tables_paginator_free(pg);

    /* TableNotExists on a table that stays: the wait times out. */
    ddb_describe_table_input_init(&dt);
    dt.table_name = names[0];
    CHECK_RC(ddb_wait_table_not_exists(c, &dt, 800, NULL, NULL, &err), SMITHYCURL_E_WAITER_TIMEOUT);
    smithycurl_result_free(err);

    for (i = 0; i < TABLES; i++) {
        ddb_delete_table_input_init(&del);
        del.table_name = names[i];
        CHECK_RC(ddb_delete_table(c, &del, &delo, &err), SMITHYCURL_OK);
        smithycurl_result_free(err);
        ddb_delete_table_output_free(delo);
        dt.table_name = names[i];
        CHECK_RC(ddb_wait_table_not_exists(c, &dt, 60000, NULL, NULL, &err), SMITHYCURL_OK);
        if (err) print_err(err);
        smithycurl_result_free(err);
    }
    smithycurl_client_free(c);
    smithycurl_model_free(m);
    return check_done();
}
