// Client creation from C, model load included: DynamoDB (1.1 MB JSON AST)
// from its JSON file and from its snapshot (smithycurl_model_snapshot(),
// what `smithycurl compile` writes), R interleaved runs in this process;
// medians of wall and CPU time (this process, every thread: the CPU figure
// is the steadier one on a busy machine).
//
//   bench-c-startup <dynamodb.json> [runs]
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "smithycurl.h"

static smithycurl_model *load(const char *path) {
    smithycurl_loader *ld;
    smithycurl_model *m = NULL;
    if (smithycurl_loader_new(&ld) || smithycurl_loader_add_path(ld, path) || smithycurl_loader_load(ld, &m)) {
        fprintf(stderr, "cannot load %s\n", path);
        exit(1);
    }
    smithycurl_loader_free(ld);
    return m;
}

// create loads path and makes a DynamoDB client; wall and CPU ms.
static void create(const char *path, double *wall, double *cpu) {
    double w0 = now_s(), c0 = cpu_s();
    smithycurl_model *m = load(path);
    smithycurl_options *o;
    smithycurl_client *c;
    if (smithycurl_options_new(&o) || smithycurl_options_set_region(o, "us-east-1") ||
        smithycurl_client_new(m, "com.amazonaws.dynamodb#DynamoDB_20120810", NULL, o, &c)) {
        fprintf(stderr, "cannot create the client\n");
        exit(1);
    }
    *wall = (now_s() - w0) * 1e3, *cpu = (cpu_s() - c0) * 1e3;
    smithycurl_client_free(c);
    smithycurl_options_free(o);
    smithycurl_model_free(m);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s <dynamodb.json> [runs]\n", argv[0]);
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 21;
    if (runs < 1 || runs > 1000) runs = 21;
    char snap[] = "/tmp/smithycurl-bench-XXXXXX";
    int fd = mkstemp(snap);
    smithycurl_model *m = load(argv[1]);
    char *data;
    size_t n;
    if (fd < 0 || smithycurl_model_snapshot(m, &data, &n) || write(fd, data, n) != (ssize_t)n) return 1;
    close(fd);
    smithycurl_free(data);
    smithycurl_model_free(m);
    double *w[2], *c[2];
    const char *paths[2] = {argv[1], snap}, *names[2] = {"json", "snapshot"};
    for (int k = 0; k < 2; k++) w[k] = calloc(runs, sizeof(double)), c[k] = calloc(runs, sizeof(double));
    for (int r = 0; r < runs; r++)
        for (int k = 0; k < 2; k++) create(paths[k], &w[k][r], &c[k][r]);
    unlink(snap);
    printf("C: DynamoDB client creation, model load included (median of %d, wall / CPU of this process)\n", runs);
    double cm[2];
    for (int k = 0; k < 2; k++) {
        double wm = median(w[k], runs);
        cm[k] = median(c[k], runs);
        printf("  from %-9s %6.1f ms  %6.1f ms CPU\n", names[k], wm, cm[k]);
    }
    printf("  snapshot / json CPU: %.2fx\n", cm[1] / cm[0]);
    return 0;
}
