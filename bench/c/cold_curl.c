// Cold start baseline: one process making one plain libcurl request
// (GET <url>/ip), like the smithycurl one in cold_smithycurl.c. Built with
// -DGOFLOOR, it first enters testing/cmd/gofloor, an empty Go library: the
// same request with the Go runtime's start-up added.
#include <curl/curl.h>
#include <stdio.h>

#ifdef GOFLOOR
int gofloor_enter(void);
#endif

static size_t sink(char *p, size_t size, size_t n, void *ud) {
    (void)ud;
    fwrite(p, size, n, stdout);
    return size * n;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    char target[512];
    snprintf(target, sizeof target, "%s/ip", argv[1]);
#ifdef GOFLOOR
    gofloor_enter();
#endif
    curl_global_init(CURL_GLOBAL_ALL);
    CURL *h = curl_easy_init();
    curl_easy_setopt(h, CURLOPT_URL, target);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink);
    CURLcode rc = curl_easy_perform(h);
    curl_easy_cleanup(h);
    curl_global_cleanup();
    return rc == CURLE_OK ? 0 : 1;
}
