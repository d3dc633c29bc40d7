// One fresh process's DynamoDB clients from C, model load included: the
// first (in a fresh process: the model cache's snapshot, or the JSON file)
// and NEXT more (the process's model cache), as bench/startup.py reads it:
//
//   first=F next=N   (milliseconds; N the median of the next ones)
//
//   bench-c-startup-fresh <dynamodb.json> <next>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "smithycurl.h"

static int create(const char *path) {
    smithycurl_loader *ld;
    smithycurl_model *m = NULL;
    smithycurl_options *o;
    smithycurl_client *c;
    int rc = smithycurl_loader_new(&ld) || smithycurl_loader_add_path(ld, path) || smithycurl_loader_load(ld, &m);
    smithycurl_loader_free(ld);
    if (rc) return 1;
    if (smithycurl_options_new(&o) || smithycurl_options_set_region(o, "us-east-1") ||
        smithycurl_client_new(m, "com.amazonaws.dynamodb#DynamoDB_20120810", NULL, o, &c))
        return 1;
    smithycurl_client_free(c);
    smithycurl_options_free(o);
    smithycurl_model_free(m);
    return 0;
}

int main(int argc, char **argv) {
    int next = argc > 2 ? atoi(argv[2]) : 0;
    if (argc < 3 || next < 1 || next > 10000) {
        fprintf(stderr, "usage: %s <dynamodb.json> <next>\n", argv[0]);
        return 2;
    }
    double *t = calloc(next + 1, sizeof *t);
    for (int i = 0; i <= next; i++) {
        double t0 = now_s();
        if (create(argv[1])) {
            fprintf(stderr, "cannot load %s or create the client\n", argv[1]);
            return 1;
        }
        t[i] = (now_s() - t0) * 1e3;
    }
    printf("first=%.2f next=%.2f\n", t[0], median(t + 1, next));
    free(t);
    return 0;
}
