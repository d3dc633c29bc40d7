// DynamoDB GetItem and PutItem on dynalite: the typed C client (smithycurl
// gen c --prefix ddb of models/aws/dynamodb.json) against the JSON C path,
// the same requests as bench/c/dynamodb.c, on one client in one process,
// alternating in short rounds; medians of this process's CPU per call.
//
//   bench-c-typed-dynamodb <dynalite-url> <dynamodb-model.json> <calls>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "ddb.h"
#include "smithycurl.h"

#define TABLE "bench-c"
#define ROUNDS 7

static int failures;

static const char get_json[] = "{\"TableName\": \"" TABLE "\", \"Key\": {\"pk\": {\"S\": \"k1\"}}}";
static const char put_json[] = "{\"TableName\": \"" TABLE
                               "\", \"Item\": {\"pk\": {\"S\": \"k1\"}, \"name\": {\"S\": \"a name\"}, \"n\": {\"N\": \"42\"}}}";

static void json_call(smithycurl_client *c, const char *op, const char *in, int calls) {
    for (int i = 0; i < calls; i++) {
        smithycurl_result *r = NULL;
        const char *out;
        size_t n;
        if (smithycurl_call(c, op, in, strlen(in), NULL, &r) != SMITHYCURL_OK ||
            smithycurl_result_output(r, &out, &n) != SMITHYCURL_OK)
            failures++;
        smithycurl_result_free(r);
    }
}

static void json_get(smithycurl_client *c, int calls) { json_call(c, "GetItem", get_json, calls); }
static void json_put(smithycurl_client *c, int calls) { json_call(c, "PutItem", put_json, calls); }

static void typed_get(smithycurl_client *c, int calls) {
    ddb_get_item_input in;
    const char *keys[1] = {"pk"};
    ddb_attribute_value key[1];
    ddb_get_item_input_init(&in);
    in.table_name = TABLE;
    ddb_attribute_value_init(&key[0]);
    key[0].tag = DDB_ATTRIBUTE_VALUE_S;
    key[0].u.s = "k1";
    in.key.keys = keys;
    in.key.values = key;
    in.key.count = 1;
    for (int i = 0; i < calls; i++) {
        ddb_get_item_output *out = NULL;
        if (ddb_get_item(c, &in, &out, NULL) != SMITHYCURL_OK || out->item.count != 3) failures++;
        ddb_get_item_output_free(out);
    }
}

static void typed_put(smithycurl_client *c, int calls) {
    ddb_put_item_input in;
    const char *keys[3] = {"pk", "name", "n"};
    ddb_attribute_value vals[3];
    ddb_put_item_input_init(&in);
    in.table_name = TABLE;
    for (int i = 0; i < 3; i++) ddb_attribute_value_init(&vals[i]);
    vals[0].tag = DDB_ATTRIBUTE_VALUE_S;
    vals[0].u.s = "k1";
    vals[1].tag = DDB_ATTRIBUTE_VALUE_S;
    vals[1].u.s = "a name";
    vals[2].tag = DDB_ATTRIBUTE_VALUE_N;
    vals[2].u.n = "42";
    in.item.keys = keys;
    in.item.values = vals;
    in.item.count = 3;
    for (int i = 0; i < calls; i++) {
        ddb_put_item_output *out = NULL;
        if (ddb_put_item(c, &in, &out, NULL) != SMITHYCURL_OK) failures++;
        ddb_put_item_output_free(out);
    }
}

static void compare(smithycurl_client *c, const char *name, void (*json)(smithycurl_client *, int),
                    void (*typed)(smithycurl_client *, int), int calls) {
    double cj[ROUNDS], ct[ROUNDS];
    json(c, 50);
    typed(c, 50);
    for (int r = 0; r < ROUNDS; r++) { // short rounds, the order swapped every round
        for (int side = 0; side < 2; side++) {
            int typed_side = (r + side) % 2;
            double c0 = cpu_s();
            (typed_side ? typed : json)(c, calls);
            double cpu = (cpu_s() - c0) / calls * 1e6;
            if (typed_side) ct[r] = cpu;
            else cj[r] = cpu;
        }
    }
    qsort(cj, ROUNDS, sizeof *cj, cmp_double);
    qsort(ct, ROUNDS, sizeof *ct, cmp_double);
    printf("%-8s JSON path %7.1f us CPU/call   typed %7.1f us CPU/call   typed/JSON: %.2fx\n", name,
           cj[ROUNDS / 2], ct[ROUNDS / 2], ct[ROUNDS / 2] / cj[ROUNDS / 2]);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s <dynalite-url> <dynamodb-model.json> <calls>\n", argv[0]);
        return 2;
    }
    int calls = atoi(argv[3]);
    smithycurl_loader *ld;
    smithycurl_model *m;
    smithycurl_options *o;
    smithycurl_client *c;
    smithycurl_result *r = NULL;
    smithycurl_loader_new(&ld);
    smithycurl_loader_add_path(ld, argv[2]);
    smithycurl_options_new(&o);
    smithycurl_options_set_aws_sigv4(o, "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", NULL, "us-east-1");
    if (smithycurl_loader_load(ld, &m) != SMITHYCURL_OK ||
        smithycurl_client_new(m, "com.amazonaws.dynamodb#DynamoDB_20120810", argv[1], o, &c) != SMITHYCURL_OK) {
        fprintf(stderr, "set-up failed\n");
        return 1;
    }
    smithycurl_loader_free(ld);
    smithycurl_model_free(m);
    smithycurl_options_free(o);
    static const char create[] =
        "{\"TableName\": \"" TABLE "\", \"BillingMode\": \"PAY_PER_REQUEST\","
        " \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}],"
        " \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}]}";
    smithycurl_call(c, "CreateTable", create, sizeof create - 1, NULL, &r); // fails harmlessly when it exists
    smithycurl_result_free(r);
    json_put(c, 1);
    printf("typed C client vs JSON C path, DynamoDB on dynalite, %d calls x %d rounds (medians)\n", calls / ROUNDS, ROUNDS);
    compare(c, "GetItem", json_get, typed_get, calls / ROUNDS + 1);
    compare(c, "PutItem", json_put, typed_put, calls / ROUNDS + 1);
    smithycurl_client_free(c);
    if (failures) fprintf(stderr, "%d calls failed\n", failures);
    return failures != 0;
}
