// Cold start: one process that loads the httpbin model, creates a client and
// makes one call (GetIp), through the C API.
#include <stdio.h>

#include "smithycurl.h"

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    smithycurl_loader *ld;
    smithycurl_model *m;
    smithycurl_client *c;
    smithycurl_result *r;
    const char *out;
    size_t n;
    if (smithycurl_loader_new(&ld) || smithycurl_loader_add_path(ld, argv[2]) || smithycurl_loader_load(ld, &m) ||
        smithycurl_client_new(m, NULL, argv[1], NULL, &c))
        return 1;
    int rc = smithycurl_call(c, "GetIp", NULL, 0, NULL, &r);
    if (rc == SMITHYCURL_OK && smithycurl_result_output(r, &out, &n) == SMITHYCURL_OK) fwrite(out, 1, n, stdout);
    smithycurl_result_free(r);
    smithycurl_client_free(c);
    smithycurl_model_free(m);
    smithycurl_loader_free(ld);
    return rc == SMITHYCURL_OK ? 0 : 1;
}
