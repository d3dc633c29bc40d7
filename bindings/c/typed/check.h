/* A minimal test harness shared by the typed-client test programs: CHECK
 * counts, prints failures with their line, and the program ends with the
 * "N passed, N failed" line the other C tests print. */
#ifndef TYPED_CHECK_H
#define TYPED_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smithycurl.h"

static int check_passed, check_failed;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (cond) {                                                                                \
            check_passed++;                                                                        \
        } else {                                                                                   \
            check_failed++;                                                                        \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                        \
        }                                                                                          \
    } while (0)

#define CHECK_RC(rc, want)                                                                         \
    do {                                                                                           \
        int rc_ = (rc);                                                                            \
        if (rc_ == (want)) {                                                                       \
            check_passed++;                                                                        \
        } else {                                                                                   \
            check_failed++;                                                                        \
            fprintf(stderr, "FAIL %s:%d: %s = %d (%s), want %d\n", __FILE__, __LINE__, #rc, rc_,   \
                    smithycurl_strerror((smithycurl_code)rc_), (int)(want));                        \
        }                                                                                          \
    } while (0)

static int streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* The detail of a failed call, for failure messages. */
static void print_err(smithycurl_result *err) {
    const char *msg = "";
    if (err && smithycurl_result_error_message(err, &msg) == SMITHYCURL_OK && msg[0])
        fprintf(stderr, "     error: %s\n", msg);
}

/* Loads the model files and directories of path, a ':'-separated list. */
static smithycurl_model *load_model(const char *path) {
    smithycurl_loader *ld;
    smithycurl_model *m = NULL;
    char *msg, one[4096];
    const char *p = path, *end;
    if (smithycurl_loader_new(&ld) != SMITHYCURL_OK) return NULL;
    for (; *p; p = *end ? end + 1 : end) {
        size_t n;
        end = strchr(p, ':');
        if (!end) end = p + strlen(p);
        n = (size_t)(end - p) < sizeof one - 1 ? (size_t)(end - p) : sizeof one - 1;
        memcpy(one, p, n);
        one[n] = 0;
        if (n) smithycurl_loader_add_path(ld, one);
    }
    if (smithycurl_loader_load(ld, &m) != SMITHYCURL_OK) {
        smithycurl_loader_errmsg(ld, &msg);
        fprintf(stderr, "load %s: %s\n", path, msg);
        smithycurl_free(msg);
    }
    smithycurl_loader_free(ld);
    return m;
}

static int check_done(void) {
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}

#endif
